"""The Hextremadura tile set, kept as data.

The rulebook describes the 15 terrain tiles and 3 river tiles but does not draw them; the
faces below are this project's own design (``docs/hextremadura.md`` explains the choices).

Notation: a face's six spaces are a string over ``F`` (forest), ``W`` (water) and ``C``
(crops), space ``i`` first (space ``i`` touches side ``i``: 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE).
A requirement is ``(kind, n, side)``. Icons are ``{space: icon}`` with ``A`` acorn (flora),
``S`` stork (fauna), ``M`` monument. Objectives are ``(family, *arguments)``:

- ``("trio", K)``: a terrain of kind K holding all three icons;
- ``("triad", I)``: a forest, a water and a crops terrain, pairwise adjacent, each holding I;
- ``("scatter", K, I)``: three different terrains of kind K, each holding I;
- ``("pair", I, J)``: two adjacent terrains, one holding I and the other J.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

FOREST, WATER, CROPS = 0, 1, 2
KINDS = ("forest", "water", "crops")
KIND_LETTERS = "FWC"
ACORN, STORK, MONUMENT = 0, 1, 2
ICONS = ("acorn", "stork", "monument")
ICON_LETTERS = "ASM"
#: An icon's contribution to a terrain's packed icon counts (one byte per icon kind).
ICON_UNIT = (1, 1 << 8, 1 << 16)

FRONT, BACK = "front", "back"
RIVER_FACES = ("a", "b")


def icon_count(packed: int, icon: int) -> int:
    return (packed >> (8 * icon)) & 0xFF


def icon_mask(packed: int) -> int:
    """Bit ``i`` set when the packed counts hold icon ``i`` at least once."""
    return (1 if packed & 0xFF else 0) | (2 if packed & 0xFF00 else 0) | (4 if packed & 0xFF0000 else 0)


@dataclass(frozen=True)
class Requirement:
    kind: int
    n: int
    side: int

    def describe(self) -> str:
        return f"{self.n}+ {KINDS[self.kind]}"


def _with_article(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


@dataclass(frozen=True)
class Objective:
    family: str  # trio | triad | scatter | pair
    kind: int | None = None
    icons: tuple[int, ...] = ()

    def describe(self) -> str:
        names = [_with_article(ICONS[i]) for i in self.icons]
        if self.family == "trio":
            return f"a {KINDS[self.kind]} terrain holding an acorn, a stork and a monument"
        if self.family == "triad":
            return f"a forest, a water and a crops terrain, pairwise adjacent, each holding {names[0]}"
        if self.family == "scatter":
            return f"three {KINDS[self.kind]} terrains each holding {names[0]}"
        return f"two adjacent terrains, one holding {names[0]} and the other {names[1]}"

    def to_json(self) -> dict:
        out: dict = {"family": self.family, "text": self.describe()}
        if self.kind is not None:
            out["kind"] = KINDS[self.kind]
        out["icons"] = [ICONS[i] for i in self.icons]
        return out


@dataclass(frozen=True)
class Oriented:
    """A face turned by a rotation: everything indexed by the map's own sides and spaces."""

    spaces: tuple[int, ...]
    requirements: tuple[Requirement, ...]
    icons: tuple[int, ...]  # packed icon units per space (0 = none)


@dataclass(frozen=True)
class Face:
    name: str
    spaces: tuple[int, ...]
    requirements: tuple[Requirement, ...] = ()
    icons: tuple[tuple[int, int], ...] = ()  # (space, icon)
    objective: Objective | None = None
    oriented: tuple[Oriented, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        turned = []
        for k in range(6):
            spaces = tuple(self.spaces[(j - k) % 6] for j in range(6))
            reqs = tuple(Requirement(r.kind, r.n, (r.side + k) % 6) for r in self.requirements)
            icons = [0] * 6
            for space, icon in self.icons:
                icons[(space + k) % 6] += ICON_UNIT[icon]
            turned.append(Oriented(spaces, reqs, tuple(icons)))
        object.__setattr__(self, "oriented", tuple(turned))

    @cached_property
    def symmetry(self) -> int:
        """The smallest rotation that leaves the face unchanged (6 when none does)."""
        for k in (1, 2, 3):
            if 6 % k == 0 and self.oriented[k] == self.oriented[0]:
                return k
        return 6

    def to_json(self, rotation: int = 0) -> dict:
        o = self.oriented[rotation % 6]
        out: dict = {"face": self.name, "spaces": [KINDS[k] for k in o.spaces]}
        if self.requirements:
            out["requirements"] = [
                {"kind": KINDS[r.kind], "n": r.n, "side": r.side} for r in o.requirements
            ]
        if self.icons:
            out["icons"] = [
                {"space": (space + rotation) % 6, "icon": ICONS[icon]} for space, icon in self.icons
            ]
        if self.objective is not None:
            out["objective"] = self.objective.to_json()
        return out


@dataclass(frozen=True)
class Tile:
    id: str
    river: bool
    faces: dict[str, Face]


def _spaces(text: str) -> tuple[int, ...]:
    assert len(text) == 6, text
    return tuple(KIND_LETTERS.index(ch) for ch in text)


def _objective(spec: tuple) -> Objective:
    family, *args = spec
    if family in ("trio",):
        return Objective(family, KIND_LETTERS.index(args[0]))
    if family == "triad":
        return Objective(family, None, (ICON_LETTERS.index(args[0]),))
    if family == "scatter":
        return Objective(family, KIND_LETTERS.index(args[0]), (ICON_LETTERS.index(args[1]),))
    if family == "pair":
        return Objective(family, None, tuple(ICON_LETTERS.index(a) for a in args))
    raise ValueError(spec)


# id, front spaces, front requirements (kind, n, side), back spaces, back icons, objective
_TERRAIN_TILES = [
    ("T1", "FFFWWW", [("F", 6, 1), ("C", 4, 4)], "FFWWWW", {0: "A", 1: "S"}, ("trio", "W")),
    ("T2", "FFFCCC", [("C", 6, 4), ("W", 5, 1)], "WWWFWW", {0: "M", 3: "M"}, ("scatter", "F", "A")),
    ("T3", "WWWCCC", [("W", 8, 1), ("F", 4, 4)], "WWCCFF", {0: "S", 3: "S"}, ("triad", "M")),
    ("T4", "FFWWCC", [("F", 5, 0), ("C", 5, 5)], "CWWCFF", {1: "A", 4: "A"}, ("trio", "C")),
    ("T5", "FFCCWW", [("W", 6, 5), ("F", 3, 2)], "CCCWWF", {0: "M", 4: "A"}, ("pair", "S", "S")),
    ("T6", "FFFFCW", [("F", 8, 2), ("W", 6, 5)], "WWWCCC", {1: "S"}, ("trio", "F")),
    ("T7", "CCCCFW", [("C", 8, 1), ("F", 5, 4)], "FFFWWC", {1: "A"}, ("pair", "S", "M")),
    ("T8", "WWWWFC", [("W", 10, 2), ("C", 4, 5)], "CCCCWW", {1: "M"}, ("triad", "A")),
    ("T9", "FFCCCC", [("C", 9, 3), ("F", 5, 0)], "FWWFCC", {4: "A"}, ("scatter", "W", "S")),
    ("T10", "CCWWWW", [("W", 9, 3), ("C", 5, 0)], "WWFFCC", {2: "S"}, ("pair", "M", "M")),
    ("T11", "FWFWCC", [("C", 5, 4), ("F", 4, 0)], "FFCCWW", {3: "S"}, ("scatter", "C", "M")),
    ("T12", "FCFCWW", [("W", 5, 4), ("C", 3, 1)], "WWWWCC", {1: "S"}, ("pair", "A", "M")),
    ("T13", "FCCWWW", [("F", 4, 0), ("W", 10, 4)], "CCFFFW", {1: "M"}, ("triad", "S")),
    ("T14", "CFFWWC", [("C", 4, 0), ("F", 6, 2)], "WCCWFF", {5: "M"}, ("pair", "A", "S")),
    ("T15", "WCCFFF", [("F", 9, 4), ("W", 4, 3)], "FFFCCW", {4: "A"}, ("pair", "A", "A")),
]

# id, face a, face b
_RIVER_TILES = [
    ("R1", "WWWWWW", "WWWWFF"),
    ("R2", "WWWWWF", "WWCWWC"),
    ("R3", "WWWWWC", "WWFWWF"),
]


def _build() -> dict[str, Tile]:
    tiles: dict[str, Tile] = {}
    for tid, front, reqs, back, icons, objective in _TERRAIN_TILES:
        front_face = Face(
            FRONT,
            _spaces(front),
            tuple(Requirement(KIND_LETTERS.index(k), n, side) for k, n, side in reqs),
        )
        back_face = Face(
            BACK,
            _spaces(back),
            icons=tuple(sorted((space, ICON_LETTERS.index(i)) for space, i in icons.items())),
            objective=_objective(objective),
        )
        tiles[tid] = Tile(tid, False, {FRONT: front_face, BACK: back_face})
    for tid, a, b in _RIVER_TILES:
        tiles[tid] = Tile(tid, True, {"a": Face("a", _spaces(a)), "b": Face("b", _spaces(b))})
    return tiles


TILES: dict[str, Tile] = _build()
TILE_IDS: tuple[str, ...] = tuple(TILES)
TERRAIN_TILE_IDS: tuple[str, ...] = tuple(t for t in TILE_IDS if not TILES[t].river)


def catalogue() -> list[dict]:
    """The public tile set as JSON: every tile with both faces (rotation 0)."""
    return [
        {"tile": t.id, "river": t.river, "faces": {name: f.to_json() for name, f in t.faces.items()}}
        for t in TILES.values()
    ]
