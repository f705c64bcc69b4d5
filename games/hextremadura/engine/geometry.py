"""Hex geometry of Hextremadura (see ``shared/rules/hextremadura.md``, "Geometry").

Pointy-topped hexagons on an axial grid (q, r). Sides and directions are numbered 0-5
counter-clockwise from east. Each tile has six triangular spaces; space ``i`` touches side
``i`` and the centre, spaces ``i - 1`` and ``i + 1`` of the same tile, and space
``(i + 3) % 6`` of the neighbour in direction ``i``.
"""
from __future__ import annotations

Cell = tuple[int, int]

#: direction -> (dq, dr): 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")


def neighbours(cell: Cell) -> list[Cell]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]
