"""Turning a submitted form into an engine move, at the edge, before the engine sees it.

A move arrives as a JSON ``move`` field (any game) or as the game's own form fields (its
site's ``parse_form``)."""
from __future__ import annotations

import json

from django.http import QueryDict

from games.errors import BadMove
from games.sites import GameSite

MAX_MOVE_CHARS = 8_000  # the largest legal move of any game is well under 1,000 characters


def parse_json_move(data: QueryDict) -> dict:
    text = data.get("move", "")
    if len(text) > MAX_MOVE_CHARS:
        raise BadMove("The move could not be read: it is far too long.")
    try:
        move = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise BadMove("The move could not be read: it must be a JSON object.") from None
    if not isinstance(move, dict):
        raise BadMove("The move could not be read: it must be a JSON object.")
    return move


def parse_move(site: GameSite, data: QueryDict) -> dict:
    if "move" in data or site.parse_form is None:
        return parse_json_move(data)
    return site.parse_form(data)


def parse_version(data: QueryDict) -> int:
    try:
        return int(data.get("version", ""))
    except ValueError:
        raise BadMove("The form is missing the game version it was made for; reload the page.") from None
