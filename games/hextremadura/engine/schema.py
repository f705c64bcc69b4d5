"""The shape of a Hextremadura move, as JSON Schema (a plain dict: the platform checks it at
the edge, before the engine sees the move; see ``games.move_input``).

One move: ``{"type": "place", "tile": id, "q": int, "r": int, "rotation": 0..5}`` with
``"face"`` for a river tile. Whether the cell touches the map is for the rules; the schema
keeps the map within ``MAP_REACH`` of the origin, so a board can always be drawn.

``VIEW_SCHEMA``: the shape of what ``view.build_view`` gives the player and a spectator (the
API's OpenAPI document describes a game's ``view`` with it)."""
from __future__ import annotations

from .rules import QUESTS
from .tiles import BACK, FRONT, ICONS, KINDS, RIVER_FACES, TILE_IDS

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


# --- the view ----------------------------------------------------------------------------------
# What ``view.build_view`` gives the player (a spectator sees the same), as JSON Schema: every
# field it holds and nothing else (``additionalProperties`` false throughout), so a field added to
# the view without a line here fails the tests that check views against it. Of the discovery
# pile only its size and, from round 2 on (the order the player made), the tiles below its top:
# never the first round's shuffle.

_COUNT = {"type": "integer", "minimum": 0}
_TILE = {"enum": list(TILE_IDS)}
_FACE = {"enum": [*RIVER_FACES, FRONT, BACK]}
_KIND = {"enum": list(KINDS)}
_ICON = {"enum": list(ICONS)}
_SIDE = {"type": "integer", "minimum": 0, "maximum": 5}
_CELL = {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"}], "minItems": 2, "maxItems": 2}


def _closed(properties: dict, optional: tuple[str, ...] = (), **more) -> dict:
    """An object of exactly these properties (those in ``optional`` may be missing)."""
    return {"type": "object", "properties": properties,
            "required": [name for name in properties if name not in optional],
            "additionalProperties": False, **more}


_OBJECTIVE_FIELDS = {"family": {"enum": ["trio", "triad", "scatter", "pair"]}, "text": {"type": "string"},
                     "kind": _KIND, "icons": {"type": "array", "items": _ICON, "maxItems": 2}}
_REQUIREMENT_FIELDS = {"kind": _KIND, "n": {"type": "integer", "minimum": 1}, "side": _SIDE}
_ICON_ON_SPACE = _closed({"space": _SIDE, "icon": _ICON})
_SPACES = {"type": "array", "items": _KIND, "minItems": 6, "maxItems": 6}


def _face(requirement: dict, objective: dict) -> dict:
    """A face's fields (tiles.Face.to_json): a front has requirements, a back icons and an
    objective, a river face neither."""
    return {"face": _FACE, "spaces": _SPACES,
            "requirements": {"type": "array", "items": requirement, "minItems": 2, "maxItems": 2},
            "icons": {"type": "array", "items": _ICON_ON_SPACE, "minItems": 1, "maxItems": 2},
            "objective": objective}


_UNPLACED_FACE = _closed(_face(_closed(_REQUIREMENT_FIELDS), _closed(_OBJECTIVE_FIELDS, optional=("kind",))),
                         optional=("requirements", "icons", "objective"))

_PLACED = _closed({
    "tile": _TILE, "q": _COORD, "r": _COORD, "rotation": _SIDE, "seq": _COUNT, "river": {"type": "boolean"},
    **_face(_closed({**_REQUIREMENT_FIELDS, "met": {"type": "boolean"},
                     "reach": {**_COUNT, "description": "the largest terrain of its kind touching the side"}}),
            _closed({**_OBJECTIVE_FIELDS, "met": {"type": "boolean"}}, optional=("kind",))),
    "spaces_terrain": {"type": "array", "items": _COUNT, "minItems": 6, "maxItems": 6,
                       "description": "the terrain id of each space"},
}, optional=("requirements", "icons", "objective"), description="A tile on the map, turned as placed.")

# A tile off the map: its faces it may be placed with, unturned.
_LOOSE_TILE = {
    "tile": _TILE, "river": {"type": "boolean"}, "face": {**_FACE, "description": "the face showing"},
    "faces": {"type": "object", "propertyNames": _FACE, "additionalProperties": _UNPLACED_FACE,
              "minProperties": 1, "maxProperties": 2},
}

_QUEST = {"enum": list(QUESTS)}

VIEW_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Hextremadura view",
    **_closed({
        "game": {"const": "hextremadura"},
        "round": {"type": "integer", "minimum": 1},
        "turn": {**_COUNT, "description": "placements made"},
        "over": {"type": "boolean"},
        "geometry": _closed({
            "layout": {"type": "string"},
            "directions": {"type": "array", "items": _CELL, "minItems": 6, "maxItems": 6},
            "direction_names": {"type": "array", "items": {"type": "string"}, "minItems": 6, "maxItems": 6},
            "spaces": {"type": "string"},
            "rotation": {"type": "string"},
        }, description="The map's conventions, in words and numbers."),
        "map": {"type": "array", "items": _PLACED, "description": "placed tiles, in placement order"},
        "terrains": {"type": "array", "items": _closed({
            "id": _COUNT, "kind": _KIND, "size": {"type": "integer", "minimum": 1},
            "icons": _closed({icon: _COUNT for icon in ICONS}),
            "spaces": {"type": "array", "minItems": 1, "items": {
                "type": "array", "prefixItems": [_COORD, _COORD, _SIDE], "minItems": 3, "maxItems": 3}},
        })},
        "available": {"type": "array", "maxItems": 2, "items": _closed({
            "slot": {"enum": ["display", "pile"]}, **_LOOSE_TILE})},
        "legal_cells": {"type": "array", "items": _CELL},
        "discovery": _closed({
            "size": {**_COUNT, "description": "the pile, the display not counted"},
            "below_top": {"oneOf": [{"type": "array", "items": _closed(_LOOSE_TILE)}, {"type": "null"}],
                          "description": "null in round 1; then the tiles below the top, in order"},
        }),
        "explored": {"type": "array", "items": _closed(_LOOSE_TILE), "description": "first explored first"},
        "last_move": {"oneOf": [_closed({"type": {"const": "place"}, "tile": _TILE, "q": _COORD, "r": _COORD,
                                         "rotation": _SIDE, "face": _FACE}), {"type": "null"}]},
        "last_removed": {"type": "array", "items": _closed({"tile": _TILE, "q": _COORD, "r": _COORD,
                                                            "rotation": _SIDE, "face": _FACE})},
        "objectives": {"type": "array", "items": _closed({"tile": _TILE, "q": _COORD, "r": _COORD,
                                                          "met": {"type": "boolean"}, **_OBJECTIVE_FIELDS},
                                                         optional=("kind",))},
        "score": _COUNT,
        "max_score": _COUNT,
        "quests": _closed({quest: _closed({"name": {"type": "string"}, "met": {"type": "boolean"}})
                           for quest in QUESTS}),
        "final": {"oneOf": [_closed({
            "score": _COUNT, "rating": {"type": "string"}, "perfect": {"type": "boolean"},
            "quests": {"type": "object", "propertyNames": _QUEST, "additionalProperties": {"type": "boolean"}},
        }), {"type": "null"}], "description": "null until the end"},
    }),
}
