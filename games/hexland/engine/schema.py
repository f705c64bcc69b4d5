"""The shape of a Hexland move, as JSON Schema (a plain dict: the platform checks it at the
edge, before the engine sees the move; see ``games.move_input``).

Per move type, the fields ``rules._FIELDS`` allows and nothing else; ids in range of the board,
resources by name, card counts small. Whether a move is legal now is for the rules."""
from __future__ import annotations

from .board import NUM_EDGES, NUM_HEXES, NUM_NODES, RESOURCES
from .rules import MOVE_TYPES
from .state import BANK_START, DEV_CARDS, VICTORY_POINT

MAX_PLAYERS = 4  # state.new_state: 2 to 4


def _id(count: int) -> dict:
    return {"type": "integer", "minimum": 0, "maximum": count - 1}


_NODE, _EDGE, _HEX, _SEAT = _id(NUM_NODES), _id(NUM_EDGES), _id(NUM_HEXES), _id(MAX_PLAYERS)
_RESOURCE = {"enum": list(RESOURCES)}


def _said(schema: dict, message: str) -> dict:
    """``schema`` with the sentence a player reads when a value of it is refused (the
    platform's ``errorMessage``: the forms' fields, so a refusal speaks of the form)."""
    return {**schema, "errorMessage": message}


def _bundle(message: str) -> dict:
    """{"wood": 2, "ore": 1}: nobody holds more of one resource than the bank starts with."""
    return _said({
        "type": "object",
        "minProperties": 1,
        "maxProperties": len(RESOURCES),
        "propertyNames": _RESOURCE,
        "additionalProperties": _said({"type": "integer", "minimum": 0, "maximum": BANK_START},
                                      f"Card counts must be whole numbers from 0 to {BANK_START}."),
    }, message)


_PLAYABLE = [name for i, name in enumerate(DEV_CARDS) if i != VICTORY_POINT]
_TWO_RESOURCES = "Choose two resources to take from the bank."

# The fields of each move type (rules._FIELDS), and which of them it must carry.
FIELDS: dict[str, dict[str, dict]] = {
    "place_settlement": {"node": _NODE},
    "place_road": {"edge": _EDGE},
    "move_pair": {"node": _NODE, "edge": _EDGE},
    "roll": {},
    "discard": {"cards": _bundle("Choose the cards to discard.")},
    "move_robber": {"hex": _HEX, "victim": {**_SEAT, "type": ["integer", "null"]}},
    "build_road": {"edge": _EDGE},
    "build_settlement": {"node": _NODE},
    "build_city": {"node": _NODE},
    "buy_dev": {},
    "play_dev": {
        "card": _said({"enum": _PLAYABLE}, "Choose a development card to play."),
        "resources": _said({"type": "array", "minItems": 2, "maxItems": 2,
                            "items": _said(_RESOURCE, _TWO_RESOURCES)}, _TWO_RESOURCES),
        "resource": _said(_RESOURCE, "Choose the resource to take from the other players."),
    },
    "bank_trade": {"give": _said(_RESOURCE, "Choose the resource to give the bank."),
                   "get": _said(_RESOURCE, "Choose the resource to take from the bank."),
                   "count": _said({"type": "integer", "minimum": 1, "maximum": BANK_START},
                                  f"Trade from 1 to {BANK_START} cards with the bank at a time.")},
    "offer": {"give": _bundle("Choose at least one card to give."),
              "get": _bundle("Choose at least one card to ask for.")},
    "accept": {},
    "decline": {},
    "confirm": {"seat": _SEAT},
    "cancel": {},
    "end_turn": {},
}
OPTIONAL = {"move_robber": {"victim"}, "play_dev": {"resources", "resource"}, "bank_trade": {"count"}}


def _one_type(kind: str, fields: dict[str, dict]) -> dict:
    """``if type is kind then`` exactly these fields."""
    return {
        "if": {"properties": {"type": {"const": kind}}, "required": ["type"]},
        "then": {
            "properties": {"type": {"const": kind}, **fields},
            "required": ["type", *sorted(set(fields) - OPTIONAL.get(kind, set()))],
            "additionalProperties": False,
        },
    }


MOVE_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Hexland move",
    "type": "object",
    "properties": {"type": {"enum": list(MOVE_TYPES)}},
    "required": ["type"],
    "allOf": [_one_type(kind, fields) for kind, fields in FIELDS.items()],
}
