"""Hextension pages: opening a game, placing by plain form, and every refusal."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games import services, state_store
from games.hextension import engine as hextension
from games.leagues.models import League
from games.models import Game, MoveEvent

pytestmark = pytest.mark.django_db


def start_two_player_game(ana, bo, tiles_per_round=2):
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": tiles_per_round},
                                created_by=ana, turn_seconds=86400)
    services.join_game(game_id=game.pk, user=bo)
    game.refresh_from_db()
    return game


def drawn(game):
    game.refresh_from_db()
    return hextension.view(state_store.load(game), None)["drawn"]


def test_open_a_game_from_the_form(client, make_user):
    ana = make_user()
    client.force_login(ana)
    response = client.post(reverse("hextension_new"), {
        "title": "Sunday game", "visibility": "private", "players": 3, "tiles_per_round": 2,
        "round_deadline": 86400, "ai_seats": 1, "ai_level": "greedy"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("game_detail", args=[game.pk])
    assert (game.config, game.turn_seconds, game.visibility) == ({"players": 3, "tiles_per_round": 2}, 86400, "private")
    assert list(game.seats.values_list("index", "user", "ai_level")) == [(0, ana.pk, ""), (1, None, ""), (2, None, "greedy")]
    bad = client.post(reverse("hextension_new"), {"players": 1, "tiles_per_round": 9, "round_deadline": 5, "ai_seats": 0, "visibility": "public", "ai_level": "strong"})
    assert bad.status_code == 400 and Game.objects.count() == 1
    page = bad.content.decode()
    assert "Ensure this value is greater than or equal to 2" in page and "Select a valid choice" in page


def test_placing_by_plain_form_and_each_refusal(client, make_user):
    ana, bo, cy = make_user(), make_user(), make_user()
    game = start_two_player_game(ana, bo)
    first, second = drawn(game)
    url = reverse("game_move", args=[game.pk])
    client.force_login(ana)
    cases = [
        ({f"cell_{first}": "Z9", f"cell_{second}": "A1"}, 400, "must be a cell from A1 to E3"),
        ({f"cell_{first}": "A1", f"cell_{second}": "A1"}, 400, "cannot both go on A1"),
        ({f"cell_{first}": "A1"}, 400, "missing"),
        ({f"cell_{first}": "A1", "cell_999": "A2"}, 400, "must be a tile named by its values"),
        ({f"cell_{first}": "A1", f"cell_{second}": ""}, 400, "Choose a cell for every tile"),
        ({}, 400, "Choose a cell for every tile"),
    ]
    for fields, status, message in cases:
        response = client.post(url, {"version": game.version, **fields})
        assert response.status_code == status, fields
        assert message in response.content.decode(), fields
    ok = client.post(url, {"version": 0, f"cell_{first}": "A1", f"cell_{second}": "C3"})
    assert ok.status_code == 302
    # Same round, a view from before her own move: she may still change her submission.
    again = client.post(url, {"version": 0, f"cell_{first}": "A2", f"cell_{second}": "C3"})
    assert again.status_code == 302
    client.force_login(cy)
    assert client.post(url, {"version": 2, f"cell_{first}": "A1", f"cell_{second}": "C3"}).status_code == 403
    client.force_login(bo)
    assert client.post(url, {"version": 1, f"cell_{first}": "A1", f"cell_{second}": "C3"}).status_code == 302
    # The round is closed: a form from it is stale, and its tiles cannot be placed again.
    stale = client.post(url, {"version": 2, f"cell_{first}": "B1", f"cell_{second}": "B2"})
    assert stale.status_code == 409 and "moved on" in stale.content.decode()
    replay = client.post(url, {"version": 3, f"cell_{first}": "B1", f"cell_{second}": "B2"})
    assert replay.status_code == 400 and "already on your board" in replay.content.decode()
    game.refresh_from_db()
    assert hextension.view(state_store.load(game), 0)["seats"][0]["board"] == {"A2": first, "C3": second}
    assert MoveEvent.objects.filter(game=game).count() == 3


def test_the_page_never_shows_another_players_open_round_placements(client, make_user):
    ana, bo = make_user(), make_user()
    game = start_two_player_game(ana, bo, tiles_per_round=1)
    (tile,) = drawn(game)
    client.force_login(ana)
    client.post(reverse("game_move", args=[game.pk]), {"version": 0, f"cell_{tile}": "E3"})
    game.refresh_from_db()
    own = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'data-state="pending"' in own and f"Cell E3, tile {tile}" in own  # Ana sees her own
    client.force_login(bo)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'data-state="pending"' not in page and f"Cell E3, tile {tile}" not in page
    undrawn = state_store.load(game).deck[1:]
    assert not any(f"tile {t}" in page or f"cell_{t}" in page for t in undrawn)
    assert str(game.seed) not in page


def test_league_tools_refuse_people_who_are_not_its_organiser(client, make_user):
    from django.utils import timezone

    orga, ana = make_user(), make_user()
    league = League.objects.create(name="L", organiser=orga, starts_at=timezone.now())
    client.force_login(ana)
    for name in ("league_start", "league_pause", "league_announce"):
        response = client.post(reverse(name, args=[league.pk]), {"text": "x", "paused": "1"})
        assert response.status_code == 403 and "Only the organiser" in response.content.decode(), name
    assert client.get(reverse("league_new")).status_code == 403
    assert client.get(reverse("league_detail", args=[league.pk + 99])).status_code == 404
    assert client.post(reverse("league_enter", args=[league.pk + 99])).status_code == 404
    page = client.get(reverse("league_detail", args=[league.pk])).content.decode()
    assert "No game of the season has finished yet." in page and "Join the league" in page
