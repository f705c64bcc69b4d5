"""The shape of a Hextension move, as JSON Schema (a plain dict: the platform checks it at the
edge, before the engine sees the move; see ``games.move_input``).

One move: ``{"type": "place", "placements": {tile: cell, …}}`` with one entry per tile of the
round (1 to 3). Whether those are this round's tiles and empty cells is for the rules."""
from __future__ import annotations

from .board import CELLS, TILES

MAX_TILES_PER_ROUND = 3

MOVE_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Hextension move",
    "type": "object",
    "properties": {
        "type": {"const": "place"},
        "placements": {
            "type": "object",
            "minProperties": 1,
            "maxProperties": MAX_TILES_PER_ROUND,
            "propertyNames": {"enum": list(TILES), "description": "a tile named by its values, like 174"},
            "additionalProperties": {"enum": list(CELLS), "description": "a cell from A1 to E3, like C3"},
            "description": f"a mapping of this round's tiles (1 to {MAX_TILES_PER_ROUND}) to cells",
        },
    },
    "required": ["type", "placements"],
    "additionalProperties": False,
}
