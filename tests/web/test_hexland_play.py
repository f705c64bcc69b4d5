"""Hexland played through the site's forms: every move a player can make goes through the same
HTTP endpoint as the action panel's forms, each player sees only their own cards."""
from __future__ import annotations

import random

import pytest
from django.urls import reverse

from games import services
from games.hexland.engine.board import RESOURCES
from games.hexland.forms import parse_move_form
from games.hexland.templatetags.hexland_actions import hexland_actions
from games.models import Game, MoveEvent
from tests.support.factories import awaited_view, hexland_room

pytestmark = pytest.mark.django_db


def as_form(move: dict) -> dict:
    """The fields an action form posts for ``move`` (the inverse of parse_move_form)."""
    fields = {"type": move["type"]}
    for key, value in move.items():
        if key in ("give", "get", "cards") and isinstance(value, dict):
            fields.update({f"{key}_{name}": count for name, count in value.items()})
        elif key == "resources":
            fields["resource_1"], fields["resource_2"] = value
        elif key != "type" and value is not None:
            fields[key] = value
    return fields


@pytest.mark.parametrize("move", [
    {"type": "roll"}, {"type": "end_turn"}, {"type": "place_settlement", "node": 12}, {"type": "build_road", "edge": 3},
    {"type": "move_robber", "hex": 4, "victim": None}, {"type": "move_robber", "hex": 4, "victim": 1},
    {"type": "discard", "cards": {"wood": 2, "ore": 1}}, {"type": "offer", "give": {"sheep": 1}, "get": {"ore": 2}},
    {"type": "bank_trade", "give": "wood", "get": "ore"}, {"type": "confirm", "seat": 1},
    {"type": "play_dev", "card": "monopoly", "resource": "wheat"},
    {"type": "play_dev", "card": "year_of_plenty", "resources": ["wood", "ore"]},
    {"type": "play_dev", "card": "knight"}, {"type": "move_pair", "node": 5, "edge": 7},
])
def test_every_kind_of_move_survives_its_form(move):
    from django.http import QueryDict

    data = QueryDict(mutable=True)
    data.update({k: str(v) for k, v in as_form(move).items()})
    assert parse_move_form(data) == move


def test_two_players_play_through_the_forms_and_never_see_each_others_cards(client, make_user, settings):
    settings.GAME_MOVE_RATE_LIMIT = (1000, 10)  # a whole game of quick moves in a few seconds
    ana, bo = make_user("ana"), make_user("bo")
    game = services.create_game(kind="hexland", config={"players": 2, "layout": "fixed", "timers": "normal"},
                                created_by=ana, players=[ana, bo], join=False, turn_seconds=120)
    services.start_game(game_id=game.pk)
    rng, users = random.Random(7), {0: ana, 1: bo}
    played = 0
    for _ in range(160):
        if (awaited := awaited_view(game)) is None:
            break
        seat, view = awaited
        moves = [m for m in view["legal_moves"] if m["type"] != "offer"]
        building = [m for m in moves if m["type"].startswith(("build", "place"))]
        move = rng.choice(building or moves)
        client.force_login(users[seat])
        panel = hexland_actions(view)
        assert panel["any"] and bool(panel["discard"]) == (move["type"] == "discard" or bool(view["discards"][seat]))
        response = client.post(reverse("game_move", args=[game.pk]), {"version": game.version, **as_form(move)})
        assert response.status_code == 302, response.content.decode()[:300]
        played += 1
    assert played > 40 and MoveEvent.objects.filter(game=game).count() == played
    first = MoveEvent.objects.filter(game=game).order_by("seq").first()
    assert first.kind == "move" and first.payload["type"] == "place_settlement"


def test_a_move_out_of_turn_or_malformed_is_refused_and_writes_nothing(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = hexland_room(ana, bo)
    waiting = {0: ana, 1: bo}[1 - game.awaiting[0]]
    client.force_login(waiting)
    response = client.post(reverse("game_move", args=[game.pk]), {"version": 0, "type": "place_settlement", "node": 3})
    assert response.status_code == 400 and "not your turn" in response.content.decode()
    client.force_login({0: ana, 1: bo}[game.awaiting[0]])
    for fields in ({"type": "teleport"}, {"type": "place_settlement", "node": "north"}, {"version": 0}):
        response = client.post(reverse("game_move", args=[game.pk]), {"version": 0, **fields})
        assert response.status_code == 400
    assert client.post(reverse("game_move", args=[game.pk]), {"version": 5, "type": "roll"}).status_code == 409
    assert not MoveEvent.objects.filter(game=game).exists()
    assert set(RESOURCES) == {"wood", "brick", "sheep", "wheat", "ore"}


@pytest.mark.parametrize("fields, message", [
    ({"type": "offer", "get_ore": 1}, "Choose at least one card to give."),
    ({"type": "offer", "give_wood": 1}, "Choose at least one card to ask for."),
    ({"type": "offer", "give_wood": -1, "get_ore": 1}, "Card counts must be whole numbers from 0 to 19."),
    ({"type": "discard"}, "Choose the cards to discard."),
    ({"type": "bank_trade", "pair": ""}, "Choose the resource to give the bank."),
    ({"type": "bank_trade", "pair": "wood:"}, "Choose the resource to take from the bank."),
    ({"type": "play_dev", "card": "monopoly", "resource": ""}, "Choose the resource to take from the other players."),
    ({"type": "play_dev", "card": "year_of_plenty", "resource_1": "wood"}, "Choose two resources to take from the bank."),
])
def test_a_form_sent_incomplete_is_refused_in_a_players_words(fields, message):
    from django.http import QueryDict

    from games import move_input
    from games.errors import BadMove
    from games.sites import get_site

    data = QueryDict(mutable=True)
    data.update({key: str(value) for key, value in fields.items()})
    with pytest.raises(BadMove) as refused:
        move_input.read_move(get_site("hexland"), data)
    assert refused.value.message == message


def test_an_offer_of_no_cards_is_refused_in_a_players_words(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = hexland_room(ana, bo)
    client.force_login({0: ana, 1: bo}[game.awaiting[0]])
    empty = {f"{side}_{name}": 0 for side in ("give", "get") for name in RESOURCES}
    response = client.post(reverse("game_move", args=[game.pk]), {"version": 0, "type": "offer", **empty},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "Choose at least one card to give." in response.content.decode()
    assert "entries" not in response.content.decode()
    # An engine's refusal reads as a sentence too (a capital, a full stop).
    response = client.post(reverse("game_move", args=[game.pk]), {"version": 0, "type": "roll"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and "Place your starting settlement first." in response.content.decode()
    assert not MoveEvent.objects.filter(game=game).exists()


def test_a_player_who_resigned_is_shown_no_move_on_the_open_page_nor_after_a_reload(client, make_user, mailoutbox):
    """ana resigns while the game waits for her seat: the AI plays it now, so her open page is
    pushed a status bar without "Your move" and no move forms nor places to click; a reload draws
    the same; every form still shown posts without a 403; the dashboard and the e-mails leave her be."""
    from games import consumers, live
    from games.services import notifications
    from tests.web.test_live_page import current_page, post_every_pushed_form, regions_in

    ana, bo = make_user("ana"), make_user("bo")
    game = hexland_room(ana, bo, order=[0, 1])
    assert game.awaiting == [0]
    page = current_page(game, ana)
    client.force_login(ana)
    assert client.post(reverse("game_resign", args=[game.pk])).status_code == 302
    game.refresh_from_db()
    assert game.awaiting == [0]  # the engine still waits for the seat: the AI plays it

    pushed = regions_in(consumers.catch_up(game.pk, ana, page, announcement="resigned"))
    assert {"game-status", "hl-private", "hl-board"} <= set(pushed)
    reloaded = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    move_url = reverse("game_move", args=[game.pk])
    for html in (pushed["game-status"] + pushed["hl-private"] + pushed["hl-board"], reloaded):
        assert "data-your-move" not in html and "badge your-move" not in html
        assert f'action="{move_url}"' not in html and "hl-interactive" not in html and "hl-moves" not in html
    assert "You resigned; the AI (medium) plays your seat to the end." in pushed["game-status"]
    post_every_pushed_form(game, ana)  # whatever a push still carries answers without a 403

    dashboard = client.get(reverse("dashboard")).context["dashboard"]
    assert game not in dashboard.your_move and game in dashboard.waiting
    notifications.reminder(game)
    notifications.round_opened(game, lambda: "Turn 1")
    assert not [m for m in mailoutbox if "ana@example.com" in m.to]
