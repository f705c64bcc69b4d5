"""The shape of a Hextension move, as JSON Schema (a plain dict: the platform checks it at the
edge, before the engine sees the move; see ``games.move_input``).

One move: ``{"type": "place", "placements": {tile: cell, …}}`` with one entry per tile of the
round (1 to 3). Whether those are this round's tiles and empty cells is for the rules.

``VIEW_SCHEMA``: the shape of what ``rules.view`` gives a seat or a spectator (the API's
OpenAPI document describes a game's ``view`` with it)."""
from __future__ import annotations

from .board import CELLS, DIRECTIONS, LINES, TILES, VALUES
from .rules import MAX_PLAYERS

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


# --- the view ----------------------------------------------------------------------------------
# What ``rules.view`` gives a seat (or a spectator, ``seat`` null), as JSON Schema: every field
# it holds and nothing else (``additionalProperties`` false throughout), so a field added to the
# view without a line here fails the tests that check views against it. Nothing hidden is
# described: no deck, no seed, no other seat's open-round placement (a seat has ``moved`` only).

_SEAT = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
_TILE = {"enum": list(TILES)}
_CELL = {"enum": list(CELLS)}
_TILES = {"type": "array", "items": _TILE, "uniqueItems": True}
_COUNT = {"type": "integer", "minimum": 0}
_VALUE = {"enum": sorted({value for values in VALUES for value in values})}


def _closed(properties: dict, optional: tuple[str, ...] = (), **more) -> dict:
    """An object of exactly these properties (those in ``optional`` may be missing)."""
    return {"type": "object", "properties": properties,
            "required": [name for name in properties if name not in optional],
            "additionalProperties": False, **more}


_LINE = _closed({
    "direction": {"enum": list(DIRECTIONS)},
    "cells": {"type": "array", "items": _CELL, "minItems": 3, "maxItems": 5},
    "length": {"type": "integer", "minimum": 3, "maximum": 5},
    "value": {"oneOf": [_VALUE, {"type": "null"}], "description": "the value the line holds, if any"},
    "values": {"type": "array", "items": _VALUE, "description": "the values it can still score"},
    "status": {"enum": ["scoring", "open", "dead"]},
    "score": _COUNT,
}, description="One of the board's 15 lines, as the score diagram shows it.")

_SEAT_ENTRY = _closed({
    "seat": _SEAT,
    "board": {"type": "object", "propertyNames": _CELL, "additionalProperties": _TILE,
              "description": "cell -> tile, as of the last closed round"},
    "score": _COUNT,
    "potential": {**_COUNT, "description": "the most the board can still make"},
    "lines": {"type": "array", "items": _LINE, "minItems": len(LINES), "maxItems": len(LINES)},
    "nmr": {**_COUNT, "description": "rounds missed (no move received)"},
    "out": {"type": "boolean", "description": "removed after its third missed round"},
    "moved": {"type": "boolean", "description": "has submitted the open round (what, only it sees)"},
    "last_placed": {"type": "array", "items": _CELL, "maxItems": MAX_TILES_PER_ROUND,
                    "description": "the cells it filled in the latest closed round"},
})

_RESULT = _closed({
    "scores": {"type": "array", "items": _COUNT},
    "ranking": {"type": "array", "items": _SEAT, "description": "seats, best first"},
    "ranks": {"type": "array", "items": {"type": "integer", "minimum": 1}, "description": "by seat"},
    "winners": {"type": "array", "items": _SEAT},
    "out": {"type": "array", "items": _SEAT},
})

VIEW_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Hextension view",
    **_closed({
        "kind": {"const": "hextension"},
        "seat": {"oneOf": [_SEAT, {"type": "null"}], "description": "the viewer's seat; null: a spectator"},
        "players": {"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS},
        "tiles_per_round": {"type": "integer", "minimum": 1, "maximum": MAX_TILES_PER_ROUND},
        "round": {"type": "integer", "minimum": 1, "description": "the open round (the last, once over)"},
        "rounds": {"type": "integer", "minimum": 1},
        "over": {"type": "boolean"},
        "drawn": {**_TILES, "maxItems": MAX_TILES_PER_ROUND, "description": "the open round's tiles"},
        "earlier": {**_TILES, "description": "the tiles of the closed rounds, in draw order"},
        "last_round": {**_TILES, "maxItems": MAX_TILES_PER_ROUND},
        "actors": {"type": "array", "items": _SEAT, "description": "seats still in the game"},
        "seats": {"type": "array", "items": _SEAT_ENTRY},
        "pending": {"oneOf": [{"type": "null"}, {
            "type": "object", "minProperties": 1, "maxProperties": MAX_TILES_PER_ROUND,
            "propertyNames": _TILE, "additionalProperties": _CELL}],
            "description": "a seat's own view only: its move in the open round (tile -> cell), or null"},
        "result": {**_RESULT, "description": "once over"},
    }, optional=("pending", "result")),
    # A seat sees its own open-round move; a spectator sees no seat's.
    "allOf": [
        {"if": {"properties": {"seat": {"type": "null"}}}, "then": {"not": {"required": ["pending"]}},
         "else": {"required": ["pending"]}},
        {"if": {"properties": {"over": {"const": True}}}, "then": {"required": ["result"]},
         "else": {"not": {"required": ["result"]}}},
    ],
}
