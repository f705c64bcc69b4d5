"""JSON Schemas of the API's bodies and answers. Each game's move is its engine's own
``MOVE_SCHEMA`` (games/<game>/engine/schema.py); the settings of a new game come from the
new-game forms (api/new_games.py)."""
from __future__ import annotations

import copy
from functools import cache

from games.move_input import MAX_SAFE_INT
from games.services.chat import MAX_CHARS
from games.sites import offered_sites


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def move_schema_name(kind: str) -> str:
    return f"{kind.capitalize()}Move"


def _embedded(schema: dict) -> dict:
    """An engine's schema as a component: the same, less its ``$schema`` (the document's own
    dialect, OpenAPI 3.1's JSON Schema 2020-12, applies)."""
    schema = copy.deepcopy(schema)
    schema.pop("$schema", None)
    return schema


VERSION = {"type": "integer", "minimum": 0, "maximum": MAX_SAFE_INT}


@cache
def components() -> dict:
    sites = offered_sites()
    moves = {move_schema_name(site.kind): _embedded(site.engine.MOVE_SCHEMA or {"type": "object"}) for site in sites}
    any_move = {"description": "A move of one of the games, as its engine's schema says.",
                "anyOf": [ref(name) for name in moves]}
    return {
        **moves,
        "Move": any_move,
        "Problem": {
            "type": "object", "description": "RFC 9457 problem details, in the token owner's language.",
            "properties": {"type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"},
                           "detail": {"type": "string"},
                           "scope": {"type": "string", "description": "403: the scope the token lacks."},
                           "version": {**VERSION, "description": "409: the game's current version."}},
            "required": ["type", "title", "status", "detail"],
        },
        "Account": {
            "type": "object",
            "properties": {"username": {"type": "string"}, "bot": {"type": "boolean"},
                           "language": {"type": "string", "description": "empty: not chosen (pages follow the browser)"},
                           "ratings": {"type": "object", "additionalProperties": {
                               "type": "object", "properties": {"rating": {"type": "number"}, "mu": {"type": "number"},
                                                                "sigma": {"type": "number"},
                                                                "games": {"type": "integer", "minimum": 0}},
                               "required": ["rating", "mu", "sigma", "games"]}}},
            "required": ["username", "bot", "language", "ratings"], "additionalProperties": False,
        },
        "CreatedGame": {"type": "object", "properties": {"id": {"type": "integer"}, "url": {"type": "string"}},
                        "required": ["id", "url"], "additionalProperties": False},
        "Game": {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "game": {"type": "string", "enum": [site.kind for site in sites]},
                "status": {"type": "string", "enum": ["open", "active", "finished"]},
                "version": VERSION,
                "your_seat": {"type": ["integer", "null"], "minimum": 0,
                              "description": "your seat's index; null: you watch"},
                "to_move": {"type": "boolean"},
                "legal_moves": {"type": "array", "items": ref("Move"),
                                "description": "what you may send now, each as the move endpoint takes it; "
                                               "empty when not to move"},
                "view": {"type": "object", "description": "the engine's view for your seat (or a spectator's): "
                                                          "see docs/<game>.md"},
                "result": {"type": ["object", "null"],
                           "description": "a finished game's scores and ranks, by seat"},
            },
            "required": ["id", "game", "status", "version", "your_seat", "to_move", "legal_moves", "view", "result"],
            "additionalProperties": False,
        },
        "Version": {"type": "object", "properties": {"version": VERSION}, "required": ["version"],
                    "additionalProperties": False},
        "ChatPosted": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"],
                       "additionalProperties": False},
        "Seat": {"type": "object", "properties": {"seat": {"type": "integer", "minimum": 0}}, "required": ["seat"],
                 "additionalProperties": False},
        "Left": {"type": "object", "properties": {"left": {"const": True}}, "required": ["left"],
                 "additionalProperties": False},
    }


def _resolved(schema: dict) -> dict:
    """A body schema that can be checked on its own: its references' components beside it."""
    return {**schema, "$defs": {name: _local(value) for name, value in components().items()}}


def _local(schema):
    """References to components rewritten to the body schema's own ``$defs``."""
    if isinstance(schema, dict):
        return {key: (value.replace("#/components/schemas/", "#/$defs/") if key == "$ref" else _local(value))
                for key, value in schema.items()}
    if isinstance(schema, list):
        return [_local(item) for item in schema]
    return schema


def checkable(schema: dict) -> dict:
    return _local(_resolved(schema))


@cache
def new_game_body() -> dict:
    from api.new_games import NEW_GAMES, settings_schema

    return {
        "type": "object",
        "properties": {
            "game": {"type": "string", "enum": list(NEW_GAMES)},
            "players": {"type": "integer", "minimum": 1, "maximum": 100,
                        "description": "seats, yours and the AI's included (hextension 2-100, hexland 2-4, "
                                       "hextremadura 1)"},
            "ai": {"type": "integer", "minimum": 0, "maximum": 99, "description": "seats played by the AI (the last ones)"},
            **settings_schema(),
        },
        "required": ["game", "players", "ai"],
        "additionalProperties": False,
    }


@cache
def move_body() -> dict:
    return {"type": "object", "properties": {"version": VERSION, "move": ref("Move")},
            "required": ["version", "move"], "additionalProperties": False}


@cache
def chat_body() -> dict:
    return {"type": "object", "properties": {"text": {"type": "string", "minLength": 1, "maxLength": MAX_CHARS}},
            "required": ["text"], "additionalProperties": False}


@cache
def join_body() -> dict:
    return {"type": "object", "properties": {"invite": {"type": "string", "maxLength": 64,
                                                        "description": "a private game's invitation code"}},
            "additionalProperties": False}


@cache
def move_body_checked() -> dict:
    """The move body as the edge checks it: the move's own shape is its game's (games.move_input)."""
    return {**move_body(), "properties": {"version": VERSION, "move": {"type": "object"}}}
