"""Hexland: the Catan-style engine (rules: shared/rules/hexland.md; design: docs/hexland.md).

Pure Python, no Django.  The engine protocol of ``games.protocol``::

    state = new_state({"players": 4, "layout": "random", "names": [...]}, seed)
    actors(state) -> set of seats             legal_moves(state, seat) -> [move, ...]
    apply(state, seat, move) -> new state     timeout_move(state, seat) -> new state
    view(state, seat | None) -> dict          is_over(state), result(state)

Moves are JSON objects with a ``type``; an illegal one raises ``IllegalMove``.
"""
from __future__ import annotations

from games.protocol import IllegalMove
from games.hexland.engine.rules import (
    MOVE_TYPES, actors, apply, legal_moves, timeout_move, timer_kind, victory_points,
)
from games.hexland.engine.schema import MOVE_SCHEMA
from games.hexland.engine.state import OVER, State, new_state
from games.hexland.engine.view import view

KIND = "hexland"
TITLE = "Hexland"
_TIMER_INDEX = {"setup": 0, "turn": 1, "discard": 2}


def turn_key(state: State) -> list:
    """A turn is a setup placement (by step) or a player's turn (by number): discards and
    trade answers inside a turn do not begin a new one."""
    return ["setup", state.step] if state.turn == 0 else ["turn", state.turn]


def clock_key(state: State) -> list | None:
    """The running timer (rules: "Timers"): a discard interrupts the mover's turn clock, which
    resumes with the time it had left once the discards are done."""
    kind = timer_kind(state)
    if kind is None:
        return None
    return [kind, *turn_key(state)]


def seconds_for(state: State, config: dict | None, default: int | None) -> int | None:
    """The limit of the running timer, from the room's preset (setup, turn, discard)."""
    kind = timer_kind(state)
    if kind is None:
        return None
    return state.g.timers[_TIMER_INDEX[kind]]


def seat_count(config: dict | None) -> int:
    return (config or {}).get("players", 4)


def is_over(state: State) -> bool:
    return state.phase == OVER


def result(state: State) -> dict | None:
    """Winner (None after a tie at the turn limit), final points (hidden VP cards included) and
    ranks, or None while playing. The winner ranks 1 whatever the points; the others rank by
    points, ties sharing."""
    if state.phase != OVER:
        return None
    scores = [victory_points(state, q) for q in range(state.g.n)]
    w = state.winner
    if w == -1:
        ranks = [1 + sum(other > score for other in scores) for score in scores]
        return {"winner": None, "scores": scores, "ranks": ranks, "turns": state.turn}
    ranks = [1 if q == w else 2 + sum(scores[o] > scores[q] for o in range(len(scores))
                                      if o != w)
             for q in range(len(scores))]
    return {"winner": w, "scores": scores, "ranks": ranks, "turns": state.turn}


__all__ = ["KIND", "TITLE", "turn_key", "clock_key", "seconds_for", "IllegalMove", "MOVE_TYPES", "State", "seat_count", "new_state",
           "actors", "legal_moves", "apply", "timeout_move", "timer_kind", "view", "is_over",
           "result", "victory_points"]
