"""The placement form without JavaScript: tile, cell (q, r), rotation and a river tile's face."""
from __future__ import annotations

from django.http import QueryDict
from django.utils.translation import gettext as _

from games.errors import BadMove


def parse_placement(data: QueryDict) -> dict:
    """The move the form asks for (the schema at the edge checks its ranges)."""
    try:
        if data.get("cell"):  # one "q,r" select
            q, r = (int(part) for part in data["cell"].split(","))
        else:
            q, r = int(data["q"]), int(data["r"])
        move = {"type": "place", "tile": data["tile"], "q": q, "r": r, "rotation": int(data.get("rotation", 0))}
    except (KeyError, ValueError):
        raise BadMove(_("Choose a tile, a cell and a rotation.")) from None
    if data.get("face"):
        move["face"] = data["face"]
    return move
