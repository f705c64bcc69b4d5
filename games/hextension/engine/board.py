"""The Hextension board: tiles, cells, lines and scoring (rules: shared/rules/hextension.md).

Everything here is pure data and pure functions; the engine, the AI, the tests and
any tool outside the engine share it.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable, Mapping, NamedTuple

# --- tiles -----------------------------------------------------------------------------

DIRECTIONS = ("|", "/", "\\")
# The three values each direction can show, in the order the rules list them.
VALUES: tuple[tuple[int, int, int], ...] = ((1, 5, 9), (2, 6, 7), (3, 4, 8))

# A tile is named by its values on |, / and \ in that order: "174".
TILES: tuple[str, ...] = tuple(f"{a}{b}{c}" for a in VALUES[0] for b in VALUES[1] for c in VALUES[2])
TILE_SET = frozenset(TILES)
TILE_COUNT = len(TILES)  # 27


def tile_values(tile: str) -> tuple[int, int, int]:
    """The tile's values on |, / and \\."""
    return int(tile[0]), int(tile[1]), int(tile[2])


# --- cells -----------------------------------------------------------------------------

_COLUMN_R = {-2: range(0, 3), -1: range(-1, 3), 0: range(-2, 3), 1: range(-2, 2), 2: range(-2, 1)}
# (name, q, r) for every cell, column by column, top to bottom. Axial coordinates for a
# board of flat-topped hexagons, r growing downward (see the rules).
CELL_COORDS: tuple[tuple[str, int, int], ...] = tuple(
    (f"{'ABCDE'[q + 2]}{i + 1}", q, r) for q, rs in _COLUMN_R.items() for i, r in enumerate(rs)
)
CELLS: tuple[str, ...] = tuple(name for name, _, _ in CELL_COORDS)
CELL_COUNT = len(CELLS)  # 19
AXIAL: dict[str, tuple[int, int]] = {name: (q, r) for name, q, r in CELL_COORDS}
_BY_AXIAL = {qr: name for name, qr in AXIAL.items()}


def rotate_180(cell: str) -> str:
    """The cell a 180° turn of the board brings this cell to."""
    q, r = AXIAL[cell]
    return _BY_AXIAL[(-q, -r)]


# --- lines -----------------------------------------------------------------------------


class Line(NamedTuple):
    direction: int  # index into DIRECTIONS
    cells: tuple[str, ...]  # from one edge of the board to the other

    @property
    def symbol(self) -> str:
        return DIRECTIONS[self.direction]


def _lines() -> tuple[Line, ...]:
    # | lines keep q, / lines keep q + r, \ lines keep r (rules, "Board").
    keys = (lambda q, r: q, lambda q, r: q + r, lambda q, r: r)
    order = (lambda q, r: r, lambda q, r: q, lambda q, r: q)
    lines = []
    for d in range(3):
        groups: dict[int, list[str]] = {}
        for name, q, r in CELL_COORDS:
            groups.setdefault(keys[d](q, r), []).append(name)
        for _, names in sorted(groups.items()):
            names.sort(key=lambda n: order[d](*AXIAL[n]))
            lines.append(Line(d, tuple(names)))
    return tuple(lines)


# The 15 lines: five | lines (columns A..E), five / lines, five \ lines, in the rules' order.
LINES: tuple[Line, ...] = _lines()
# For every cell, the index in LINES of its |, / and \ line.
CELL_LINES: dict[str, tuple[int, int, int]] = {
    cell: tuple(next(i for i, ln in enumerate(LINES) if ln.direction == d and cell in ln.cells) for d in range(3))
    for cell in CELLS
}
MAX_SCORE = 307


# --- scoring ---------------------------------------------------------------------------


def line_score(board: Mapping[str, str], line: Line) -> int:
    """What one line scores: length × value when full of one value, else 0."""
    values = set()
    for cell in line.cells:
        tile = board.get(cell)
        if tile is None:
            return 0
        values.add(tile[line.direction])
    if len(values) != 1:
        return 0
    return len(line.cells) * int(values.pop())


def score_board(board: Mapping[str, str]) -> int:
    """The board's score: the sum over the 15 lines. ``board`` maps cells ("C3") to tiles ("174")."""
    return sum(line_score(board, line) for line in LINES)


def value_counts(tiles: Iterable[str]) -> Counter:
    """How many of ``tiles`` show each value, keyed (direction, value)."""
    counts: Counter = Counter()
    for tile in tiles:
        for d in range(3):
            counts[(d, int(tile[d]))] += 1
    return counts


def line_status(board: Mapping[str, str], line: Line, still_to_come: Counter) -> dict:
    """The diagram entry for one line of ``board``.

    ``still_to_come`` counts, per (direction, value), the tiles that may still reach the
    board (see ``value_counts``). The status is "scoring" (full, one value), "dead" (two
    values on it, or too few tiles of its value left to fill it) or "open"; ``values`` are
    the values the line can still score and ``value`` the one it holds, if any.
    """
    d = line.direction
    shown = {int(board[c][d]) for c in line.cells if c in board}
    empty = sum(1 for c in line.cells if c not in board)
    entry = {
        "direction": line.symbol,
        "cells": list(line.cells),
        "length": len(line.cells),
        "value": None,
        "values": [],
        "status": "dead",
        "score": 0,
    }
    if len(shown) > 1:
        return entry
    if not empty:
        value = shown.pop()
        entry.update(value=value, values=[value], status="scoring", score=value * len(line.cells))
        return entry
    candidates = sorted(shown) if shown else list(VALUES[d])
    entry["values"] = [v for v in candidates if still_to_come[(d, v)] >= empty]
    if shown:
        entry["value"] = candidates[0]
    if entry["values"]:
        entry["status"] = "open"
    return entry


def line_potential(entry: Mapping) -> int:
    """The most one line's diagram entry (``line_status``) can still add to the score: its
    score when full, its highest possible value × its length when open, 0 when dead."""
    if entry["status"] == "scoring":
        return entry["score"]
    if entry["status"] == "open" and entry["values"]:
        return max(entry["values"]) * entry["length"]
    return 0


def potential(board: Mapping[str, str], still_to_come: Counter) -> int:
    """The most ``board`` can still make: the points it has plus, for every line still open,
    its highest possible value × its length. Each line is taken on its own, so this is an upper
    bound (two open lines may need the same tile); it never grows as tiles are placed or drawn,
    and on a full board it is the score."""
    return sum(line_potential(line_status(board, line, still_to_come)) for line in LINES)
