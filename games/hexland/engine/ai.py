"""Hexland bots.  They decide from their seat's view only (never the state).

    move = decide(view(state, seat), level, rng)        # benchmarks, tests
    move = choose_move(view, level)                     # the platform's entry point

``random`` picks uniformly among ``view["legal_moves"]``; ``weighted`` does the same with
weights that favour cities, settlements and development cards, as Catanatron's
WeightedRandomPlayer does (10000 / 1000 / 100 / 1).  Both leave trade offers out (they
would only open offers at random); a bot still answers offers made to it.

``easy``, ``medium`` and ``hard`` look ahead on a State rebuilt from the view with the hidden
cards sampled (planner.py, determinise.py, evaluate.py; docs/hexland.md, "AI").
"""
from __future__ import annotations

import random as _random

from games.hexland.engine import planner

LEVELS = ("random", "weighted", "easy", "medium", "hard")
AI_LEVELS = ("easy", "medium", "hard")  # offered on the site
WEIGHTS = {"build_city": 10000, "build_settlement": 1000, "buy_dev": 100}
_platform_rng = _random.Random()


def decide(view: dict, level: str, rng: _random.Random) -> dict:
    if level in planner.LEVELS:
        return planner.decide(view, level, rng)
    moves = [m for m in view["legal_moves"] if m["type"] != "offer"]
    if not moves:
        raise ValueError("this seat has no move to make")
    if level == "random":
        return rng.choice(moves)
    if level == "weighted":
        return choose_weighted(moves, rng)
    raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")


def choose_move(view: dict, level: str) -> dict:
    """The platform's entry point: a fresh call per decision, with only the current view."""
    return decide(view, level, _platform_rng)


def choose_weighted(moves: list, rng: _random.Random) -> dict:
    weights = [WEIGHTS.get(m["type"], 1) for m in moves]
    return rng.choices(moves, weights)[0]
