"""Hextremadura: a solo tile-laying puzzle (``shared/rules/hextremadura.md``).

The engine protocol (``games/protocol.py``) plus ``replay`` for move-by-move rebuilding.
A move is ``{"type": "place", "tile": id, "q": int, "r": int, "rotation": 0..5}`` with
``"face": "a" | "b"`` for a river tile. The one seat is 0.
"""
from __future__ import annotations

from games.protocol import IllegalMove

from . import rules
from .schema import MOVE_SCHEMA, VIEW_SCHEMA
from .rules import MAX_SCORE, State, face_choices, legal_cells
from .tiles import TILES
from .view import build_view

KIND = "hextremadura"
TITLE = "Hextremadura"
SEAT = 0

__all__ = [
    "IllegalMove", "KIND", "TITLE", "State", "seat_count", "new_state", "actors", "legal_moves",
    "apply", "timeout_move", "view", "is_over", "result", "replay",
]


def _check_config(config: dict | None) -> dict:
    config = dict(config or {})
    players = config.get("players", 1)
    if players != 1:
        raise ValueError("Hextremadura is a solo game: players must be 1")
    return config


def seat_count(config: dict | None = None) -> int:
    _check_config(config)
    return 1


def new_state(config: dict | None, seed) -> State:
    """Shuffle the 18 tiles into the discovery pile (river tiles with a random face up); the
    first tile is the display. All chance comes from ``seed``."""
    _check_config(config)
    return rules.new_state(seed)


def actors(state: State) -> set[int]:
    return set() if state.over else {SEAT}


def _check_seat(seat) -> None:
    if seat != SEAT:
        raise IllegalMove("Hextremadura has a single seat, 0")


def legal_moves(state: State, seat: int = SEAT) -> list[dict]:
    if state.over or seat != SEAT:
        return []
    out = []
    cells = legal_cells(state.board)
    for tile in state.available:
        for face in face_choices(state, tile):
            for q, r in cells:
                for rotation in range(6):
                    move = {"type": "place", "tile": tile, "q": q, "r": r, "rotation": rotation}
                    if TILES[tile].river:
                        move["face"] = face
                    out.append(move)
    return out


def apply(state: State, seat: int, move: dict) -> State:
    """Return the state after ``move``; ``state`` is left as it was."""
    _check_seat(seat)
    return rules.play(state, move)


def timeout_move(state: State, seat: int = SEAT) -> State:
    """A solo puzzle has no clock in its rules; when the platform's runs out, the display tile
    goes on the first legal cell, unturned (face "a" for a river tile)."""
    _check_seat(seat)
    return apply(state, seat, legal_moves(state, seat)[0])


def view(state: State, seat: int | None = SEAT) -> dict:
    """The player's view; a spectator (``None``) sees the same, the game hides nothing but the
    first round's order, which nobody sees."""
    return build_view(state)


def is_over(state: State) -> bool:
    return state.over


def result(state: State) -> dict | None:
    if not state.over:
        return None
    analysis = state.board.analysis()
    points = rules.score(state.board, analysis)
    return {
        "score": points,
        "scores": [points],
        "ranks": [1],
        "max_score": MAX_SCORE,
        "rating": rules.rating(points),
        "perfect": points == MAX_SCORE,
        "quests": rules.quests(state.board, analysis, points),
        "rounds": state.round,
        "placements": state.turn,
    }


def replay(config: dict | None, seed, moves: list[dict]) -> State:
    """Rebuild a game from its seed and moves (what the platform's replay does, and undo too:
    replay without the last move)."""
    state = new_state(config, seed)
    for move in moves:
        state = apply(state, SEAT, move)
    return state
