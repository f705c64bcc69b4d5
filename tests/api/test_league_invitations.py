"""An organiser invites players to their league through the API (POST /leagues/{id}/invite) and
cancels: the answer as the OpenAPI document's Invitation, each refusal the service's, nothing
written."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from api.models import Scope
from games.leagues import services as leagues
from games.leagues.models import League
from games.models import Invitation
from tests.api.test_endpoints import problem
from tests.api.test_invitations import conforms
from tests.api.test_leagues import client_of, new_league

pytestmark = pytest.mark.django_db


def test_the_organiser_invites_the_player_accepts_and_another_is_cancelled(orga, make_user):
    league = new_league(orga, entry=League.Entry.INVITATION, admits_bots=True)
    ana, _robo = make_user("ana"), make_user("robo", is_bot=True)
    api = client_of(orga)
    answer = api.post(f"/leagues/{league.pk}/invite", {"username": "ana"})
    assert answer.status_code == 201, answer.content
    sent = answer.json()
    conforms(sent, "Invitation")
    assert (sent["to"], sent["from"], sent["status"], sent["league"]["id"]) == ("ana", "orga", "pending", league.pk)

    accepted = client_of(ana, (Scope.READ, Scope.PLAY)).post(f"/invitations/{sent['id']}/accept")
    assert accepted.status_code == 200 and accepted.json()["entry"] == "approved"

    to_bot = api.post(f"/leagues/{league.pk}/invite", {"username": "robo"}).json()
    cancelled = api.post(f"/leagues/{league.pk}/invitations/{to_bot['id']}/cancel")
    assert cancelled.status_code == 200, cancelled.content
    conforms(cancelled.json(), "Invitation")
    assert cancelled.json()["status"] == "cancelled" == Invitation.objects.get(pk=to_bot["id"]).status
    again = problem(api.post(f"/leagues/{league.pk}/invitations/{to_bot['id']}/cancel"), 409)
    assert again["detail"] == "This invitation was cancelled."


@pytest.mark.parametrize("body, status, detail", [
    ({"username": "robo"}, 403, "This league does not admit bot accounts: robo is one."),
    ({"username": "nobody-here"}, 400, "There is no player with the username nobody-here."),
    ({"username": "orga"}, 400, "You cannot invite yourself."),
    ({"username": ""}, 400, "username"),
    ({"name": "ana"}, 400, "username"),
])
def test_refusals_are_the_services_and_write_nothing(orga, make_user, body, status, detail):
    league = new_league(orga)
    make_user("ana"), make_user("robo", is_bot=True)
    assert detail in problem(client_of(orga).post(f"/leagues/{league.pk}/invite", body), status)["detail"]
    assert not Invitation.objects.exists()


def test_without_the_organise_scope_or_as_another_user_it_is_refused(orga, make_user):
    league = new_league(orga)
    make_user("ana")
    invitation = leagues.invite(league_id=league.pk, by_user=orga, username="ana")
    no_scope = problem(client_of(orga, (Scope.READ, Scope.PLAY)).post(f"/leagues/{league.pk}/invite", {"username": "ana"}),
                       403)
    assert no_scope["scope"] == "organise" and "organise" in no_scope["detail"]

    other = make_user("other")
    other.user_permissions.add(Permission.objects.get(codename="organise_leagues"))
    stranger = client_of(other)
    for path, body in [(f"/leagues/{league.pk}/invite", {"username": "ana"}),
                       (f"/leagues/{league.pk}/invitations/{invitation.pk}/cancel", None)]:
        assert problem(stranger.post(path, body), 403)["detail"] == "Only the organiser of this league can do that."
    assert list(Invitation.objects.values_list("pk", "status")) == [(invitation.pk, "pending")]


def test_a_started_season_or_another_leagues_invitation_is_refused(orga, make_user):
    league = new_league(orga, entry=League.Entry.OPEN)
    other_league = new_league(orga, name="Other")
    api = client_of(orga)
    make_user("cy")
    elsewhere = leagues.invite(league_id=other_league.pk, by_user=orga, username="cy")
    assert problem(api.post(f"/leagues/{league.pk}/invitations/{elsewhere.pk}/cancel"), 404)["detail"] == \
        "There is no such invitation."
    for name in ("ana", "bo"):
        leagues.enter_league(league_id=league.pk, user=make_user(name))
    leagues.start_season(league_id=league.pk, by_user=orga)
    refused = problem(api.post(f"/leagues/{league.pk}/invite", {"username": "cy"}), 409)
    assert refused["detail"] == "This league's season has started; entries are closed."
    assert problem(api.post("/leagues/999999/invite", {"username": "cy"}), 404)["detail"] == "There is no such league."
    assert list(Invitation.objects.values_list("league_id", "status")) == [(other_league.pk, "pending")]


def test_the_document_describes_both_operations(client):
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    invite = paths["/leagues/{id}/invite"]["post"]
    assert invite["x-scope"] == "organise" and "201" in invite["responses"]
    assert invite["requestBody"]["content"]["application/json"]["schema"]["required"] == ["username"]
    assert paths["/leagues/{id}/invitations/{invitation}/cancel"]["post"]["x-scope"] == "organise"
