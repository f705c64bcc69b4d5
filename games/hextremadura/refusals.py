"""Hextremadura's refusals in the site's words: each English sentence its engine can refuse a move
with (``IllegalMove`` in ``engine/__init__.py`` and ``engine/rules.py``), as a pattern and a
translatable message (``games/refusals.py``). The English messages are the engine's sentences as
players read them."""
from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.refusals import Refusal, RefusalWords


def tile_ids(text: str) -> str:
    """The engine's list of tiles (a Python list, "['T1', 'R2']") as a list a player reads."""
    tiles = re.findall(r"[A-Za-z]+\d+", text)
    if not tiles:
        return text
    if len(tiles) == 1:
        return tiles[0]
    # Translators: the last two items of a list of tiles, as in "T1, T4 and R2".
    return _("%(first)s and %(last)s") % {"first": ", ".join(tiles[:-1]), "last": tiles[-1]}


REFUSALS = RefusalWords(
    Refusal(r"Hextremadura has a single seat, 0", gettext_lazy("Hextremadura has a single seat, 0.")),
    Refusal(r"(?P<key>q|r) must be a whole number",
            # Translators: q and r are the two coordinates of a cell of the map; keep them as they are.
            gettext_lazy("%(key)s must be a whole number.")),
    Refusal(r"rotation must be a whole number", gettext_lazy("Rotation must be a whole number.")),
    Refusal(r"the game is over", gettext_lazy("The game is over.")),
    Refusal(r'a move is \{"type": "place", "tile", "q", "r", "rotation"\}',
            # Translators: the move's technical form; keep the part in braces as it is.
            gettext_lazy('A move is {"type": "place", "tile", "q", "r", "rotation"}.')),
    Refusal(r"tile (?P<tile>.+) is not one of the available tiles (?P<available>.+)",
            gettext_lazy("Tile %(tile)s is not one of the available tiles: %(available)s."),
            {"tile": tile_ids, "available": tile_ids}),
    Refusal(r"rotation must be 0 to 5", gettext_lazy("Rotation must be 0 to 5.")),
    Refusal(r'a river tile is placed with face "a" or "b"',
            gettext_lazy('A river tile is placed with face "a" or "b".')),
    Refusal(r"tile (?P<tile>\S+) shows its front now", gettext_lazy("Tile %(tile)s shows its front now.")),
    Refusal(r"tile (?P<tile>\S+) shows its back now", gettext_lazy("Tile %(tile)s shows its back now.")),
    Refusal(r"cell \((?P<q>-?\d+), (?P<r>-?\d+)\) already holds a tile",
            gettext_lazy("Cell (%(q)s, %(r)s) already holds a tile.")),
    Refusal(r"cell \((?P<q>-?\d+), (?P<r>-?\d+)\) does not touch the map",
            gettext_lazy("Cell (%(q)s, %(r)s) does not touch the map.")),
)
