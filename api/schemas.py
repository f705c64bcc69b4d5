"""JSON Schemas of the API's bodies and answers. Each game's move is its engine's own
``MOVE_SCHEMA`` and its view its engine's ``VIEW_SCHEMA`` (games/<game>/engine/schema.py; as the
game's site shows it, ``GameSite.view_schema``); the settings of a new game come from the
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


def view_schema_name(kind: str) -> str:
    return f"{kind.capitalize()}View"


def _embedded(schema: dict) -> dict:
    """An engine's schema as a component: the same, less its ``$schema`` (the document's own
    dialect, OpenAPI 3.1's JSON Schema 2020-12, applies)."""
    schema = copy.deepcopy(schema)
    schema.pop("$schema", None)
    return schema


def _embedded_view(kind: str, schema: dict, moves: dict) -> tuple[dict, dict]:
    """An engine's view schema as a component, and the components its ``$defs`` become: a
    definition equal to the game's move is that move's component, any other is a component of
    its own (``<Kind>View<Name>``). A ``#/$defs/…`` reference inside a component would point
    into the document's root, so each is rewritten to the component."""
    schema = _embedded(schema)
    hoisted, names = {}, {}
    for name, definition in schema.pop("$defs", {}).items():
        move = move_schema_name(kind)
        if moves.get(move) == definition:
            names[name] = move
        else:
            names[name] = f"{view_schema_name(kind)}{name[:1].upper()}{name[1:]}"
            hoisted[names[name]] = definition

    def rewritten(value):
        if isinstance(value, dict):
            target = value.get("$ref")
            if isinstance(target, str) and target.startswith("#/$defs/"):
                return {**value, **ref(names[target.removeprefix("#/$defs/")])}
            return {key: rewritten(item) for key, item in value.items()}
        if isinstance(value, list):
            return [rewritten(item) for item in value]
        return value

    return rewritten(schema), {name: rewritten(definition) for name, definition in hoisted.items()}


# The view of a game that has not started: nothing yet.
NO_VIEW = {"type": "object", "maxProperties": 0, "description": "an open game's: nothing to see before the start"}

VERSION = {"type": "integer", "minimum": 0, "maximum": MAX_SAFE_INT}


@cache
def components() -> dict:
    sites = offered_sites()
    moves = {move_schema_name(site.kind): _embedded(site.engine.MOVE_SCHEMA or {"type": "object"}) for site in sites}
    any_move = {"description": "A move of one of the games, as its engine's schema says.",
                "anyOf": [ref(name) for name in moves]}
    views, view_parts = {}, {}
    for site in sites:
        schema = site.view_schema()
        if schema is not None:
            views[site.kind], parts = _embedded_view(site.kind, schema, moves)
            view_parts.update(parts)
    return {
        **moves,
        "Move": any_move,
        **{view_schema_name(kind): schema for kind, schema in views.items()},
        **view_parts,
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
                "view": {"description": "the engine's view for your seat (or a spectator's), as the "
                                        "game's schema says (the one its `game` names; docs/<game>.md); "
                                        "an open game's is empty",
                         # A game whose engine declares no view schema: any object.
                         "anyOf": [*(ref(view_schema_name(kind)) for kind in views), NO_VIEW,
                                   *([] if len(views) == len(sites) else [{"type": "object"}])]},
                "result": {"type": ["object", "null"],
                           "description": "a finished game's scores and ranks, by seat"},
            },
            "required": ["id", "game", "status", "version", "your_seat", "to_move", "legal_moves", "view", "result"],
            "additionalProperties": False,
            # Each game's view is its own: the one `game` names.
            "allOf": [{"if": {"properties": {"game": {"const": kind}}},
                       "then": {"properties": {"view": {"anyOf": [ref(view_schema_name(kind)), NO_VIEW]}}}}
                      for kind in views],
        },
        "Version": {"type": "object", "properties": {"version": VERSION}, "required": ["version"],
                    "additionalProperties": False},
        "Suggestion": {"type": "object", "properties": {"version": VERSION, "move": ref("Move")},
                       "required": ["version", "move"], "additionalProperties": False},
        "ChatPosted": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"],
                       "additionalProperties": False},
        "Seat": {"type": "object", "properties": {"seat": {"type": "integer", "minimum": 0}}, "required": ["seat"],
                 "additionalProperties": False},
        "Left": {"type": "object", "properties": {"left": {"const": True}}, "required": ["left"],
                 "additionalProperties": False},
        **league_components(),
        **invitation_components(),
    }


def _closed(properties: dict, description: str = "") -> dict:
    """An answer object with exactly these fields, every one always present."""
    found = {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}
    return {"description": description, **found} if description else found


def league_components() -> dict:
    """The shapes of the league endpoints (api/leagues.py)."""
    from games.leagues.models import League, LeagueEntry

    when = {"type": "string", "format": "date-time"}
    maybe_when = {"type": ["string", "null"], "format": "date-time"}
    number = {"type": "number"}
    count = {"type": "integer", "minimum": 0}
    statuses = {"type": "string", "enum": list(League.Status.values),
                "description": "enrolling (taking entries), running, paused or finished"}
    summary = {
        "id": {"type": "integer"}, "name": {"type": "string"}, "organiser": {"type": "string"},
        "status": statuses, "entry": {"type": "string", "enum": list(League.Entry.values)},
        "private": {"type": "boolean", "description": "entry by invitation only: read by those in it"},
        "starts_at": when, "url": {"type": "string", "description": "the league's page"},
    }
    return {
        "LeagueSummary": _closed(summary),
        "LeaguePage": _closed({
            "leagues": {"type": "array", "items": ref("LeagueSummary")},
            "page": {"type": "integer", "minimum": 1}, "pages": {"type": "integer", "minimum": 1},
            "count": count, "next_page": {"type": ["integer", "null"], "description": "null: the last page"},
        }, "The leagues you may read, newest start first, 25 a page."),
        "League": _closed({
            **summary,
            "description": {"type": "string"},
            "settings": _closed({name: {key: value for key, value in league_body()["properties"][name].items()
                                        if key != "default"} for name in league_settings_names()},
                                "The new-league form's settings (POST /leagues takes them)."),
            "you": _closed({"organiser": {"type": "boolean", "description": "you may run it (organise scope)"},
                            "entry": {"type": ["string", "null"], "enum": [*LeagueEntry.Status.values, None],
                                      "description": "your entry's status; null: none"}}),
            "seasons": {"type": "array", "items": ref("SeasonSummary"),
                        "description": "a league runs one season, number 1"},
            "announcements": {"type": "array", "items": ref("Announcement"), "description": "the last 10, newest first"},
        }),
        "SeasonSummary": _closed({"number": {"type": "integer", "minimum": 1}, "status": statuses,
                                  "started_at": maybe_when}),
        "Season": _closed({
            "league": {"type": "integer"}, "number": {"type": "integer", "minimum": 1}, "status": statuses,
            "started_at": {**maybe_when, "description": "when its first game opened; null: not started"},
            "games": {"type": "array", "items": ref("SeasonGame")},
            "standings": ref("Standings"),
        }),
        "SeasonGame": _closed({
            "id": {"type": "integer"}, "number": {"type": "integer", "description": "the game's number in the season"},
            "title": {"type": "string"}, "status": {"type": "string", "enum": ["open", "active", "finished"]},
            "paused": {"type": "boolean"}, "deadline_at": {**maybe_when, "description": "the running round's"},
            "url": {"type": "string", "description": "the game's page; GET /games/{id} reads it"},
        }),
        "Standings": _closed({
            "games": {"type": "array", "items": {"type": "integer"},
                      "description": "the numbers of the finished games, the columns of `scores`"},
            "rows": {"type": "array", "items": ref("StandingRow")},
        }, "As the league page's table: match points (1 a player outscored, ½ a tie), then total score, then "
           "best game; seats the AI played have rows of their own."),
        "StandingRow": _closed({
            "rank": {"type": "integer", "minimum": 1}, "name": {"type": "string"},
            "username": {"type": ["string", "null"], "description": "null: a seat the AI played"},
            "ai": {"type": "boolean"},
            "scores": {"type": "array", "items": {"type": ["integer", "null"]},
                       "description": "by the finished games' numbers; null: did not play it"},
            "match_points": number, "percentage": number, "total_score": {"type": "integer"},
            "best_game": {"type": "integer"}, "nmrs": count, "times_out": count,
        }),
        "Entries": _closed({"entries": {"type": "array", "items": ref("Entry")}},
                           "The organiser sees every entry; anyone else the players and their own entry."),
        "Entry": _closed({"id": {"type": "integer"}, "player": {"type": "string"}, "bot": {"type": "boolean"},
                          "status": {"type": "string", "enum": list(LeagueEntry.Status.values)},
                          "created_at": when}),
        "Announcement": _closed({"id": {"type": "integer"}, "author": {"type": "string"}, "text": {"type": "string"},
                                 "created_at": when}),
        "Handover": _closed({"seats": {**count, "description": "seats handed over in unfinished games"}}),
        "Extended": _closed({"game": {"type": "integer"}, "deadline_at": when}),
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


# The new-league form's fields that are not its settings (the rest are: ``League.settings``).
LEAGUE_FIELDS_NOT_SETTINGS = ("name", "description", "entry", "starts_at")
LEAGUE_DEFAULTS_REQUIRED = ("name", "starts_at")


def _league_field_schema(field) -> dict:
    """A JSON Schema for one of the new-league form's fields, with the page's default."""
    from django import forms

    from api.new_games import field_schema

    if isinstance(field, forms.BooleanField):
        schema = {"type": "boolean"}
    elif isinstance(field, forms.DateTimeField):
        schema = {"type": "string", "format": "date-time", "maxLength": 40,
                  "description": "ISO 8601, with its offset (without one: UTC)"}
    elif isinstance(field, forms.CharField) and field.max_length is None:
        schema = {"type": "string"}
    else:
        schema = field_schema(field)
    if isinstance(field, forms.CharField) and field.required:
        schema = {**schema, "minLength": 1}
    initial = field.initial() if callable(field.initial) else field.initial
    return {**schema, "default": initial} if initial not in (None, "") else schema


def league_settings_names() -> list[str]:
    from games.leagues.forms import LeagueForm

    return [name for name in LeagueForm.base_fields if name not in LEAGUE_FIELDS_NOT_SETTINGS]


@cache
def league_body() -> dict:
    """A new league: the new-league page's form (games/leagues/forms.py), by its fields' names,
    each with the page's default but the name and the start."""
    from games.leagues.forms import LeagueForm

    return {"type": "object",
            "properties": {name: _league_field_schema(field) for name, field in LeagueForm.base_fields.items()},
            "required": list(LEAGUE_DEFAULTS_REQUIRED), "additionalProperties": False}


@cache
def extend_body() -> dict:
    return {"type": "object", "properties": {"game": {"type": "integer", "minimum": 1, "maximum": MAX_SAFE_INT},
                                             "hours": {"type": "integer", "minimum": 1, "maximum": 14 * 24}},
            "required": ["game", "hours"], "additionalProperties": False}


USERNAME = {"type": "string", "minLength": 1, "maxLength": 150, "pattern": r"\S", "description": "a username"}


@cache
def replace_body() -> dict:
    return {"type": "object", "properties": {"player": USERNAME, "replacement": USERNAME},
            "required": ["player", "replacement"], "additionalProperties": False}


@cache
def remove_body() -> dict:
    return {"type": "object", "properties": {"player": USERNAME}, "required": ["player"],
            "additionalProperties": False}


@cache
def announcement_body() -> dict:
    return {"type": "object", "properties": {"text": {"type": "string", "minLength": 1, "maxLength": 4000}},
            "required": ["text"], "additionalProperties": False}


def invitation_components() -> dict:
    """An invitation addressed to the token's user (api/invitations.py, games/services/invitations.py)."""
    target_game = {"type": "object", "properties": {"id": {"type": "integer"}, "game": {"type": "string"},
                                                    "version": VERSION, "title": {"type": "string"}},
                   "required": ["id", "game", "version", "title"], "additionalProperties": False}
    target_league = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                                                      "game": {"type": "string", "description": "the game its seasons play"}},
                     "required": ["id", "name", "game"], "additionalProperties": False}
    status = {"type": "string", "enum": ["pending", "accepted", "declined", "cancelled", "expired"]}
    return {
        "Invitation": {
            "type": "object", "description": "To a game (`game`) or to a league (`league`), never both.",
            "properties": {"id": {"type": "integer"}, "status": status, "game": target_game, "league": target_league,
                           "from": {"type": "string", "description": "the inviter's username"},
                           "from_bot": {"type": "boolean"}, "to": {"type": "string", "description": "the invited username"},
                           "created": {"type": "string", "format": "date-time"}},
            "required": ["id", "status", "from", "from_bot", "to", "created"], "additionalProperties": False,
            "oneOf": [{"required": ["game"]}, {"required": ["league"]}],
        },
        "Invitations": {"type": "object", "properties": {"invitations": {"type": "array", "items": ref("Invitation")}},
                        "required": ["invitations"], "additionalProperties": False},
        "InvitationAccepted": {
            "type": "object",
            "properties": {"invitation": ref("Invitation"),
                           "seat": {"type": ["integer", "null"], "minimum": 0,
                                    "description": "a game's: your seat; a league's: null"},
                           "entry": {"type": ["string", "null"], "enum": ["approved", "pending", None],
                                     "description": "a league's: your entry (pending: waiting for approval); "
                                                    "a game's: null"}},
            "required": ["invitation", "seat", "entry"], "additionalProperties": False,
        },
    }


@cache
def invite_body() -> dict:
    return {"type": "object", "properties": {"username": {**USERNAME, "description": "who you invite"}},
            "required": ["username"], "additionalProperties": False}
