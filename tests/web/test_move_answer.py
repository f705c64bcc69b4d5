"""The mover's answer (htmx) is drawn from the game as the move wrote it, without reading the
game and its seats a second time; when the move changed a seat it is read again, so the answer
never shows a seat as it was before the move."""
from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services, state_store
from games.hextension import engine as hextension
from games.models import Game, MoveEvent, Seat

pytestmark = pytest.mark.django_db


def hextension_game(users) -> Game:
    game = services.create_game(kind="hextension", config={"players": len(users), "tiles_per_round": 1},
                                created_by=users[0], players=users, turn_seconds=86400, join=False)
    services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def post_placement(client, game: Game, seat: int):
    view = hextension.view(state_store.load(game), seat)
    free = [cell for cell in hextension.CELLS if cell not in view["seats"][seat]["board"]]
    move = {"type": "place", "placements": {view["drawn"][0]: free[0]}}
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(reverse("game_move", args=[game.pk]), {"move": json.dumps(move), "version": game.version},
                             HTTP_HX_REQUEST="true")
    assert answer.status_code == 200, answer.content[:300]
    return answer.json(), [q["sql"] for q in queries]


def seat_reads(sql: list[str]) -> int:
    """Reads of the seats with their players (game_for_viewer's, with the game's row)."""
    return sum(1 for q in sql if 'FROM "games_seat"' in q and 'JOIN "accounts_user"' in q)


def status_html(answer: dict) -> str:
    return next(region["html"] for region in answer["regions"] if region["id"] == "game-status")


def test_a_move_is_answered_from_the_game_it_wrote(client, make_user):
    ana, bo, cy = make_user(), make_user(), make_user()
    game = hextension_game([ana, bo, cy])
    client.force_login(bo)
    answer, sql = post_placement(client, game, 1)
    written = Game.objects.get(pk=game.pk)
    assert written.version == 1 and MoveEvent.objects.filter(game=game, seat=1).count() == 1
    assert answer["stamp"] == f"{written.version}.{written.revision}"  # the version the move made
    assert seat_reads(sql) == 1, "the game and its seats were read again to draw the answer"
    assert str(bo.public_name) in json.dumps(answer)  # drawn with the seats' players


def test_a_move_that_takes_the_seat_back_from_the_ai_is_answered_with_the_seat_as_it_now_is(client, make_user):
    ana, bo, cy = make_user(), make_user(), make_user()
    game = hextension_game([ana, bo, cy])
    Seat.objects.filter(game=game, index=1).update(standin_level="easy")  # bo timed out twice
    client.force_login(bo)
    before = client.get(reverse("game_regions", args=[game.pk]), HTTP_HX_REQUEST="true").json()
    assert "take your seat back" in status_html(before)

    answer, sql = post_placement(client, game, 1)
    assert Seat.objects.get(game=game, index=1).standin_level == ""
    assert "take your seat back" not in status_html(answer)
    assert seat_reads(sql) == 2  # read again: the move changed a seat
