"""Moderation through its services: each action and the place its effect bites."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.db import DatabaseError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from games import services, state_store
from games.errors import BadMove, GameError, GameNotActive, NotYourSeat, RateLimited
from games.hextension import engine as hextension
from games.leagues import services as leagues
from games.leagues.models import League
from games.models import ChatMessage, Game, MoveEvent, Rating, RatingChange
from games.services import chat
from moderation import sanctions
from moderation import services as moderation
from moderation.models import ModerationRecord, Report, Sanction
from tests.support.factories import toy_game
from tests.support.roles import app_refusal

pytestmark = pytest.mark.django_db


def hextension_game(ana, bo) -> Game:
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2}, created_by=ana)
    services.join_game(game_id=game.pk, user=bo)
    game.refresh_from_db()
    return game


def play_a_round(game: Game, *users) -> Game:
    for seat, user in enumerate(users):
        view = hextension.view(state_store.load(game), seat)
        placements = dict(zip(view["drawn"], hextension.CELLS))  # the first round: every cell is free
        services.submit_move(game_id=game.pk, user=user, move={"type": "place", "placements": placements},
                             expected_version=game.version)
        game.refresh_from_db()
    return game


# --- reports -------------------------------------------------------------------------------

def test_a_report_is_filed_once_per_reason_while_open_and_rate_limited(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = toy_game(ana, bo)
    report = moderation.file_report(reporter=ana, target=bo, reason="stalling", text="never moves", game=game)
    assert (report.status, report.game, report.text) == (Report.Status.OPEN, game, "never moves")
    with pytest.raises(GameNotActive, match="already reported bo for this reason"):
        moderation.file_report(reporter=ana, target=bo, reason="stalling")
    moderation.file_report(reporter=ana, target=bo, reason="other")  # another reason is another report
    with pytest.raises(BadMove, match="at most 1000 characters"):
        moderation.file_report(reporter=ana, target=bo, reason="cheating", text="x" * 1001)
    with pytest.raises(BadMove, match="yourself"):
        moderation.file_report(reporter=ana, target=ana, reason="other")
    with pytest.raises(BadMove, match="Choose a reason"):
        moderation.file_report(reporter=ana, target=bo, reason="ugly")
    carl = make_user("carl")
    allowed = 0
    for reason in ["chat_abuse", "cheating", "stalling", "offensive_name", "other", "other", "other"]:
        try:
            moderation.file_report(reporter=carl, target=bo if reason != "other" else make_user(), reason=reason)
            allowed += 1
        except RateLimited:
            break
    assert allowed == moderation.REPORT_RATE[0]
    assert Report.objects.filter(reporter=carl).count() == moderation.REPORT_RATE[0]


def test_a_report_of_a_chat_message_names_its_author_and_game(make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    message = chat.post_message(game_id=game.pk, user=bo, text="you are rubbish")
    report = moderation.file_report(reporter=ana, target=bo, reason="chat_abuse", chat_message=message)
    assert (report.game, report.chat_message) == (game, message)
    with pytest.raises(BadMove, match="not written by this player"):
        moderation.file_report(reporter=bo, target=ana, reason="chat_abuse", chat_message=message)


# --- mute, play ban --------------------------------------------------------------------------

def test_a_muted_players_chat_post_is_refused_with_until_when_and_why(make_user, moderator, django_capture_on_commit_callbacks):
    ana, bo = make_user(), make_user("bo")
    game = toy_game(ana, bo)
    report = moderation.file_report(reporter=ana, target=bo, reason="chat_abuse", game=game)
    with django_capture_on_commit_callbacks(execute=True):
        sanction = moderation.mute(actor=moderator, user=bo, days=3, reason="Insults in chat", report_id=report.pk)
    with pytest.raises(sanctions.Sanctioned, match=r"muted in chat until .* 20\d\d.*Reason: Insults in chat") as refused:
        chat.post_message(game_id=game.pk, user=bo, text="hello")
    assert refused.value.status == 403 and not ChatMessage.objects.exists()
    chat.post_message(game_id=game.pk, user=ana, text="still here")  # others still write
    report.refresh_from_db()
    assert (report.status, report.outcome, report.closed_by) == ("closed", "actioned", moderator)
    record = ModerationRecord.objects.get(action="mute")
    assert (record.actor, record.target_user, record.reason, record.sanction, record.details) == (
        moderator, bo, "Insults in chat", sanction, {"days": 3})
    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert "muted" in subjects[bo.email] and "closed" in subjects[ana.email]
    assert "Insults" not in next(m.body for m in mail.outbox if m.to == [ana.email])  # the outcome, not the details
    # Once it runs out, chat is open again.
    Sanction.objects.filter(pk=sanction.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    chat.post_message(game_id=game.pk, user=bo, text="sorry")


def test_a_play_banned_player_cannot_create_join_rematch_or_enter_a_league(make_user, moderator, client):
    ana, bo, carl = make_user(), make_user("bo"), make_user()
    finished = toy_game(bo, carl, target=3)
    services.submit_move(game_id=finished.pk, user=bo, move={"type": "add", "n": 3}, expected_version=finished.version)
    running = toy_game(bo, carl)
    moderation.play_ban(actor=moderator, user=bo, days=7, reason="Leaves every game")
    open_game = services.create_game(kind="toy", config={"players": 2, "target": 15}, created_by=ana)
    refusals = [
        lambda: services.create_game(kind="toy", config={"players": 2, "target": 15}, created_by=bo),
        lambda: services.join_game(game_id=open_game.pk, user=bo),
        lambda: services.rematch(game_id=finished.pk, user=bo),
    ]
    organiser = make_user(is_staff=True)
    from django.contrib.auth.models import Permission
    organiser.user_permissions.add(Permission.objects.get(codename="organise_leagues"))
    organiser = type(organiser).objects.get(pk=organiser.pk)
    league = leagues.create_league(organiser=organiser, name="L", tiles_per_round=2, round_hours=48, season_games=1,
                                   entry=League.Entry.OPEN, schedule=League.Schedule.SEQUENTIAL,
                                   starts_at=timezone.now() + timedelta(days=1))
    refusals.append(lambda: leagues.enter_league(league_id=league.pk, user=bo))
    games_before = Game.objects.count()
    for refused in refusals:
        with pytest.raises(sanctions.Sanctioned, match=r"banned from play until .*Reason: Leaves every game"):
            refused()
    assert Game.objects.count() == games_before and not league.entries.exists()
    assert not open_game.seats.filter(user=bo).exists()
    # The games already running go on: the banned player still moves.
    services.submit_move(game_id=running.pk, user=bo, move={"type": "add", "n": 1}, expected_version=running.version)
    # The pages say it: the Hexland room form answers 403 with the reason.
    client.force_login(bo)
    page = client.post(reverse("game_join", args=[open_game.invite_token]))
    assert page.status_code == 403 and "banned from play until" in page.content.decode()


def test_play_bans_escalate_for_repeat_stalling(make_user, moderator):
    bo = make_user()
    lengths = []
    for _ in range(6):
        ban = moderation.play_ban(actor=moderator, user=bo, reason="Stalling")
        lengths.append(round((ban.ends_at - ban.starts_at) / timedelta(days=1)))
    assert lengths == [1, 3, 7, 14, 30, 30]
    assert moderation.play_ban(actor=moderator, user=bo, reason="Stalling", days=2).ends_at is not None


# --- blocks ------------------------------------------------------------------------------------

def test_a_blocker_no_longer_sees_the_blocked_players_chat_or_rematch(make_user, client):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo, target=3)
    chat.post_message(game_id=game.pk, user=bo, text="nasty words")
    chat.post_message(game_id=game.pk, user=ana, text="my words")
    services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 3}, expected_version=game.version)
    services.rematch(game_id=game.pk, user=bo)
    moderation.block(blocker=ana, blocked=bo)
    client.force_login(ana)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    shown = re.sub(r'<details class="chat-blocked">.*?</details>', "", page, flags=re.S)  # opened on request
    assert "nasty words" not in shown and "my words" in page and "A rematch is open" not in page
    assert "1 message hidden (blocked)" in page
    with pytest.raises(NotYourSeat, match="blocked the player who opened this rematch"):
        services.rematch(game_id=game.pk, user=ana)
    client.force_login(bo)  # the blocked player sees nothing changed
    assert "nasty words" in client.get(reverse("game_detail", args=[game.pk])).content.decode()
    moderation.unblock(blocker=ana, blocked=bo)
    client.force_login(ana)
    assert "nasty words" in client.get(reverse("game_detail", args=[game.pk])).content.decode()


# --- warn, rename, hide, dismiss, suspend, close -------------------------------------------------

def test_warn_rename_hide_and_dismiss_are_recorded_and_close_their_reports(make_user, moderator):
    ana, bo = make_user(), make_user("bo", display_name="Rude Name")
    game = toy_game(ana, bo)
    message = chat.post_message(game_id=game.pk, user=bo, text="rude")
    on_message = moderation.file_report(reporter=ana, target=bo, reason="chat_abuse", chat_message=message)
    on_name = moderation.file_report(reporter=ana, target=bo, reason="offensive_name")
    baseless = moderation.file_report(reporter=ana, target=bo, reason="cheating")
    moderation.hide_message(actor=moderator, message_id=message.pk, reason="Insult", report_id=on_message.pk)
    moderation.rename(actor=moderator, user=bo, new_name="", reason="Offensive", report_id=on_name.pk)
    moderation.dismiss(actor=moderator, report_id=baseless.pk, reason="Plays well, that is all")
    moderation.warn(actor=moderator, user=bo, reason="Mind your words")
    bo.refresh_from_db()
    message.refresh_from_db()
    assert bo.public_name == "bo" and message.hidden_by == moderator
    outcomes = dict(Report.objects.values_list("reason", "outcome"))
    assert outcomes == {"chat_abuse": "actioned", "offensive_name": "actioned", "cheating": "dismissed"}
    actions = list(ModerationRecord.objects.order_by("pk").values_list("action", "target_user", "reason"))
    assert actions == [("hide_message", bo.pk, "Insult"), ("rename", bo.pk, "Offensive"),
                       ("dismiss", bo.pk, "Plays well, that is all"), ("warn", bo.pk, "Mind your words")]
    assert ModerationRecord.objects.get(action="rename").details == {"old_name": "Rude Name", "new_name": ""}
    with pytest.raises(GameNotActive, match="already closed"):
        moderation.dismiss(actor=moderator, report_id=baseless.pk, reason="again")
    with pytest.raises(BadMove, match="reason"):
        moderation.warn(actor=moderator, user=bo, reason="  ")


def test_a_suspended_players_games_go_on_with_the_ai_and_the_account_reopens(make_user, moderator, client):
    ana, bo, carl = make_user(), make_user(), make_user()
    running = hextension_game(ana, bo)
    hosted = services.create_game(kind="toy", config={"players": 2, "target": 15}, created_by=bo)
    joined = services.create_game(kind="toy", config={"players": 3, "target": 15}, created_by=carl)
    services.join_game(game_id=joined.pk, user=bo)
    moderation.suspend(actor=moderator, user=bo, days=2, reason="Harassment")
    bo.refresh_from_db()
    assert not bo.is_active
    assert running.seats.get(user=bo).standin_level == "strong"  # Hextension's strongest AI plays on
    assert Game.objects.get(pk=hosted.pk).status == Game.Status.CANCELLED
    assert not joined.seats.filter(user=bo).exists()
    client.force_login(bo)
    assert client.get(reverse("dashboard")).status_code == 302  # logged out: inactive
    assert moderation.reopen_ended_suspensions() == 0
    Sanction.objects.filter(user=bo).update(ends_at=timezone.now() - timedelta(minutes=1))
    assert moderation.reopen_ended_suspensions() == 1
    bo.refresh_from_db()
    assert bo.is_active


def test_a_closed_account_stays_closed(make_user, moderator):
    bo = make_user()
    moderation.close_account(actor=moderator, user=bo, reason="Second account of a banned player")
    assert moderation.reopen_ended_suspensions() == 0
    bo.refresh_from_db()
    assert not bo.is_active and Sanction.objects.get(user=bo).ends_at is None


def test_only_moderators_act(make_user, moderator):
    ana, bo = make_user(), make_user()
    staff_without_permission = make_user(is_staff=True)
    for actor in (ana, staff_without_permission):
        with pytest.raises(NotYourSeat, match="Only moderators"):
            moderation.mute(actor=actor, user=bo, days=1, reason="x")
    with pytest.raises(NotYourSeat):
        moderation.suspend(actor=moderator, user=moderator, days=1, reason="x")
    assert not Sanction.objects.exists() and not ModerationRecord.objects.exists()



def test_a_moderator_acts_on_ordinary_users_only_and_a_superuser_on_staff_too(make_user, moderator,
                                                                              django_user_model):
    """An outside review suspended a staff account as a member of Moderators. Every action on a
    staff account (staff or superuser) needs a superuser; the refusal says so."""
    colleague = make_user("colleague", is_staff=True)
    boss = django_user_model.objects.create_superuser("boss", "boss@example.com", "a-long-pass-phrase")
    ana = make_user()
    game = toy_game(ana, colleague)
    message = chat.post_message(game_id=game.pk, user=colleague, text="a staff member's words")
    report = moderation.file_report(reporter=ana, target=colleague, reason="chat_abuse", chat_message=message)
    refused = "is a staff account: only a superuser can act on a staff account"
    attempts = [
        lambda actor: moderation.suspend(actor=actor, user=colleague, days=1, reason="x"),
        lambda actor: moderation.close_account(actor=actor, user=colleague, reason="x"),
        lambda actor: moderation.mute(actor=actor, user=colleague, days=1, reason="x"),
        lambda actor: moderation.play_ban(actor=actor, user=colleague, reason="x"),
        lambda actor: moderation.warn(actor=actor, user=colleague, reason="x"),
        lambda actor: moderation.rename(actor=actor, user=colleague, new_name="y", reason="x"),
        lambda actor: moderation.hide_message(actor=actor, message_id=message.pk, reason="x"),
        lambda actor: moderation.dismiss(actor=actor, report_id=report.pk, reason="x"),
        lambda actor: moderation.warn(actor=actor, user=boss, reason="x"),
        lambda actor: moderation.warn(actor=actor, user=actor, reason="x"),  # a moderator is staff too
    ]
    for attempt in attempts:
        with pytest.raises(NotYourSeat, match=refused):
            attempt(moderator)
    colleague.refresh_from_db()
    message.refresh_from_db()
    report.refresh_from_db()
    assert colleague.is_active and colleague.display_name == "" and message.hidden_at is None
    assert report.status == Report.Status.OPEN
    assert not Sanction.objects.exists() and not ModerationRecord.objects.exists()

    # A superuser may: the sanction is recorded, and lifting it is a superuser's too.
    suspended = moderation.suspend(actor=boss, user=colleague, days=1, reason="Abused the admin")
    colleague.refresh_from_db()
    assert not colleague.is_active
    with pytest.raises(NotYourSeat, match=refused):
        moderation.lift(actor=moderator, sanction_id=suspended.pk, reason="x")
    moderation.lift(actor=boss, sanction_id=suspended.pk, reason="Appeal accepted")
    colleague.refresh_from_db()
    assert colleague.is_active
    assert list(ModerationRecord.objects.order_by("pk").values_list("actor", "action")) == [
        (boss.pk, "suspend"), (boss.pk, "lift")]
    # Ordinary users stay the moderators' to act on.
    moderation.warn(actor=moderator, user=ana, reason="Mind your words")


# --- adjudication ------------------------------------------------------------------------------

def test_an_aborted_game_changes_no_rating_and_its_replay_shows_the_staff_event(make_user, moderator, client,
                                                                               django_capture_on_commit_callbacks):
    ana, bo = make_user(), make_user()
    aborted = play_a_round(hextension_game(ana, bo), ana, bo)
    ended = play_a_round(hextension_game(ana, bo), ana, bo)
    replay_before = state_store.replay(aborted)
    with django_capture_on_commit_callbacks(execute=True):
        moderation.abort_game(actor=moderator, game_id=aborted.pk, reason="Played by one person on two accounts")
    moderation.end_game(actor=moderator, game_id=ended.pk, scores=[50, 80], reason="Bo was cut off by our outage")
    for game in (aborted, ended):
        services.game_finished(game_id=game.pk)  # the task the services queue
    aborted.refresh_from_db()
    ended.refresh_from_db()
    assert aborted.status == Game.Status.CANCELLED and aborted.result is None
    assert not RatingChange.objects.filter(game=aborted).exists()
    assert RatingChange.objects.filter(game=ended).count() == 2  # the control: a staff result is rated
    assert ended.result == {"scores": [50, 80], "ranks": [2, 1], "staff": True}
    assert Rating.objects.get(user=bo).mu > Rating.objects.get(user=ana).mu
    staff = MoveEvent.objects.get(game=aborted, kind=MoveEvent.Kind.STAFF)
    assert (staff.seq, staff.seat, staff.created_by) == (aborted.version, None, moderator)
    assert staff.payload == {"action": "abort", "reason": "Played by one person on two accounts",
                             "by": moderator.username}
    assert hextension.view(state_store.replay(aborted), None) == hextension.view(replay_before, None)
    assert {m.to[0] for m in mail.outbox if "aborted" in m.subject} == {ana.email, bo.email}
    client.force_login(ana)
    page = client.get(reverse("game_replay", args=[aborted.pk])).content.decode()
    assert "a staff decision (game aborted by mod: Played by one person on two accounts)" in page
    assert "This game was aborted by the staff" in client.get(reverse("game_detail", args=[aborted.pk])).content.decode()
    with pytest.raises(GameNotActive):
        moderation.abort_game(actor=moderator, game_id=aborted.pk, reason="again")
    with pytest.raises(BadMove, match="one whole-number score per seat"):
        moderation.end_game(actor=moderator, game_id=play_a_round(hextension_game(ana, bo), ana, bo).pk,
                            scores=[1], reason="x")
    assert ModerationRecord.objects.filter(action__in=["abort_game", "end_game"]).count() == 2


# --- the record is append-only ----------------------------------------------------------------

def _refused(sql: str, params=(), match="append-only") -> None:
    with pytest.raises(DatabaseError, match=match), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_the_database_refuses_to_update_delete_or_truncate_a_moderation_record(make_user, moderator):
    """As the site's role: no privilege to (tests/platform/test_database_roles.py has the
    owner, whom the triggers refuse)."""
    record = moderation.warn(actor=moderator, user=make_user(), reason="First warning")
    with pytest.raises(DatabaseError, match=app_refusal("append-only: UPDATE refused")), transaction.atomic():
        ModerationRecord.objects.filter(pk=record.pk).update(reason="Nothing happened")
    with pytest.raises(DatabaseError, match=app_refusal("append-only: DELETE refused")), transaction.atomic():
        record.delete()
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    _refused("TRUNCATE moderation_moderationrecord", match=app_refusal("append-only: TRUNCATE refused"))
    _refused("TRUNCATE accounts_user CASCADE", match=app_refusal("append-only: TRUNCATE refused"))
    assert ModerationRecord.objects.get(pk=record.pk).reason == "First warning"


def test_lifting_a_sanction_ends_it_early_and_reopens_a_suspended_account(make_user, moderator):
    from moderation.models import Flag

    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    muted = moderation.mute(actor=moderator, user=bo, days=30, reason="Insults")
    suspended = moderation.suspend(actor=moderator, user=ana, days=30, reason="Threats")
    moderation.lift(actor=moderator, sanction_id=muted.pk, reason="Apologised")
    chat.post_message(game_id=game.pk, user=bo, text="sorry everyone")
    moderation.lift(actor=moderator, sanction_id=suspended.pk, reason="Appeal accepted")
    ana.refresh_from_db()
    assert ana.is_active
    with pytest.raises(GameNotActive, match="no longer in force"):
        moderation.lift(actor=moderator, sanction_id=muted.pk, reason="again")
    flag = Flag.objects.create(user=bo, kind=Flag.Kind.LEAVING_STREAK, evidence={"summary": "4 games"})
    moderation.clear_flag(actor=moderator, flag_id=flag.pk, reason="Network trouble, checked")
    flag.refresh_from_db()
    assert flag.cleared_at is not None
    assert list(ModerationRecord.objects.filter(action__in=["lift", "flag_cleared"]).order_by("pk")
                .values_list("action", "target_user", "reason")) == [
        ("lift", bo.pk, "Apologised"), ("lift", ana.pk, "Appeal accepted"), ("flag_cleared", bo.pk, "Network trouble, checked")]
