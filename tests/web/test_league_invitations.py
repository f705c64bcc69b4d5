"""The organiser invites players by username from their page: the refusal beside the field with
the name kept, the pending list with Cancel, and nobody else gets the form or is heard on POST."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.leagues import services as leagues
from games.leagues.models import League
from games.models import Invitation

pytestmark = pytest.mark.django_db


def _league(orga, **fields) -> League:
    defaults = dict(name="Winter league", tiles_per_round=3, round_hours=24, season_games=1,
                    entry=League.Entry.INVITATION, schedule=League.Schedule.PARALLEL,
                    starts_at=timezone.now() + timedelta(days=3))
    return leagues.create_league(organiser=orga, **{**defaults, **fields})


def _invitations_section(page: str) -> str:
    return page[page.index('id="invitations-title"'):page.index('id="games-title"')]


def test_the_organiser_invites_a_player_and_cancels(client, orga, make_user):
    league = _league(orga, admits_bots=True)
    make_user("ana"), make_user("robo", is_bot=True)
    client.force_login(orga)
    page = client.get(reverse("league_organise", args=[league.pk])).content.decode()
    assert reverse("league_invite", args=[league.pk]) in _invitations_section(page)
    assert "Invite a player by username" in page

    for name in ("ana", " robo "):
        sent = client.post(reverse("league_invite", args=[league.pk]), {"username": name})
        assert sent.status_code == 302 and sent["Location"].startswith(reverse("league_organise", args=[league.pk]))
    ana_invitation = Invitation.objects.get(league=league, invited__username="ana", status="pending")
    assert Invitation.objects.filter(league=league, invited__username="robo", status="pending").exists()

    page = client.get(reverse("league_organise", args=[league.pk])).content.decode()
    section = _invitations_section(page)
    assert "ana" in section and "robo" in section and section.count("bot-badge") == 1
    cancel_url = reverse("league_invitation_cancel", args=[league.pk, ana_invitation.pk])
    assert cancel_url in section

    cancelled = client.post(cancel_url)  # reversible (invite again): no confirmation step
    assert cancelled.status_code == 302
    assert Invitation.objects.get(pk=ana_invitation.pk).status == "cancelled"
    page = client.get(reverse("league_organise", args=[league.pk])).content.decode()
    assert "The invitation of ana is cancelled." in page and cancel_url not in page

    again = client.post(cancel_url)  # no longer pending: the service's sentence in the section
    assert again.status_code == 409 and "This invitation was cancelled." in _invitations_section(again.content.decode())


@pytest.mark.parametrize("typed, status, sentence", [
    ("nobody-here", 400, "There is no player with the username nobody-here."),
    ("robo", 403, "This league does not admit bot accounts: robo is one."),
    ("orga", 400, "You cannot invite yourself."),
])
def test_a_refused_invitation_comes_back_beside_the_field_with_the_name_kept(client, orga, make_user, typed, status,
                                                                            sentence):
    league = _league(orga)
    make_user("robo", is_bot=True)
    client.force_login(orga)
    refused = client.post(reverse("league_invite", args=[league.pk]), {"username": typed})
    assert refused.status_code == status
    section = _invitations_section(refused.content.decode())
    assert sentence in section and f'value="{typed}"' in section
    assert not Invitation.objects.exists()


def test_an_empty_name_is_refused_beside_the_field(client, orga):
    league = _league(orga)
    client.force_login(orga)
    refused = client.post(reverse("league_invite", args=[league.pk]), {"username": ""})
    assert refused.status_code == 400
    assert "Give the username of the player to invite." in _invitations_section(refused.content.decode())


def test_a_non_organiser_gets_no_form_and_is_refused_on_post(client, orga, make_user):
    league = _league(orga, entry=League.Entry.OPEN)
    ana, _bo = make_user("ana"), make_user("bo")
    invitation = leagues.invite(league_id=league.pk, by_user=orga, username="bo")
    client.force_login(ana)
    assert reverse("league_invite", args=[league.pk]) not in client.get(
        reverse("league_detail", args=[league.pk])).content.decode()
    assert client.get(reverse("league_organise", args=[league.pk])).status_code == 403
    refused = client.post(reverse("league_invite", args=[league.pk]), {"username": "orga"})
    assert refused.status_code == 403 and "Only the organiser of this league can do that." in refused.content.decode()
    assert client.post(reverse("league_invitation_cancel", args=[league.pk, invitation.pk])).status_code == 403
    assert list(Invitation.objects.values_list("invited__username", "status")) == [("bo", "pending")]


def test_no_form_once_the_season_has_started(client, orga, make_user):
    league = _league(orga, entry=League.Entry.OPEN)
    for name in ("ana", "bo"):
        leagues.enter_league(league_id=league.pk, user=make_user(name))
    make_user("cy")
    leagues.start_season(league_id=league.pk, by_user=orga)
    client.force_login(orga)
    page = client.get(reverse("league_organise", args=[league.pk])).content.decode()
    assert 'id="invitations-title"' not in page and reverse("league_invite", args=[league.pk]) not in page
    refused = client.post(reverse("league_invite", args=[league.pk]), {"username": "cy"})
    assert refused.status_code == 409 and not Invitation.objects.exists()
