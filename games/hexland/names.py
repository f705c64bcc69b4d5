"""The players' names as a reader reads them.

The engine names each seat as the room started (``config["names"]``, services.config_at_start)
and its log's sentences use those names. A person's name is the same in every language; an AI
seat's is words ("AI (easy)"), so the pages show it in the reader's language
(``games.ai_names.ai_player``, as the status bar and the seat lists do) whatever the room was
started in. The log is read back with the engine's names and written with the shown ones
(``log_words.log_lines``, ``renamed``).
"""
from __future__ import annotations

from typing import Iterable, Mapping

from games.ai_names import ai_player

# The shown view's names as the engine's log writes them, by seat (only when some differ).
LOGGED_NAMES = "logged_names"


def shown_view(view: Mapping, seats: Iterable) -> Mapping:
    """``view`` with each AI seat named in the active language (GameSite.shown_view); ``view``
    itself when no name changes."""
    ai = {seat.index: ai_player(seat.ai_level) for seat in seats if seat.ai_level}
    players = view.get("players") or []
    if not ai or not any(ai.get(p.get("seat"), p.get("name")) != p.get("name") for p in players):
        return view
    return {**view,
            "players": [{**p, "name": ai[p["seat"]]} if p.get("seat") in ai else p for p in players],
            LOGGED_NAMES: {p.get("seat"): str(p.get("name")) for p in players}}


def shown_view_schema(schema: dict) -> dict:
    """The engine's VIEW_SCHEMA with the field ``shown_view`` may add (GameSite.shown_view_schema)."""
    logged = {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"}, "additionalProperties": {"type": "string"},
              "description": "present when an AI seat's shown name differs from the log's: each seat's name "
                             "as the log writes it, by seat"}
    return {**schema, "properties": {**schema["properties"], LOGGED_NAMES: logged}}


def logged_names(view: Mapping) -> dict:
    """Each seat's name as the engine's log writes it."""
    return view.get(LOGGED_NAMES) or {p.get("seat"): str(p.get("name")) for p in view.get("players") or []}
