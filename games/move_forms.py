"""Turning a submitted form into an engine move. Each game may add its own parser."""
from __future__ import annotations

import json
from typing import Callable

from django.http import QueryDict

from games.errors import BadMove

MoveParser = Callable[[QueryDict], dict]
_PARSERS: dict[str, MoveParser] = {}
MAP_REACH = 40  # Hextremadura: no map of 18 tiles reaches further from the first tile


def register(kind: str) -> Callable[[MoveParser], MoveParser]:
    def decorate(parser: MoveParser) -> MoveParser:
        _PARSERS[kind] = parser
        return parser

    return decorate


def parse_json_move(data: QueryDict) -> dict:
    text = data.get("move", "")
    try:
        move = json.loads(text)
    except (TypeError, ValueError):
        raise BadMove("The move could not be read: it must be a JSON object.") from None
    if not isinstance(move, dict):
        raise BadMove("The move could not be read: it must be a JSON object.")
    return move


def parse_move(kind: str, data: QueryDict) -> dict:
    return _PARSERS.get(kind, parse_json_move)(data)


def parse_version(data: QueryDict) -> int:
    try:
        return int(data.get("version", ""))
    except ValueError:
        raise BadMove("The form is missing the game version it was made for; reload the page.") from None


@register("hextension")
def parse_hextension_move(data: QueryDict) -> dict:
    """The placement form: one ``cell_<tile>`` field per drawn tile (a JSON ``move`` also works)."""
    if "move" in data:
        return parse_json_move(data)
    placements = {key[len("cell_"):]: value for key, value in data.items() if key.startswith("cell_")}
    if not placements or not all(placements.values()):
        raise BadMove("Choose a cell for every tile of this round.")
    return {"type": "place", "placements": placements}


@register("hextremadura")
def parse_hextremadura_move(data: QueryDict) -> dict:
    """The placement form: tile, cell (q, r), rotation and, for a river tile, its face."""
    if "move" in data:
        return parse_json_move(data)
    try:
        if data.get("cell"):  # one "q,r" select
            q, r = (int(part) for part in data["cell"].split(","))
        else:
            q, r = int(data["q"]), int(data["r"])
        move = {"type": "place", "tile": data["tile"], "q": q, "r": r, "rotation": int(data.get("rotation", 0))}
    except (KeyError, ValueError):
        raise BadMove("Choose a tile, a cell and a rotation.") from None
    if max(abs(q), abs(r)) > MAP_REACH:
        raise BadMove("That cell is far off the map.")
    if data.get("face"):
        move["face"] = data["face"]
    return move
