"""Invitations addressed to one player (games/services/invitations.py): who may invite, what
accepting does (a seat through join_game, with its refusals), expiry when a game no longer takes
players, blocks, the cap per inviter, league invitations and racing accepts for the last seat."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors, services
from games.errors import BadMove, GameNotActive, GameNotFound, NotYourSeat
from games.leagues import services as leagues
from games.leagues.models import League, LeagueEntry
from games.models import Game, Invitation, Seat
from games.services import invitations
from moderation.models import Block, Sanction
from tests.support.concurrency import run_together

pytestmark = pytest.mark.django_db


def open_game(host, players: int = 3) -> Game:
    """A toy race not yet started, its host in the first seat."""
    return services.create_game(kind="toy", config={"players": players, "target": 15}, created_by=host)


def pending(user) -> list[int]:
    return [invitation.pk for invitation in selectors.invitations_for(user)]


def test_the_host_invites_and_the_invited_player_accepts_into_a_seat(make_user):
    host, guest = make_user("host"), make_user("guest")
    game = open_game(host)
    invitation = invitations.invite_to_game(game_id=game.pk, by_user=host, username=" guest ")
    assert (invitation.invited, invitation.invited_by, invitation.status) == (guest, host, "pending")
    assert pending(guest) == [invitation.pk] and pending(host) == []
    assert [i.pk for i in selectors.invitations_of_game(game)] == [invitation.pk]
    accepted = invitations.accept(invitation_id=invitation.pk, user=guest)
    assert accepted.seat == Seat.objects.get(game=game, user=guest)
    assert Invitation.objects.get(pk=invitation.pk).status == Invitation.Status.ACCEPTED
    assert pending(guest) == [] and selectors.invitations_of_game(game) == []
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN  # a seat is still free


@pytest.mark.parametrize("case", ["not-host", "started", "full", "unknown", "self", "seated", "twice"])
def test_what_an_invitation_refuses(make_user, case):
    host, guest, other = make_user("host"), make_user("guest"), make_user("other")
    game = open_game(host)
    by, name, refusal = host, "guest", GameNotActive
    if case == "not-host":
        services.join_game(game_id=game.pk, user=other)
        by, refusal = other, NotYourSeat
    elif case == "started":
        services.start_game(game_id=game.pk, by_user=host, fill_with_ai="easy")
    elif case == "full":
        services.set_seat(game_id=game.pk, by_user=host, index=1, ai_level="easy")
        services.set_seat(game_id=game.pk, by_user=host, index=2, ai_level="easy")
    elif case == "unknown":
        name, refusal = "nobody-of-that-name", BadMove
    elif case == "self":
        name, refusal = "host", BadMove
    elif case == "seated":
        services.join_game(game_id=game.pk, user=guest)
    elif case == "twice":
        invitations.invite_to_game(game_id=game.pk, by_user=host, username="guest")
    before = Invitation.objects.count()
    with pytest.raises(refusal) as refused:
        invitations.invite_to_game(game_id=game.pk, by_user=by, username=name)
    assert refused.value.message
    assert Invitation.objects.count() == before  # nothing written


def test_a_declined_invitation_is_not_sent_again_and_a_cancelled_one_is_gone(make_user):
    host, guest, third = make_user("host"), make_user("guest"), make_user("third")
    game = open_game(host)
    first = invitations.invite_to_game(game_id=game.pk, by_user=host, username="guest")
    invitations.decline(invitation_id=first.pk, user=guest)
    assert Invitation.objects.get(pk=first.pk).status == "declined" and pending(guest) == []
    with pytest.raises(GameNotActive, match="declined"):
        invitations.invite_to_game(game_id=game.pk, by_user=host, username="guest")
    with pytest.raises(GameNotActive, match="already been answered"):
        invitations.accept(invitation_id=first.pk, user=guest)
    second = invitations.invite_to_game(game_id=game.pk, by_user=host, username="third")
    with pytest.raises(GameNotFound):  # only its sender cancels it
        invitations.cancel(invitation_id=second.pk, by_user=third)
    invitations.cancel(invitation_id=second.pk, by_user=host)
    assert pending(third) == []
    with pytest.raises(GameNotActive, match="cancelled"):
        invitations.accept(invitation_id=second.pk, user=third)
    with pytest.raises(GameNotFound):  # another's invitation: as if there were none
        invitations.accept(invitation_id=second.pk, user=guest)


@pytest.mark.parametrize("how", ["start", "cancel", "fill"])
def test_a_game_that_starts_is_cancelled_or_fills_expires_its_invitations(make_user, how):
    host = make_user("host")
    guests = [make_user(f"guest{i}") for i in range(2)]
    game = open_game(host)
    sent = [invitations.invite_to_game(game_id=game.pk, by_user=host, username=g.username) for g in guests]
    if how == "start":
        services.start_game(game_id=game.pk, by_user=host, fill_with_ai="easy")
    elif how == "cancel":
        services.cancel_game(game_id=game.pk, by_user=host)
    else:  # the host gives the free seats to the AI: none left, though the game waits for its start
        services.set_seat(game_id=game.pk, by_user=host, index=1, ai_level="easy")
        assert Invitation.objects.get(pk=sent[0].pk).status == "pending"  # one seat is still free
        services.set_seat(game_id=game.pk, by_user=host, index=2, ai_level="easy")
    assert {i.status for i in Invitation.objects.filter(pk__in=[s.pk for s in sent])} == {"expired"}
    assert all(pending(g) == [] for g in guests)
    with pytest.raises(GameNotActive, match="expired"):
        invitations.accept(invitation_id=sent[0].pk, user=guests[0])


def test_accepting_takes_the_last_seat_and_starts_the_game_expiring_the_others(make_user):
    host, ana, bo = make_user("host"), make_user("ana"), make_user("bo")
    game = open_game(host, players=2)
    to_ana = invitations.invite_to_game(game_id=game.pk, by_user=host, username="ana")
    to_bo = invitations.invite_to_game(game_id=game.pk, by_user=host, username="bo")
    invitations.accept(invitation_id=to_ana.pk, user=ana)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    assert Invitation.objects.get(pk=to_ana.pk).status == "accepted"
    assert Invitation.objects.get(pk=to_bo.pk).status == "expired"
    with pytest.raises(GameNotActive):
        invitations.accept(invitation_id=to_bo.pk, user=bo)
    assert not Seat.objects.filter(game=game, user=bo).exists()


@pytest.mark.django_db(transaction=True)
def test_racing_accepts_for_the_last_seat_one_wins(make_user):
    host, ana, bo = make_user("host"), make_user("ana"), make_user("bo")
    game = open_game(host, players=2)
    to_ana = invitations.invite_to_game(game_id=game.pk, by_user=host, username="ana")
    to_bo = invitations.invite_to_game(game_id=game.pk, by_user=host, username="bo")
    outcomes = run_together(lambda: invitations.accept(invitation_id=to_ana.pk, user=ana),
                            lambda: invitations.accept(invitation_id=to_bo.pk, user=bo))
    won = [o for o in outcomes if isinstance(o, invitations.Accepted)]
    lost = [o for o in outcomes if isinstance(o, GameNotActive)]
    assert len(won) == 1 and len(lost) == 1, outcomes
    assert Seat.objects.filter(game=game, user__in=[ana, bo]).count() == 1
    assert sorted(Invitation.objects.filter(game=game).values_list("status", flat=True)) == ["accepted", "expired"]
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_a_play_ban_refuses_the_accept_and_keeps_the_invitation(make_user):
    host, guest = make_user("host"), make_user("guest")
    game = open_game(host)
    invitation = invitations.invite_to_game(game_id=game.pk, by_user=host, username="guest")
    ban = Sanction.objects.create(user=guest, kind=Sanction.Kind.PLAY_BAN, reason="spam", created_by=host,
                                  ends_at=timezone.now() + timedelta(days=1))
    with pytest.raises(Exception, match="banned from play"):
        invitations.accept(invitation_id=invitation.pk, user=guest)
    assert Invitation.objects.get(pk=invitation.pk).status == "pending"
    assert not Seat.objects.filter(game=game, user=guest).exists()
    ban.delete()
    invitations.accept(invitation_id=invitation.pk, user=guest)
    assert Seat.objects.filter(game=game, user=guest).exists()


def test_who_blocked_the_inviter_never_sees_the_invitation(make_user):
    host, guest = make_user("host"), make_user("guest")
    game = open_game(host)
    Block.objects.create(blocker=guest, blocked=host)
    invitation = invitations.invite_to_game(game_id=game.pk, by_user=host, username="guest")  # silently
    assert [i.pk for i in selectors.invitations_of_game(game)] == [invitation.pk]  # the host sees it waiting
    assert pending(guest) == []
    for answer in (invitations.accept, invitations.decline):
        with pytest.raises(GameNotFound):
            answer(invitation_id=invitation.pk, user=guest)
    assert not Seat.objects.filter(game=game, user=guest).exists()


def test_an_inviter_has_a_limited_number_of_invitations_waiting(make_user, monkeypatch):
    monkeypatch.setattr(invitations, "MAX_PENDING", 2)
    host = make_user("host")
    game = open_game(host, players=4)
    guests = [make_user(f"guest{i}") for i in range(3)]
    first = invitations.invite_to_game(game_id=game.pk, by_user=host, username="guest0")
    invitations.invite_to_game(game_id=game.pk, by_user=host, username="guest1")
    with pytest.raises(GameNotActive, match="waiting for an answer"):
        invitations.invite_to_game(game_id=game.pk, by_user=host, username="guest2")
    invitations.decline(invitation_id=first.pk, user=guests[0])  # answered: room for one more
    invitations.invite_to_game(game_id=game.pk, by_user=host, username="guest2")


def make_league(organiser, **fields) -> League:
    return League.objects.create(name="Spring", organiser=organiser, starts_at=timezone.now() + timedelta(days=3),
                                 **fields)


@pytest.mark.parametrize("entry, becomes", [("open", "approved"), ("approval", "pending"),
                                            ("invitation", "approved")])
def test_a_league_invitation_accepted_is_an_entry_as_the_league_says(make_user, entry, becomes):
    organiser, guest = make_user("org"), make_user("guest")
    league = make_league(organiser, entry=entry)
    invitation = leagues.invite(league_id=league.pk, by_user=organiser, username="guest")
    assert pending(guest) == [invitation.pk]
    invitations.accept(invitation_id=invitation.pk, user=guest)
    assert LeagueEntry.objects.get(league=league, user=guest).status == becomes
    assert Invitation.objects.get(pk=invitation.pk).status == "accepted"


def test_a_bot_is_invited_to_a_league_only_where_bots_are_admitted(make_user):
    organiser, bot = make_user("org"), make_user("robo", is_bot=True)
    closed, admitting = make_league(organiser), make_league(organiser, admits_bots=True)
    with pytest.raises(NotYourSeat, match="bot"):
        leagues.invite(league_id=closed.pk, by_user=organiser, username="robo")
    with pytest.raises(NotYourSeat, match="bot"):  # nor enters it by itself
        leagues.enter_league(league_id=closed.pk, user=bot)
    invitation = leagues.invite(league_id=admitting.pk, by_user=organiser, username="robo")
    invitations.accept(invitation_id=invitation.pk, user=bot)
    assert LeagueEntry.objects.filter(league=admitting, user=bot, status="approved").exists()


def test_only_the_organiser_invites_and_a_started_season_expires_invitations(make_user):
    organiser, stranger, guest = make_user("org"), make_user("stranger"), make_user("guest")
    league = make_league(organiser)
    with pytest.raises(NotYourSeat):
        leagues.invite(league_id=league.pk, by_user=stranger, username="guest")
    invitation = leagues.invite(league_id=league.pk, by_user=organiser, username="guest")
    for player in (make_user("p1"), make_user("p2")):
        leagues.enter_league(league_id=league.pk, user=player)
    leagues.start_season(league_id=league.pk, by_user=organiser)
    assert Invitation.objects.get(pk=invitation.pk).status == "expired"
    with pytest.raises(GameNotActive, match="expired"):
        invitations.accept(invitation_id=invitation.pk, user=guest)
    with pytest.raises(GameNotActive):
        leagues.invite(league_id=league.pk, by_user=organiser, username="guest")
