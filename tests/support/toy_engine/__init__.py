"""A tiny engine for platform tests only (never offered on the site).

Players take turns adding 1, 2 or 3 to a shared total; whoever reaches ``target`` wins.
Each player holds a secret card dealt from a shuffled deck, so hidden information can be
checked end to end: a view shows its own seat's card and nobody else's.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace

from games.protocol import IllegalMove

from .schema import MOVE_SCHEMA

KIND = "toy"
TITLE = "Toy race"


@dataclass(frozen=True)
class State:
    players: int
    target: int
    total: int
    turn: int
    cards: tuple[int, ...]
    deck: tuple[int, ...]
    winner: int | None
    log: tuple[str, ...]


def seat_count(config: dict) -> int:
    return int(config.get("players", 2))


def new_state(config: dict, seed: int) -> State:
    players = seat_count(config)
    if not 2 <= players <= 4:
        raise IllegalMove("A toy race needs 2 to 4 players.")
    # Seven-digit cards: a test that looks for a hidden card in a page never mistakes a game's
    # or a user's id (which a long test run takes past 100) for it.
    deck = list(range(7_301_000, 7_301_100))
    random.Random(seed).shuffle(deck)
    return State(players, int(config.get("target", 15)), 0, 0, tuple(deck[:players]), tuple(deck[players:]), None, ())


def actors(state: State) -> set[int]:
    return set() if state.winner is not None else {state.turn}


def legal_moves(state: State, seat: int) -> list[dict]:
    if seat not in actors(state):
        return []
    return [{"type": "add", "n": n} for n in (1, 2, 3)]


def apply(state: State, seat: int, move: dict) -> State:
    if state.winner is not None:
        raise IllegalMove("The race is over.")
    if seat != state.turn:
        raise IllegalMove("It is not your turn.")
    if move.get("type") != "add":
        raise IllegalMove("Unknown move: the only move is to add 1, 2 or 3.")
    n = move.get("n")
    if not isinstance(n, int) or isinstance(n, bool) or n not in (1, 2, 3):
        raise IllegalMove("You may add 1, 2 or 3.")
    total = state.total + n
    winner = seat if total >= state.target else None
    return replace(
        state,
        total=total,
        turn=(state.turn + 1) % state.players,
        winner=winner,
        log=state.log + (f"Seat {seat + 1} added {n}.",),
    )


def timeout_move(state: State, seat: int) -> State:
    return apply(state, seat, {"type": "add", "n": 1})


def view(state: State, seat: int | None) -> dict:
    return {
        "total": state.total,
        "target": state.target,
        "turn": state.turn,
        "my_card": state.cards[seat] if seat is not None else None,
        "deck_size": len(state.deck),
        "winner": state.winner,
        "log": list(state.log),
        "legal_moves": legal_moves(state, seat) if seat is not None else [],
    }


def is_over(state: State) -> bool:
    return state.winner is not None


def result(state: State) -> dict | None:
    if state.winner is None:
        return None
    scores = [1 if seat == state.winner else 0 for seat in range(state.players)]
    return {"scores": scores, "ranks": [1 if s else 2 for s in scores], "winner": state.winner}
