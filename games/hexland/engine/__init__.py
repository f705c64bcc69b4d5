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
from games.hexland.engine.board import RES_INDEX
from games.hexland.engine.rules import (
    MOVE_TYPES, actors, apply, legal_moves, timeout_move, timer_kind, victory_points,
)
from games.hexland.engine.schema import MOVE_SCHEMA, VIEW_SCHEMA
from games.hexland.engine.state import MAIN, OVER, PHASES, TRADE, State, new_state
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


# Moves that answer or close the open trade offer: what they mean is that offer.
OFFER_MOVES = frozenset({"accept", "decline", "confirm", "cancel"})


def move_context(state: State, seat: int, move: dict) -> list:
    """What ``move`` means at this position (the platform plays a move chosen at an older
    version only when this is the same now; docs/hexland.md, "Moves from an older page").

    The turn and the phase; an open offer counts as the mover's main phase, since answers
    coming in change nothing of a build, a purchase or the end of the turn (the rules still
    refuse a build while the offer is open). A move that answers, confirms or cancels an offer
    means that offer (who made it, what for what), so an answer to an offer since replaced is
    refused. A discard means what the seat owes; a bank trade, the rate it pays."""
    kind = move.get("type")
    phase = PHASES[MAIN] if state.phase == TRADE else PHASES[state.phase]
    context: list = [turn_key(state), phase]
    if kind in OFFER_MOVES:
        offer = state.offer
        context.append(None if offer is None else [state.cur, list(offer[0]), list(offer[1])])
    elif kind == "discard":
        context.append(state.need[seat] if _is_seat(state, seat) else None)
    elif kind == "bank_trade":
        give = RES_INDEX.get(move.get("give")) if isinstance(move.get("give"), str) else None
        context.append(state.rate[seat * 5 + give] if give is not None and _is_seat(state, seat) else None)
    return context


def stale_message(old: State, new: State, seat: int, move: dict) -> str | None:
    """A player's words for a move whose context changed (``move_context``)."""
    kind = move.get("type")
    if kind not in OFFER_MOVES or old.offer is None:
        return None  # the platform's: the game has moved on, choose again
    if new.offer is None or new.cur != old.cur:
        return "That offer is no longer open."
    if kind in ("accept", "decline"):
        return "That offer has changed: look at the new one before you answer."
    return "That offer has changed: look at it again before you choose."


def _is_seat(state: State, seat) -> bool:
    return type(seat) is int and 0 <= seat < state.g.n


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
           "move_context", "stale_message", "actors", "legal_moves", "apply", "timeout_move", "timer_kind", "view", "is_over",
           "result", "victory_points"]
