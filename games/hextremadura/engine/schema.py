"""The shape of a Hextremadura move, as JSON Schema (a plain dict: the platform checks it at
the edge, before the engine sees the move; see ``games.move_input``).

One move: ``{"type": "place", "tile": id, "q": int, "r": int, "rotation": 0..5}`` with
``"face"`` for a river tile. Whether the cell touches the map is for the rules; the schema
keeps the map within ``MAP_REACH`` of the origin, so a board can always be drawn."""
from __future__ import annotations

from .tiles import BACK, FRONT, RIVER_FACES, TILE_IDS

# A game places at most 33 tiles (18, and the 15 terrain tiles that come back once), each
# touching the map: from the origin no legal cell is more than 32 steps out. (On an empty map
# the rules let a tile go anywhere; the schema keeps it within reach.)
MAP_REACH = 40

_COORD = {"type": "integer", "minimum": -MAP_REACH, "maximum": MAP_REACH}

MOVE_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Hextremadura move",
    "type": "object",
    "properties": {
        "type": {"const": "place"},
        "tile": {"enum": list(TILE_IDS), "description": "a tile id from T1 to T15 or R1 to R3"},
        "q": _COORD,
        "r": _COORD,
        "rotation": {"type": "integer", "minimum": 0, "maximum": 5},
        # "a" or "b" for a river tile; a terrain tile may name the face it shows.
        "face": {"enum": [*RIVER_FACES, FRONT, BACK]},
    },
    "required": ["type", "tile", "q", "r"],
    "additionalProperties": False,
}
