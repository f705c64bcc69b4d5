"""Hexland: the Catan-style engine (rules: shared/rules/hexland.md; design: docs/hexland.md).

Pure Python, no Django.  The engine protocol of ``games.engines``::

    state = new_state({"players": 4, "layout": "random", "names": [...]}, seed)
    actors(state) -> set of seats             legal_moves(state, seat) -> [move, ...]
    apply(state, seat, move) -> new state     timeout_move(state, seat) -> new state
    view(state, seat | None) -> dict          is_over(state), result(state)

Moves are JSON objects with a ``type``; an illegal one raises ``IllegalMove``.
"""
from __future__ import annotations

from games.engines.errors import IllegalMove
from games.engines.hexland.rules import (
    MOVE_TYPES, actors, apply, legal_moves, timeout_move, timer_kind, victory_points,
)
from games.engines.hexland.state import OVER, State, new_state
from games.engines.hexland.view import view

KIND = "hexland"
TITLE = "Hexland"


def seat_count(config: dict | None) -> int:
    return (config or {}).get("players", 4)


def is_over(state: State) -> bool:
    return state.phase == OVER


def result(state: State) -> dict | None:
    """Winner, final points (hidden VP cards included) and ranks, or None while playing.
    The winner ranks 1 whatever the points; the others rank by points, ties sharing."""
    if state.phase != OVER:
        return None
    scores = [victory_points(state, q) for q in range(state.g.n)]
    w = state.winner
    ranks = [1 if q == w else 2 + sum(scores[o] > scores[q] for o in range(len(scores))
                                      if o != w)
             for q in range(len(scores))]
    return {"winner": w, "scores": scores, "ranks": ranks, "turns": state.turn}


__all__ = ["KIND", "TITLE", "IllegalMove", "MOVE_TYPES", "State", "seat_count", "new_state",
           "actors", "legal_moves", "apply", "timeout_move", "timer_kind", "view", "is_over",
           "result", "victory_points"]
