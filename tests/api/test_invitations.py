"""Invitations over the API: the host invites by username, the invited player (a bot too, with the
bot scope) lists, accepts and declines; each refusal a problem document; every answer as the
OpenAPI document describes it."""
from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from api import schemas
from games import services
from games.models import Game, Invitation, Seat
from games.services import invitations
from moderation.models import Block
from tests.api.conftest import ApiClient, token_for
from tests.api.test_endpoints import problem

pytestmark = pytest.mark.django_db


def conforms(body, component: str) -> None:
    schema = schemas.checkable({"$ref": f"#/components/schemas/{component}"})
    errors = list(Draft202012Validator(schema).iter_errors(body))
    assert not errors, errors


def open_toy(host, players: int = 3) -> Game:
    return services.create_game(kind="toy", config={"players": players, "target": 15}, created_by=host)


def client_of(user, scopes=None) -> ApiClient:
    client = ApiClient(token_for(user, scopes) if scopes else token_for(user))
    client.user = user
    return client


def test_the_operations_are_in_the_openapi_document(client):
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    assert paths["/invitations"]["get"]["operationId"] == "listInvitations"
    assert paths["/invitations/{id}/accept"]["post"]["x-scope"] == "play"
    assert paths["/invitations/{id}/decline"]["post"]["x-scope"] == "play"
    assert paths["/games/{id}/invite"]["post"]["requestBody"]["content"]["application/json"]["schema"]["required"] == [
        "username"]


def test_a_host_invites_and_the_bot_lists_and_accepts_with_the_bot_scope(api, make_user):
    bot = make_user("robo", is_bot=True)
    game = open_toy(api.user)
    answer = api.post(f"/games/{game.pk}/invite", {"username": "robo"})
    assert answer.status_code == 201, answer.content
    sent = answer.json()
    conforms(sent, "Invitation")
    assert (sent["to"], sent["from"], sent["status"], sent["game"]["id"]) == ("robo", "api-player", "pending", game.pk)
    robo = client_of(bot, ["read", "bot"])
    listed = robo.get("/invitations").json()
    conforms(listed, "Invitations")
    assert [i["id"] for i in listed["invitations"]] == [sent["id"]] and listed["invitations"][0]["from_bot"] is False
    accepted = robo.post(f"/invitations/{sent['id']}/accept")
    assert accepted.status_code == 200, accepted.content
    conforms(accepted.json(), "InvitationAccepted")
    assert accepted.json()["seat"] == Seat.objects.get(game=game, user=bot).index and accepted.json()["entry"] is None
    assert accepted.json()["invitation"]["status"] == "accepted"
    assert robo.get("/invitations").json() == {"invitations": []}


def test_a_bot_without_the_bot_scope_and_a_reader_are_refused(api, make_user):
    bot, person = make_user("robo", is_bot=True), make_user("person")
    game = open_toy(api.user)
    to_bot = invitations.invite_to_game(game_id=game.pk, by_user=api.user, username="robo")
    to_person = invitations.invite_to_game(game_id=game.pk, by_user=api.user, username="person")
    assert problem(client_of(bot, ["read", "play"]).post(f"/invitations/{to_bot.pk}/accept"), 403)["scope"] == "bot"
    assert problem(client_of(person, ["read"]).post(f"/invitations/{to_person.pk}/decline"), 403)["scope"] == "play"
    assert Invitation.objects.filter(status="pending").count() == 2  # nothing written


def test_decline_and_what_accept_and_decline_refuse(api, make_user):
    guest, other = make_user("guest"), make_user("other")
    game = open_toy(api.user)
    invitation = invitations.invite_to_game(game_id=game.pk, by_user=api.user, username="guest")
    guest_api = client_of(guest)
    assert problem(client_of(other).post(f"/invitations/{invitation.pk}/accept"), 404)["detail"] == \
        "There is no such invitation."
    problem(guest_api.post("/invitations/999999/accept"), 404)
    declined = guest_api.post(f"/invitations/{invitation.pk}/decline")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    conforms(declined.json(), "Invitation")
    assert "answered" in problem(guest_api.post(f"/invitations/{invitation.pk}/accept"), 409)["detail"]
    assert "declined" in problem(api.post(f"/games/{game.pk}/invite", {"username": "guest"}), 409)["detail"]
    assert not Seat.objects.filter(game=game, user=guest).exists()


def test_an_expired_invitation_is_refused_with_409(api, make_user):
    guest = make_user("guest")
    game = open_toy(api.user)
    invitation = invitations.invite_to_game(game_id=game.pk, by_user=api.user, username="guest")
    services.start_game(game_id=game.pk, by_user=api.user, fill_with_ai="easy")
    assert "expired" in problem(client_of(guest).post(f"/invitations/{invitation.pk}/accept"), 409)["detail"]


@pytest.mark.parametrize("who, body, status, words", [
    ("stranger", {"username": "guest"}, 403, "Only the player who opened"),
    ("host", {"username": "nobody-here"}, 400, "There is no player with the username nobody-here."),
    ("host", {"username": "api-player"}, 400, "You cannot invite yourself."),
    ("host", {"username": ""}, 400, ""),
    ("host", {"name": "guest"}, 400, ""),
])
def test_invite_refusals_write_nothing(api, make_user, who, body, status, words):
    make_user("guest")
    game = open_toy(api.user)
    stranger = client_of(make_user("stranger"))
    caller = api if who == "host" else stranger
    assert words in problem(caller.post(f"/games/{game.pk}/invite", body), status)["detail"]
    assert not Invitation.objects.exists()


def test_inviting_to_a_started_or_missing_game_is_refused(api, make_user):
    make_user("guest")
    game = open_toy(api.user, players=2)
    services.start_game(game_id=game.pk, by_user=api.user, fill_with_ai="easy")
    assert "started" in problem(api.post(f"/games/{game.pk}/invite", {"username": "guest"}), 409)["detail"]
    problem(api.post("/games/999999/invite", {"username": "guest"}), 404)


def test_an_invitation_from_a_blocked_player_is_not_listed_nor_accepted(api, make_user):
    guest = make_user("guest")
    Block.objects.create(blocker=guest, blocked=api.user)
    game = open_toy(api.user)
    answer = api.post(f"/games/{game.pk}/invite", {"username": "guest"})
    assert answer.status_code == 201  # the inviter is not told
    guest_api = client_of(guest)
    assert guest_api.get("/invitations").json() == {"invitations": []}
    problem(guest_api.post(f"/invitations/{answer.json()['id']}/accept"), 404)


def test_refusals_are_in_the_token_owners_language(api, make_user):
    guest = make_user("guest", language="de")
    problem_body = problem(client_of(guest).post("/invitations/999999/accept"), 404)
    assert problem_body["detail"] == "Diese Einladung gibt es nicht."
