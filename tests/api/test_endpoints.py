"""The API's contract, endpoint by endpoint, and each refusal: its status, a problem document
with a readable detail (in the token owner's language), nothing written."""
from __future__ import annotations

import json

import pytest
from django.test import override_settings

from api.models import ApiToken
from games import services, state_store
from games.hextension import engine as hextension
from games.models import ChatMessage, Game, MoveEvent, Rating
from tests.api.conftest import ApiClient, token_for

pytestmark = pytest.mark.django_db
PROBLEM = "application/problem+json"


def problem(answer, status: int) -> dict:
    assert answer.status_code == status, answer.content
    assert answer["Content-Type"] == PROBLEM
    body = answer.json()
    assert body["status"] == status and body["title"] and body["detail"], body
    return body


def hextension_game(api, **settings) -> Game:
    answer = api.post("/games", {"game": "hextension", "players": 2, "ai": 1, **settings})
    assert answer.status_code == 201, answer.content
    return Game.objects.get(pk=answer.json()["id"])


def test_account(api):
    Rating.objects.create(user=api.user, kind="hextension", mu=30.0, sigma=5.0, games=3)
    answer = api.get("/account")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    assert answer.json() == {"username": "api-player", "bot": False, "language": "",
                             "ratings": {"hextension": {"rating": 15.0, "mu": 30.0, "sigma": 5.0, "games": 3}}}


def test_create_a_hextension_game_against_the_ai_with_the_pages_defaults(api):
    answer = api.post("/games", {"game": "hextension", "players": 3, "ai": 2})
    assert answer.status_code == 201
    game = Game.objects.get(pk=answer.json()["id"])
    assert answer.json()["url"].endswith(f"/games/{game.pk}/")
    assert game.status == Game.Status.ACTIVE  # only AI opponents: full at once
    assert game.config == {"players": 3, "tiles_per_round": 2} and game.turn_seconds == 3 * 86400
    assert list(game.seats.values_list("index", "user", "ai_level")) == [
        (0, api.user.pk, ""), (1, None, "strong"), (2, None, "strong")]


def test_create_an_open_hexland_room_and_a_solo_game(api):
    room = api.post("/games", {"game": "hexland", "players": 3, "ai": 1, "vp_to_win": 8, "ai_level": "easy"})
    game = Game.objects.get(pk=room.json()["id"])
    assert game.status == Game.Status.OPEN and game.config["vp_to_win"] == 8
    assert list(game.seats.values_list("index", "user", "ai_level")) == [(0, api.user.pk, ""), (1, None, ""),
                                                                         (2, None, "easy")]
    solo = api.post("/games", {"game": "hextremadura", "players": 1, "ai": 0})
    assert solo.status_code == 201 and Game.objects.get(pk=solo.json()["id"]).status == Game.Status.ACTIVE


@pytest.mark.parametrize("body, words", [
    ({"game": "chess", "players": 2, "ai": 1}, "game must be"),
    ({"game": "hextension", "players": 2}, "The request body needs the field ai."),
    ({"game": "hextension", "players": 2, "ai": 2}, "Leave at least one seat for you"),
    ({"game": "hextension", "players": 2, "ai": 1, "vp_to_win": 5}, "hextension has no setting vp_to_win"),
    ({"game": "hextension", "players": 2, "ai": 1, "tiles_per_round": 4}, "tiles_per_round must be"),
    ({"game": "hextension", "players": 2, "ai": 1, "colour": "red"}, "has no field 'colour'"),
    ({"game": "hexland", "players": 5, "ai": 1}, "players"),
    ({"game": "hextremadura", "players": 2, "ai": 1}, "played alone"),
])
def test_create_refusals_say_what_is_wrong_and_write_nothing(api, body, words):
    assert words in problem(api.post("/games", body), 400)["detail"]
    assert not Game.objects.exists()


@pytest.mark.parametrize("raw", [b"", b"[1]", b"{", b'{"game": NaN}', b'{"a": 1, "a": 2}', b"\xff"])
def test_a_body_that_is_not_a_json_object_is_refused(api, raw):
    problem(api.post("/games", raw=raw), 400)


def test_a_body_far_too_large_is_refused(api):
    problem(api.post("/games", raw=json.dumps({"game": "x" * 20_000})), 413)


def test_a_game_as_its_player_sees_it_with_legal_moves_as_the_move_endpoint_takes_them(api):
    game = hextension_game(api)
    answer = api.get(f"/games/{game.pk}").json()
    assert answer["id"] == game.pk and answer["game"] == "hextension" and answer["status"] == "active"
    assert answer["your_seat"] == 0 and answer["to_move"] is True and answer["result"] is None
    assert answer["version"] == game.version
    assert answer["view"] == hextension.view(state_store.load(game), 0)
    assert len(answer["legal_moves"]) == 19 * 18  # two tiles on 19 empty cells
    played = api.post(f"/games/{game.pk}/moves", {"version": answer["version"], "move": answer["legal_moves"][0]})
    assert played.status_code == 200 and played.json() == {"version": Game.objects.get(pk=game.pk).version}
    after = api.get(f"/games/{game.pk}").json()
    assert after["to_move"] is False and after["legal_moves"] == []  # the round waits for the AI


def test_a_spectator_sees_the_spectators_view_and_has_no_moves(api, make_user):
    game = hextension_game(api)
    watcher = ApiClient(token_for(make_user()))
    answer = watcher.get(f"/games/{game.pk}").json()
    assert answer["your_seat"] is None and answer["to_move"] is False and answer["legal_moves"] == []
    assert answer["view"] == hextension.view(state_store.load(game), None)
    move = api.get(f"/games/{game.pk}").json()["legal_moves"][0]
    body = problem(watcher.post(f"/games/{game.pk}/moves", {"version": game.version, "move": move}), 403)
    assert body["detail"]
    assert not MoveEvent.objects.filter(game=game).exclude(seat=1).exists()


def test_private_and_missing_games(api, make_user):
    game = hextension_game(api, visibility="private")
    stranger = ApiClient(token_for(make_user()))
    assert "private" in problem(stranger.get(f"/games/{game.pk}"), 403)["detail"]
    assert problem(api.get("/games/999999"), 404)["detail"] == "There is no such game."
    problem(api.post("/games/999999/moves", {"version": 0, "move": {"type": "place", "placements": {}}}), 404)


def test_move_refusals(api):
    game = hextension_game(api)
    url = f"/games/{game.pk}/moves"
    legal = api.get(f"/games/{game.pk}").json()["legal_moves"][0]
    assert "placements" in problem(api.post(url, {"version": game.version, "move": {"type": "place"}}), 400)["detail"]
    problem(api.post(url, {"version": game.version, "move": {"type": "place", "placements": {"999": "A1"}}}), 400)
    problem(api.post(url, {"version": game.version}), 400)
    problem(api.post(url, {"version": "0", "move": legal}), 400)
    stale = problem(api.post(url, {"version": game.version + 7, "move": legal}), 409)
    assert stale["version"] == game.version
    assert not MoveEvent.objects.filter(game=game, seat=0).exists()


@override_settings(GAME_MOVE_RATE_LIMIT=(2, 60))
def test_too_many_moves_are_refused_with_retry_after(api):
    game = hextension_game(api)
    url = f"/games/{game.pk}/moves"
    for _ in range(2):
        api.post(url, {"version": game.version, "move": {"type": "place"}})
    answer = api.post(url, {"version": game.version, "move": {"type": "place"}})
    problem(answer, 429)
    assert answer["Retry-After"] == "60"


def test_details_are_in_the_token_owners_language(make_user):
    user = make_user(language="de")
    client = ApiClient(token_for(user))
    assert problem(client.get("/games/999999"), 404)["detail"] == "Diese Partie gibt es nicht."
    reader = ApiClient(token_for(user, scopes=["read"]))
    assert problem(reader.post("/games", {}), 403)["detail"] == "Diesem Token fehlt die Berechtigung play."
    assert problem(ApiClient("hxp_unknown", language="de").get("/account"), 401)["detail"].startswith(
        "Dieser API-Token ist nicht gültig")
    game_answer = client.post("/games", {"game": "hextension", "players": 2, "ai": 1})
    game = Game.objects.get(pk=game_answer.json()["id"])
    move = client.get(f"/games/{game.pk}").json()["legal_moves"][0]
    body = problem(client.post(f"/games/{game.pk}/moves", {"version": game.version + 3, "move": move}), 409)
    assert "Partie" in body["detail"] or "Zug" in body["detail"]


def test_join_leave_resign_and_chat(api, make_user):
    host = api
    room = host.post("/games", {"game": "hexland", "players": 4, "ai": 1}).json()
    guest_user = make_user()
    guest = ApiClient(token_for(guest_user))
    assert guest.post(f"/games/{room['id']}/join").json() == {"seat": 1}
    assert "already" in problem(guest.post(f"/games/{room['id']}/join"), 409)["detail"]
    assert guest.post(f"/games/{room['id']}/leave").json() == {"left": True}
    problem(guest.post(f"/games/{room['id']}/leave"), 403)
    problem(host.post(f"/games/{room['id']}/leave"), 400)  # the host cancels instead
    assert guest.post(f"/games/{room['id']}/join").status_code == 200
    problem(guest.post(f"/games/{room['id']}/chat", {"text": ""}), 400)
    assert guest.post(f"/games/{room['id']}/chat", {"text": "good luck"}).status_code == 201
    assert ChatMessage.objects.get().text == "good luck"
    assert "no resigning" in problem(host.post(f"/games/{hextension_game(host).pk}/resign"), 400)["detail"]
    game = Game.objects.get(pk=host.post("/games", {"game": "hexland", "players": 2, "ai": 1}).json()["id"])
    assert host.post(f"/games/{game.pk}/resign").status_code == 200
    assert game.seats.get(index=0).resigned_at is not None
    problem(host.post(f"/games/{game.pk}/resign"), 409)


def test_a_private_game_is_joined_with_its_invitation_code_only(api, make_user):
    room = Game.objects.get(pk=api.post("/games", {"game": "hexland", "players": 2, "ai": 0,
                                                   "visibility": "private"}).json()["id"])
    guest = ApiClient(token_for(make_user()))
    problem(guest.post(f"/games/{room.pk}/join"), 403)
    problem(guest.post(f"/games/{room.pk}/join", {"invite": "wrong"}), 403)
    assert guest.post(f"/games/{room.pk}/join", {"invite": room.invite_token}).json() == {"seat": 1}
    assert Game.objects.get(pk=room.pk).status == Game.Status.ACTIVE  # full: started, as on the pages


def test_another_method_is_refused_with_405(api):
    answer = api.client.delete("/api/v1/account", HTTP_AUTHORIZATION=f"Bearer {api.secret}")
    assert problem(answer, 405) and answer["Allow"] == "GET"


def test_the_openapi_document_describes_every_endpoint_and_each_games_move(client):
    document = client.get("/api/v1/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    assert set(document["paths"]) >= {"/account", "/games", "/games/{id}", "/games/{id}/moves", "/games/{id}/resign",
                                      "/games/{id}/chat", "/games/{id}/join", "/games/{id}/leave",
                                      "/games/{id}/stream", "/stream/events"}
    schemas = document["components"]["schemas"]
    assert schemas["HextensionMove"]["properties"] == hextension.MOVE_SCHEMA["properties"]
    assert {"HexlandMove", "HextremaduraMove", "Problem", "Game"} <= set(schemas)


def test_the_docs_page_is_served_from_our_own_static_files_under_the_csp(client):
    page = client.get("/api/v1/docs")
    assert page.status_code == 200
    html = page.content.decode()
    assert "api/docs.js" in html and "<script>" not in html and "cdn" not in html.lower()
    assert "script-src 'self'" in page["Content-Security-Policy"]


def test_api_answers_carry_no_session_or_csrf_needs(api, client, make_user):
    """A signed-in browser session is not a token: without one the API refuses."""
    client.force_login(make_user())
    problem(client.get("/api/v1/account"), 401)
    assert ApiToken.objects.count() == 1


@pytest.mark.parametrize("body", [{"game": "hextension", "players": 2, "ai": 1, "tiles_per_round": 1},
                                  {"game": "hexland", "players": 2, "ai": 1},
                                  {"game": "hextremadura", "players": 1, "ai": 0}])
def test_each_games_legal_moves_are_taken_as_they_are(api, body):
    from games import move_input
    from games.sites import get_engine

    from tests.api.test_bot_game import run_the_worker

    game_id = api.post("/games", body).json()["id"]
    for _ in range(5):  # the AI may open the game
        game = api.get(f"/games/{game_id}").json()
        if game["to_move"]:
            break
        run_the_worker(game_id)
    assert game["to_move"] and game["legal_moves"]
    engine = get_engine(body["game"])
    for move in game["legal_moves"]:
        move_input.validate_move(engine, move)  # the move endpoint's own check
    answer = api.post(f"/games/{game_id}/moves", {"version": game["version"], "move": game["legal_moves"][-1]})
    assert answer.status_code == 200 and answer.json()["version"] > game["version"]
