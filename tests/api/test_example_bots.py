"""The example bots of examples/ play whole games through the API only, against AI seats: the
site served by Daphne in a child process (pages and streams, as in production), the AI seats
moved by a real Celery worker, each bot's file loaded as it is and run until its game ends."""
from __future__ import annotations

import importlib.util
import threading
from pathlib import Path

import pytest

from api import tokens
from games.models import Game, MoveEvent
from tests.e2e.conftest import asgi_live_server  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db(transaction=True)
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# Each game is small (see the bodies below); a bot still running after this has hung.
BOT_SECONDS = 120


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def fast_ai(settings):
    """AI seats move at once (read by the Daphne child too, which is forked after this)."""
    settings.GAME_AI_DELAY_SECONDS = 0


def start_example_bot(name: str, base_url: str, bot_user, before=None) -> tuple[threading.Thread, list[str], object]:
    """The example ``name`` run as it is for ``bot_user`` (a token with read and bot), in a
    thread of its own, until one game is over: the thread, what it says, and its API client.
    ``before(api)`` runs first (e.g. the bot opens its game)."""
    example = load(name)
    _token, secret = tokens.create_token(owner=bot_user, name="example", scopes=["read", "bot"])
    api = example.Api(base_url, secret)
    if before is not None:
        before(api)
    said: list[str] = []
    bot = threading.Thread(target=example.run, args=(api, 1, said.append), daemon=True)
    bot.start()
    return bot, said, api


def play_through_the_example(name: str, base_url: str, bot_user, new_game: dict) -> tuple[Game, list[str]]:
    created = {}

    def open_the_game(api):
        status, answer = api.call("POST", "/games", new_game)
        assert status == 201, answer
        created.update(answer)

    bot, said, _api = start_example_bot(name, base_url, bot_user, before=open_the_game)
    bot.join(timeout=BOT_SECONDS)
    assert not bot.is_alive(), f"the {name} did not finish its game: {said}"
    game = Game.objects.get(pk=created["id"])
    print(f"{name}: game seed {game.seed}, {MoveEvent.objects.filter(game=game, seat=0).count()} moves of the bot, "
          f"result {game.result}")
    return game, said


def test_the_hextension_example_bot_plays_a_whole_game_against_the_ai(fast_ai, asgi_live_server,  # noqa: F811
                                                                      celery_worker_thread, django_user_model):
    bot_user = django_user_model.objects.create_user("hextension-example", is_bot=True)
    game, said = play_through_the_example("hextension_bot", asgi_live_server, bot_user,
                                          {"game": "hextension", "players": 2, "ai": 1, "ai_level": "greedy"})
    assert game.status == Game.Status.FINISHED, said
    assert MoveEvent.objects.filter(game=game, seat=0).count() == 10  # two tiles a round, 19 cells
    assert f"game {game.pk} over" in said[-1]
    assert not any("refused" in text for text in said), said
    assert not any("suggestion" in text for text in said), said  # every placement was the strong AI's


def test_the_hexland_example_bot_plays_a_whole_game_against_the_ai(fast_ai, asgi_live_server,  # noqa: F811
                                                                   celery_worker_thread, django_user_model):
    bot_user = django_user_model.objects.create_user("hexland-example", is_bot=True)
    # The smallest game the form allows: 3 points to win, and a limit of 20 turns so it ends
    # even when nobody gets there.
    game, said = play_through_the_example("hexland_bot", asgi_live_server, bot_user,
                                          {"game": "hexland", "players": 2, "ai": 1, "vp_to_win": 3, "max_turns": 20,
                                           "ai_level": "easy"})
    assert game.status == Game.Status.FINISHED, said
    assert MoveEvent.objects.filter(game=game, seat=0).count() >= 4  # its setup at least, and its turns
    assert f"game {game.pk} over" in said[-1]
    assert not any("suggestion" in text for text in said), said  # every move was the hard AI's
