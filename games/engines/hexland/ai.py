"""Baseline bots for testing and benchmarks.  They decide from their seat's view only.

    move = decide(view(state, seat, log_tail=0), "random" | "weighted", rng)

``random`` picks uniformly among ``view["legal_moves"]``; ``weighted`` does the same with
weights that favour cities, settlements and development cards, as Catanatron's
WeightedRandomPlayer does (10000 / 1000 / 100 / 1).  Both leave trade offers out (they
would only open offers at random); a bot still answers offers made to it.
"""
from __future__ import annotations

import random as _random

LEVELS = ("random", "weighted")
WEIGHTS = {"build_city": 10000, "build_settlement": 1000, "buy_dev": 100}


def decide(view: dict, level: str, rng: _random.Random) -> dict:
    moves = [m for m in view["legal_moves"] if m["type"] != "offer"]
    if not moves:
        raise ValueError("this seat has no move to make")
    if level == "random":
        return rng.choice(moves)
    if level == "weighted":
        return choose_weighted(moves, rng)
    raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")


def choose_weighted(moves: list, rng: _random.Random) -> dict:
    weights = [WEIGHTS.get(m["type"], 1) for m in moves]
    return rng.choices(moves, weights)[0]
