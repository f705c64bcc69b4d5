"""A bot plays a whole Hextension game against an AI seat through the API only: it opens the
game, reads it, sends one of its legal moves each round, and reads the result. The AI seat is
played as the play worker plays it (``services.play_ai_move``)."""
from __future__ import annotations

import random

import pytest

from games import services
from games.models import Game
from tests.api.conftest import ApiClient, token_for

pytestmark = pytest.mark.django_db


def run_the_worker(game_id: int) -> None:
    game = Game.objects.get(pk=game_id)
    for seat in game.seats.filter(index__in=game.awaiting).exclude(ai_level=""):
        services.play_ai_move(game_id=game_id, expected_version=game.version, seat=seat.index)


def test_a_bot_plays_a_whole_hextension_game_against_the_ai_through_the_api(make_user):
    seed = random.randrange(2**32)
    print(f"bot seed {seed}")
    choose = random.Random(seed)
    bot = ApiClient(token_for(make_user("little-bot"), scopes=["read", "play"]))
    created = bot.post("/games", {"game": "hextension", "players": 2, "ai": 1, "ai_level": "greedy"})
    assert created.status_code == 201
    url = f"/games/{created.json()['id']}"
    moves = 0
    for _step in range(100):
        game = bot.get(url).json()
        if game["status"] == "finished":
            break
        if game["to_move"]:
            move = choose.choice(game["legal_moves"])
            answer = bot.post(f"{url}/moves", {"version": game["version"], "move": move})
            assert answer.status_code == 200, answer.json()
            moves += 1
        else:
            run_the_worker(game["id"])
    else:
        pytest.fail("the game did not end")
    assert moves == 10  # 19 cells, two tiles a round: nine rounds of two and a last of one
    assert game["legal_moves"] == [] and game["to_move"] is False
    assert set(game["result"]) >= {"scores", "ranks"} and len(game["result"]["scores"]) == 2
    assert len(game["view"]["seats"][0]["board"]) == 19
