"""Hextremadura's words as players read them: the engine names terrains, icons, faces, ratings,
quests and objectives by English codes ("forest", "stork", "back", "very good"); the pages show
them through these tables, in the active language. A code no table knows is shown as a general
word, never as the engine's English."""
from __future__ import annotations

from typing import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

KIND_NAMES = {
    "forest": pgettext_lazy("terrain", "forest"),
    "water": pgettext_lazy("terrain", "water"),
    "crops": pgettext_lazy("terrain", "crops"),
}

# One letter for each kind, drawn in a requirement bubble and in a face's list of spaces.
KIND_LETTERS = {
    # Translators: one letter standing for "forest" on the map; different from the letters of water and crops.
    "forest": pgettext_lazy("forest, one letter", "F"),
    # Translators: one letter standing for "water" on the map; different from the letters of forest and crops.
    "water": pgettext_lazy("water, one letter", "W"),
    # Translators: one letter standing for "crops" on the map; different from the letters of forest and water.
    "crops": pgettext_lazy("crops, one letter", "C"),
}

ICON_NAMES = {
    "acorn": pgettext_lazy("icon", "acorn"),
    "stork": pgettext_lazy("icon", "stork"),
    "monument": pgettext_lazy("icon", "monument"),
}

ICON_LETTERS = {
    # Translators: one letter standing for "acorn" on the map; different from the letters of stork and monument.
    "acorn": pgettext_lazy("acorn, one letter", "A"),
    # Translators: one letter standing for "stork" on the map; different from the letters of acorn and monument.
    "stork": pgettext_lazy("stork, one letter", "S"),
    # Translators: one letter standing for "monument" on the map; different from the letters of acorn and stork.
    "monument": pgettext_lazy("monument, one letter", "M"),
}

# Sides of a hexagon, counter-clockwise from east (the engine's DIRECTION_NAMES).
SIDE_NAMES = (
    # Translators: compass abbreviations of a hexagon's six sides.
    pgettext_lazy("compass", "E"), pgettext_lazy("compass", "NE"), pgettext_lazy("compass", "NW"),
    pgettext_lazy("compass", "W"), pgettext_lazy("compass", "SW"), pgettext_lazy("compass", "SE"),
)

# A terrain tile's two faces; a river tile's faces are named "a" and "b", kept as they are.
FACE_NAMES = {
    "front": pgettext_lazy("tile face", "front"),
    "back": pgettext_lazy("tile face", "back"),
}

# The rulebook's ratings (engine.rules.rating).
RATING_NAMES = {
    "keep exploring": pgettext_lazy("rating", "keep exploring"),
    "good": pgettext_lazy("rating", "good"),
    "very good": pgettext_lazy("rating", "very good"),
    "excellent": pgettext_lazy("rating", "excellent"),
    "perfect": pgettext_lazy("rating", "perfect"),
}

QUEST_NAMES = {
    # Translators: the quests are named after places in Extremadura; their names are usually kept.
    "monfrague": gettext_lazy("Monfragüe"),
    "garganta": gettext_lazy("Garganta de los Infiernos"),
    "barruecos": gettext_lazy("Los Barruecos"),
}

# Objectives by family and arguments (engine/tiles.py, Objective.describe): each a whole phrase,
# so that a translation can agree its words.
_TRIO = {
    "forest": gettext_lazy("a forest terrain holding an acorn, a stork and a monument"),
    "water": gettext_lazy("a water terrain holding an acorn, a stork and a monument"),
    "crops": gettext_lazy("a crops terrain holding an acorn, a stork and a monument"),
}
_TRIAD = {
    "acorn": gettext_lazy("a forest, a water and a crops terrain, pairwise adjacent, each holding an acorn"),
    "stork": gettext_lazy("a forest, a water and a crops terrain, pairwise adjacent, each holding a stork"),
    "monument": gettext_lazy("a forest, a water and a crops terrain, pairwise adjacent, each holding a monument"),
}
_SCATTER = {
    ("forest", "acorn"): gettext_lazy("three forest terrains each holding an acorn"),
    ("forest", "stork"): gettext_lazy("three forest terrains each holding a stork"),
    ("forest", "monument"): gettext_lazy("three forest terrains each holding a monument"),
    ("water", "acorn"): gettext_lazy("three water terrains each holding an acorn"),
    ("water", "stork"): gettext_lazy("three water terrains each holding a stork"),
    ("water", "monument"): gettext_lazy("three water terrains each holding a monument"),
    ("crops", "acorn"): gettext_lazy("three crops terrains each holding an acorn"),
    ("crops", "stork"): gettext_lazy("three crops terrains each holding a stork"),
    ("crops", "monument"): gettext_lazy("three crops terrains each holding a monument"),
}
# A pair's two icons in either order.
_PAIR = {
    ("acorn", "acorn"): gettext_lazy("two adjacent terrains, one holding an acorn and the other an acorn"),
    ("stork", "stork"): gettext_lazy("two adjacent terrains, one holding a stork and the other a stork"),
    ("monument", "monument"): gettext_lazy("two adjacent terrains, one holding a monument and the other a monument"),
    ("acorn", "stork"): gettext_lazy("two adjacent terrains, one holding an acorn and the other a stork"),
    ("acorn", "monument"): gettext_lazy("two adjacent terrains, one holding an acorn and the other a monument"),
    ("monument", "stork"): gettext_lazy("two adjacent terrains, one holding a stork and the other a monument"),
}

# A requirement by kind (engine/tiles.py, Requirement; rules: "needs n of a kind at a side").
_NEEDS = {
    "forest": gettext_lazy("needs %(n)s forest at side %(side)s (%(direction)s)"),
    "water": gettext_lazy("needs %(n)s water at side %(side)s (%(direction)s)"),
    "crops": gettext_lazy("needs %(n)s crops at side %(side)s (%(direction)s)"),
}


def _word(table: Mapping, code) -> str:
    word = table.get(code) if isinstance(code, str) else None
    return str(word) if word is not None else _("unknown")


def kind_name(kind) -> str:
    return _word(KIND_NAMES, kind)


def kind_letter(kind) -> str:
    return _word(KIND_LETTERS, kind)


def icon_name(icon) -> str:
    return _word(ICON_NAMES, icon)


def icon_letter(icon) -> str:
    return _word(ICON_LETTERS, icon)


def side_name(side: int) -> str:
    return str(SIDE_NAMES[side % 6])


def face_name(face) -> str:
    """A face by its name: "front" and "back" in words, a river tile's "a" and "b" as they are."""
    if face in FACE_NAMES:
        return str(FACE_NAMES[face])
    return face if face in ("a", "b") else _("unknown")


def rating_name(rating) -> str:
    return _word(RATING_NAMES, rating)


def quest_name(key) -> str:
    return _word(QUEST_NAMES, key)


def objective_phrase(objective: Mapping) -> str:
    """An objective (a view's ``objective``: family, kind, icons) as a phrase, in lower case."""
    family, kind = objective.get("family"), objective.get("kind")
    icons = [icon for icon in objective.get("icons") or () if isinstance(icon, str)]
    phrase = None
    if family == "trio":
        phrase = _TRIO.get(kind)
    elif family == "triad" and icons:
        phrase = _TRIAD.get(icons[0])
    elif family == "scatter" and icons:
        phrase = _SCATTER.get((kind, icons[0]))
    elif family == "pair" and len(icons) == 2:
        phrase = _PAIR.get(tuple(sorted(icons)))
    return str(phrase) if phrase is not None else _("an objective")


def requirement_phrase(kind, n: int, side: int) -> str:
    """ "needs 6 forest at side 1 (NE)" """
    needs = _NEEDS.get(kind)
    if needs is None:
        return _("unknown")
    return str(needs) % {"n": n, "side": side, "direction": side_name(side)}
