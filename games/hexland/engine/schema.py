"""The shape of a Hexland move, as JSON Schema (a plain dict: the platform checks it at the
edge, before the engine sees the move; see ``games.move_input``).

Per move type, the fields ``rules._FIELDS`` allows and nothing else; ids in range of the board,
resources by name, card counts small. Whether a move is legal now is for the rules.

``VIEW_SCHEMA``: the shape of what ``view.view`` gives a seat or a spectator (the API's OpenAPI
document describes a game's ``view`` with it; a move in its ``legal_moves`` is ``MOVE_SCHEMA``,
under ``$defs``)."""
from __future__ import annotations

from .board import NUM_EDGES, NUM_HEXES, NUM_NODES, RESOURCES, TERRAIN
from .rules import MOVE_TYPES
from .state import BANK_START, DEV_CARDS, PHASES, VICTORY_POINT

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


# --- the view ----------------------------------------------------------------------------------
# What ``view.view`` gives a seat (or a spectator, ``seat`` null), as JSON Schema: every field it
# holds and nothing else (``additionalProperties`` false throughout), so a field added to the
# view without a line here fails the tests that check views against it. Private parts are
# described only where the viewer's own: ``you`` (its hand and development cards) and its
# ``legal_moves``; of the others a view has counts only. Nothing of the deck's order or the
# random stream.

_COUNT = {"type": "integer", "minimum": 0}
_SEAT_OR_NONE = {"oneOf": [_SEAT, {"type": "null"}]}
_NODE_OR_NONE = {"oneOf": [_NODE, {"type": "null"}]}
_RESOURCE_OR_NONE = {"oneOf": [_RESOURCE, {"type": "null"}]}
_PAIR = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}


def _closed(properties: dict, optional: tuple[str, ...] = (), **more) -> dict:
    """An object of exactly these properties (those in ``optional`` may be missing)."""
    return {"type": "object", "properties": properties,
            "required": [name for name in properties if name not in optional],
            "additionalProperties": False, **more}


def _per(names, value: dict) -> dict:
    """An object with one entry per name, each ``value``."""
    return _closed({name: value for name in names})


_CARDS = _per(RESOURCES, {"type": "integer", "minimum": 0, "maximum": BANK_START})
_DEV_COUNTS = _per(DEV_CARDS, _COUNT)

_TOPOLOGY = _closed({
    "hexes": {"type": "array", "minItems": NUM_HEXES, "maxItems": NUM_HEXES, "items": _closed({
        "id": _HEX, "cube": {"type": "array", "items": {"type": "integer"}, "minItems": 3, "maxItems": 3},
        "centre": _PAIR, "nodes": {"type": "array", "items": _NODE, "minItems": 6, "maxItems": 6},
        "edges": {"type": "array", "items": _EDGE, "minItems": 6, "maxItems": 6}})},
    "nodes": {"type": "array", "minItems": NUM_NODES, "maxItems": NUM_NODES, "items": _closed({
        "id": _NODE, "point": _PAIR, "hexes": {"type": "array", "items": _HEX, "minItems": 1, "maxItems": 3},
        "edges": {"type": "array", "items": _EDGE, "minItems": 2, "maxItems": 3}})},
    "edges": {"type": "array", "minItems": NUM_EDGES, "maxItems": NUM_EDGES, "items": _closed({
        "id": _EDGE, "nodes": {"type": "array", "items": _NODE, "minItems": 2, "maxItems": 2}})},
    "lattice": {"type": "string"},
}, description="The island's geometry, the same in every game (board.TOPOLOGY).")

_BOARD = _closed({
    "hexes": {"type": "array", "minItems": NUM_HEXES, "maxItems": NUM_HEXES, "items": _closed({
        "id": _HEX, "terrain": {"enum": list(TERRAIN)}, "resource": _RESOURCE_OR_NONE,
        "number": {"oneOf": [{"type": "integer", "minimum": 2, "maximum": 12}, {"type": "null"}]}})},
    "harbours": {"type": "array", "items": _closed({
        "edge": _EDGE, "nodes": {"type": "array", "items": _NODE, "minItems": 2, "maxItems": 2},
        "resource": {**_RESOURCE_OR_NONE, "description": "null: any resource, 3:1"},
        "rate": {"enum": [2, 3]}})},
}, description="This game's terrain, number tokens and harbours.")

_PLAYER = _closed({
    "seat": _SEAT,
    "name": {"type": "string"},
    "vp": {**_COUNT, "description": "public points (victory point cards only once over)"},
    "hand_size": _COUNT,
    "dev_cards": {**_COUNT, "description": "how many development cards it holds"},
    "knights": _COUNT,
    "road_length": _COUNT,
    "longest_road": {"type": "boolean"},
    "largest_army": {"type": "boolean"},
    "pieces": _closed({"settlements": _COUNT, "cities": _COUNT, "roads": _COUNT},
                      description="pieces left to build"),
    "rates": _per(RESOURCES, {"type": "integer", "minimum": 2, "maximum": 4}),
    "auto_pair": {"oneOf": [{"type": "array", "prefixItems": [_NODE, _EDGE], "minItems": 2, "maxItems": 2},
                            {"type": "null"}],
                  "description": "the settlement and road a timeout placed, while they may be moved"},
    "vp_cards": {**_COUNT, "description": "once over"},
    "total_vp": {**_COUNT, "description": "once over"},
}, optional=("vp_cards", "total_vp"))

_OFFER = _closed({
    "from": _SEAT,
    "give": _CARDS,
    "get": _CARDS,
    "answers": {"type": "array", "items": {"enum": ["pending", "accepted", "declined", None]},
                "description": "by seat; null: the offerer"},
})

_YOU = _closed({
    "hand": _CARDS,
    "dev_cards": _DEV_COUNTS,
    "new_dev_cards": {**_DEV_COUNTS, "description": "bought this turn (not playable yet)"},
    "vp": {**_COUNT, "description": "with your victory point cards"},
    "dev_played": {"type": "boolean"},
}, description="A seat's own view only: its cards.")

VIEW_SCHEMA: dict = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Hexland view",
    "$defs": {"move": {key: value for key, value in MOVE_SCHEMA.items() if key != "$schema"}},
    **_closed({
        "game": {"const": "hexland"},
        "seat": {**_SEAT_OR_NONE, "description": "the viewer's seat; null: a spectator"},
        "phase": {"enum": list(PHASES)},
        "turn": _COUNT,
        "current": _SEAT,
        "actors": {"type": "array", "items": _SEAT},
        "timer": {"oneOf": [{"enum": ["setup", "turn", "discard"]}, {"type": "null"}]},
        "timer_seconds": _per(("setup", "turn", "discard"), {"type": "integer", "minimum": 1}),
        "order": {"type": "array", "items": _SEAT, "minItems": 2, "maxItems": MAX_PLAYERS},
        "vp_to_win": {"type": "integer", "minimum": 1},
        "dice": {"oneOf": [{"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 6},
                            "minItems": 2, "maxItems": 2}, {"type": "null"}]},
        "topology": _TOPOLOGY,
        "board": _BOARD,
        "robber": _HEX,
        "buildings": {"type": "array", "items": _closed({"node": _NODE, "seat": _SEAT,
                                                          "kind": {"enum": ["settlement", "city"]}})},
        "roads": {"type": "array", "items": _closed({"edge": _EDGE, "seat": _SEAT})},
        "bank": _CARDS,
        "deck_size": _COUNT,
        "players": {"type": "array", "items": _PLAYER, "minItems": 2, "maxItems": MAX_PLAYERS},
        "longest_road": _SEAT_OR_NONE,
        "largest_army": _SEAT_OR_NONE,
        "discards": {"type": "array", "items": _COUNT, "description": "cards owed, by seat"},
        "offer": {"oneOf": [_OFFER, {"type": "null"}]},
        "free_roads": _COUNT,
        "setup_node": _NODE_OR_NONE,
        "winner": _SEAT_OR_NONE,
        "log_length": _COUNT,
        "roll_counts": {"oneOf": [_per([str(total) for total in range(2, 13)], _COUNT), {"type": "null"}],
                        "description": "once over: how often each total was rolled"},
        "log": {"type": "array", "items": {"type": "string"},
                "description": "the log in words, as the viewer may read it"},
        "you": _YOU,
        "legal_moves": {"type": "array", "items": {"$ref": "#/$defs/move"},
                        "description": "the viewer's moves now (empty for a spectator)"},
    }, optional=("you",)),
    # A seat sees its own cards and moves; a spectator neither.
    "if": {"properties": {"seat": {"type": "null"}}},
    "then": {"not": {"required": ["you"]}, "properties": {"legal_moves": {"maxItems": 0}}},
    "else": {"required": ["you"]},
}
