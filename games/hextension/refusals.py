"""Hextension's refusals in the site's words: each English sentence its engine can refuse a move
with (``IllegalMove`` in ``engine/rules.py``), as a pattern and a translatable message
(``games/refusals.py``). The English messages are the engine's sentences as players read them."""
from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.refusals import Refusal, RefusalWords


def tile_list(text: str) -> str:
    """The engine's list of tiles ("174, 963 and 521") joined in the active language."""
    tiles = [tile for tile in re.split(r",\s*|\s+and\s+", text.strip()) if tile]
    if len(tiles) < 2:
        return text.strip()
    # Translators: the last two items of a list of tiles, as in "174, 963 and 521".
    return _("%(first)s and %(last)s") % {"first": ", ".join(tiles[:-1]), "last": tiles[-1]}


_TILES = {"tiles": tile_list}

REFUSALS = RefusalWords(
    Refusal(r"The game is over", gettext_lazy("The game is over.")),
    Refusal(r"There is no seat (?P<seat>.+) in this game", gettext_lazy("There is no seat %(seat)s in this game.")),
    Refusal(r"Seat (?P<seat>\d+) is out of the game after (?P<rounds>\d+) rounds without a move",
            gettext_lazy("Seat %(seat)s is out of the game after %(rounds)s rounds without a move.")),
    Refusal(r"Say where each tile of this round goes: (?P<tiles>.+)",
            gettext_lazy("Say where each tile of this round goes: %(tiles)s."), _TILES),
    Refusal(r"There is no tile (?P<tile>.+); a tile is named by its values on \|, / and \\, like 174",
            gettext_lazy("There is no tile %(tile)s; a tile is named by its values on |, / and \\, like 174.")),
    Refusal(r"Tile (?P<tile>\S+) is already on your board, at (?P<cell>\S+)",
            gettext_lazy("Tile %(tile)s is already on your board, at %(cell)s.")),
    Refusal(r"Tile (?P<tile>\S+) was not drawn this round; this round's tiles are (?P<tiles>.+)",
            gettext_lazy("Tile %(tile)s was not drawn this round; this round's tiles are %(tiles)s."), _TILES),
    Refusal(r"There is no cell (?P<cell>.+); cells run A1–A3, B1–B4, C1–C5, D1–D4, E1–E3",
            gettext_lazy("There is no cell %(cell)s; cells run A1–A3, B1–B4, C1–C5, D1–D4, E1–E3.")),
    Refusal(r"(?P<cell>\S+) already holds tile (?P<tile>\S+)", gettext_lazy("%(cell)s already holds tile %(tile)s.")),
    Refusal(r"Tiles (?P<first>\S+) and (?P<second>\S+) cannot both go on (?P<cell>\S+)",
            gettext_lazy("Tiles %(first)s and %(second)s cannot both go on %(cell)s.")),
    Refusal(r"Place every tile of this round in one move: (?P<tiles>\S+) is missing",
            gettext_lazy("Place every tile of this round in one move: %(tiles)s is missing.")),
    Refusal(r"Place every tile of this round in one move: (?P<tiles>.+) are missing",
            gettext_lazy("Place every tile of this round in one move: %(tiles)s are missing."), _TILES),
    Refusal(r'Hextension knows one move: \{"type": "place", "placements": \{tile: cell, …\}\}',
            # Translators: the move's technical form; keep the part in braces as it is.
            gettext_lazy('Hextension knows one move: {"type": "place", "placements": {tile: cell, …}}.')),
)
