"""The OpenAPI document describes each game's view with its engine's VIEW_SCHEMA (as the game's
site shows it), and GET /games/{id} answers as the document's Game says: each game, a seat's
view and a spectator's, an open game's empty view, and a Hexland view whose AI names are shown
in the reader's language (the field the site adds)."""
from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from api import schemas
from games.sites import offered_sites
from tests.api.conftest import ApiClient, token_for
from tests.support.view_schemas import problems

pytestmark = pytest.mark.django_db


@pytest.fixture
def game_schema():
    checkable = schemas.checkable(schemas.ref("Game"))
    Draft202012Validator.check_schema(checkable)
    return Draft202012Validator(checkable)


def created(client: ApiClient, body: dict) -> int:
    answer = client.post("/games", body)
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


def test_the_document_gives_each_games_view_its_engines_schema(client):
    document = client.get("/api/v1/openapi.json").json()
    components = document["components"]["schemas"]
    view = components["Game"]["properties"]["view"]
    for site in offered_sites():
        name = schemas.view_schema_name(site.kind)
        assert {"$ref": f"#/components/schemas/{name}"} in view["anyOf"]
        assert components[name]["title"] == site.engine.VIEW_SCHEMA["title"]
        assert components[name]["additionalProperties"] is False
    # Hexland's legal moves in its view are its moves' own component, not a copy.
    assert components["HexlandView"]["properties"]["legal_moves"]["items"] == {"$ref": "#/components/schemas/HexlandMove"}
    assert "$defs" not in components["HexlandView"]


@pytest.mark.parametrize("body, watched", [
    ({"game": "hextension", "players": 2, "ai": 1}, True),
    ({"game": "hexland", "players": 3, "ai": 2}, True),
    ({"game": "hextremadura", "players": 1, "ai": 0}, False),  # a casual solo game is its player's alone
])
def test_a_seats_and_a_spectators_answer_are_of_the_document(api, make_user, game_schema, body, watched):
    game_id = created(api, body)
    mine = api.get(f"/games/{game_id}").json()
    assert mine["your_seat"] == 0 and mine["view"], mine
    assert not problems(game_schema, mine)
    if watched:
        spectator = ApiClient(token_for(make_user())).get(f"/games/{game_id}").json()
        assert spectator["your_seat"] is None and spectator["view"]
        assert not problems(game_schema, spectator)
    # The document is strict: a field the view does not have is refused, so is another game's view.
    assert problems(game_schema, {**mine, "view": {**mine["view"], "seed": "x"}})
    assert problems(game_schema, {**mine, "game": "hextension" if body["game"] != "hextension" else "hexland"})


def test_an_open_games_empty_view_is_of_the_document(api, game_schema):
    game_id = created(api, {"game": "hexland", "players": 3, "ai": 1})
    answer = api.get(f"/games/{game_id}").json()
    assert answer["status"] == "open" and answer["view"] == {}
    assert not problems(game_schema, answer)


def test_a_hexland_view_with_ai_names_in_the_readers_language_is_of_the_document(make_user, game_schema):
    reader = ApiClient(token_for(make_user(language="de")))
    game_id = created(reader, {"game": "hexland", "players": 3, "ai": 2, "ai_level": "easy"})
    answer = reader.get(f"/games/{game_id}").json()
    assert "logged_names" in answer["view"]  # the site's field: each seat's name as the log writes it
    assert not problems(game_schema, answer)
