"""Hextension (Peter Burley's "Take it Easy" as a play-by-mail game): the engine package.

Rules: shared/rules/hextension.md. The protocol functions live in ``rules``, the board data
and scoring in ``board``, the placement AI in ``ai``.

Moves: ``{"type": "place", "placements": {"174": "C3", "963": "A1"}}`` (tile -> cell) covering
every tile of the open round. Config: ``{"players": n, "tiles_per_round": 2}``.
"""
from games.protocol import IllegalMove

from . import ai

from .board import (
    AXIAL,
    CELL_COORDS,
    CELLS,
    DIRECTIONS,
    LINES,
    MAX_SCORE,
    TILES,
    potential,
    score_board,
)
from .schema import MOVE_SCHEMA, VIEW_SCHEMA
from .rules import (
    KIND,
    TITLE,
    State,
    actors,
    apply,
    apply_timeout,
    is_over,
    legal_moves,
    legacy_timeout_move,
    new_state,
    resolve_timeout,
    result,
    seat_count,
    timeout_move,
    view,
    waiting_for,
)

__all__ = [
    "AXIAL", "CELL_COORDS", "CELLS", "DIRECTIONS", "IllegalMove", "KIND", "LINES", "MAX_SCORE",
    "State", "TILES", "TITLE", "actors", "apply", "apply_timeout", "is_over", "legacy_timeout_move", "legal_moves", "new_state", "potential", "resolve_timeout", "result",
    "score_board", "seat_count", "timeout_move", "view", "waiting_for",
]


# Every seat acts at once in a round: the platform accepts a view from earlier in the round.
SIMULTANEOUS_TURNS = True


def turn_key(state: State) -> int:
    """The platform restarts the round clock when this changes: the open round's index."""
    return state.round
