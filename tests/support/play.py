"""Moving a game along in scenario tests: a random legal move from a seeded RNG, and a timeout
applied as the clock would apply it."""
from __future__ import annotations

import random
from datetime import timedelta

from games import services, state_store
from games.hexland.engine import ai as hexland_ai
from games.hextension import engine as hextension
from games.models import Game
from games.sites import get_engine


def random_move(game: Game, seat: int, rng: random.Random) -> dict:
    engine = get_engine(game.kind)
    state = state_store.load(game)
    if game.kind == "hextension":
        view = engine.view(state, seat)
        free = [cell for cell in hextension.CELLS if cell not in view["seats"][seat]["board"]]
        return {"type": "place", "placements": dict(zip(view["drawn"], rng.sample(free, len(view["drawn"]))))}
    legal = engine.legal_moves(state, seat)
    if game.kind == "hexland":
        offers = [m for m in legal if m["type"] == "offer"]
        others = [m for m in legal if m["type"] != "offer"]
        return rng.choice(offers) if offers and rng.random() < 0.05 else hexland_ai.choose_weighted(others or legal, rng)
    return rng.choice(legal)


def time_out(game: Game) -> None:
    """The awaited seats' time runs out: the timeout service run just past the deadline."""
    game = Game.objects.get(pk=game.pk)
    assert game.deadline_at is not None, (game.status, game.awaiting, game.clock, game.version)
    assert services.apply_timeouts(game_id=game.pk, now=game.deadline_at + timedelta(seconds=1)) > 0
