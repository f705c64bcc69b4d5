"""The hindsight optimum: the best score any placement of a given set of tiles can reach.

Exact branch and bound, pure Python. Every line gets a target, one of its direction's three
values or "does not score", longest lines and highest values first. A partial choice of
targets survives only while

* for every direction and value there are enough tiles showing it for the lines aiming at it,
* the cells can still all be filled: a matching between cells and tiles in which every tile
  shows the target of each line through its cell (Kuhn's augmenting paths on bit masks),
* its points plus an upper bound for the lines still open beat the best board found so far;
  the bound solves, per direction and exactly, which open lines the unclaimed tiles of each
  value could fill, ignoring the other directions.

Given as many tiles as cells (a finished game) every tile is placed; given more tiles, the
best 19 of them are used (so ``best_possible(TILES)`` finds a 307 board).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from .board import CELL_COUNT, CELLS, LINES, TILE_SET, VALUES, score_board

_CELL_INDEX = {c: i for i, c in enumerate(CELLS)}
_LINE_CELLS = [tuple(_CELL_INDEX[c] for c in ln.cells) for ln in LINES]
_LINE_DIR = [ln.direction for ln in LINES]
_LINE_LEN = [len(ln.cells) for ln in LINES]
# Decide long lines first (they cross the most), then by direction.
_ORDER = sorted(range(len(LINES)), key=lambda i: (-_LINE_LEN[i], _LINE_DIR[i], i))
# For each position in _ORDER and each direction: the lengths of that direction's lines still open.
_OPEN_LENGTHS = [
    [tuple(sorted(_LINE_LEN[j] for j in _ORDER[k:] if _LINE_DIR[j] == d)) for d in range(3)]
    for k in range(len(_ORDER) + 1)
]


@lru_cache(maxsize=None)
def _direction_bound(d: int, lengths: tuple[int, ...], supply: tuple[int, int, int]) -> int:
    """Most points lines of ``lengths`` in direction ``d`` can make with ``supply`` tiles per value."""
    if not lengths:
        return 0
    length, rest = lengths[-1], lengths[:-1]
    best = _direction_bound(d, rest, supply)
    for a, v in enumerate(VALUES[d]):
        if supply[a] >= length:
            left = supply[:a] + (supply[a] - length,) + supply[a + 1:]
            best = max(best, length * v + _direction_bound(d, rest, left))
    return best


def _matchable(masks: list[int], n_tiles: int) -> bool:
    """Can every cell get its own tile from its mask of acceptable tiles?"""
    owner = [-1] * n_tiles

    def augment(cell: int, visited: list[int]) -> bool:
        m = masks[cell] & ~visited[0]
        while m:
            bit = m & -m
            m ^= bit
            visited[0] |= bit
            t = bit.bit_length() - 1
            if owner[t] < 0 or augment(owner[t], visited):
                owner[t] = cell
                return True
        return False

    for cell in sorted(range(len(masks)), key=lambda c: bin(masks[c]).count("1")):
        if not augment(cell, [0]):
            return False
    return True


def _placement(masks: list[int], tiles: list[str]) -> dict[str, str]:
    """A board realising the masks (they are known to be matchable)."""
    owner = [-1] * len(tiles)

    def augment(cell: int, visited: set[int]) -> bool:
        for t in range(len(tiles)):
            if masks[cell] >> t & 1 and t not in visited:
                visited.add(t)
                if owner[t] < 0 or augment(owner[t], visited):
                    owner[t] = cell
                    return True
        return False

    for cell in range(len(masks)):
        augment(cell, set())
    return {CELLS[owner[t]]: tiles[t] for t in range(len(tiles)) if owner[t] >= 0}


def best_possible(tiles: Iterable[str]) -> tuple[int, dict[str, str]]:
    """The highest score a placement of ``tiles`` (at least 19 distinct tiles) can reach, and such a board."""
    tiles = sorted(set(tiles))
    if len(tiles) < CELL_COUNT or any(t not in TILE_SET for t in tiles):
        raise ValueError(f"best_possible needs at least {CELL_COUNT} distinct tiles, got {len(tiles)}")
    n = len(tiles)
    full = (1 << n) - 1
    # shows[d][a]: mask of the tiles showing VALUES[d][a] in direction d.
    shows = [[sum(1 << i for i, t in enumerate(tiles) if int(t[d]) == v) for v in VALUES[d]] for d in range(3)]
    supply0 = tuple(tuple(bin(m).count("1") for m in shows[d]) for d in range(3))

    best_score = -1
    best_masks: list[int] = []
    masks = [full] * CELL_COUNT

    def bound(k: int, supply: tuple) -> int:
        return sum(_direction_bound(d, _OPEN_LENGTHS[k][d], supply[d]) for d in range(3))

    def search(k: int, points: int, supply: tuple) -> None:
        nonlocal best_score, best_masks
        if points + bound(k, supply) <= best_score:
            return
        if k == len(_ORDER):
            best_score, best_masks = points, list(masks)
            return
        line = _ORDER[k]
        d, length, cells = _LINE_DIR[line], _LINE_LEN[line], _LINE_CELLS[line]
        for a in sorted(range(3), key=lambda a: -VALUES[d][a]):
            if supply[d][a] < length:
                continue
            saved = [masks[c] for c in cells]
            for c in cells:
                masks[c] &= shows[d][a]
            if all(masks[c] for c in cells) and _matchable(masks, n):
                left = supply[d][:a] + (supply[d][a] - length,) + supply[d][a + 1:]
                search(k + 1, points + length * VALUES[d][a], supply[:d] + (left,) + supply[d + 1:])
            for c, m in zip(cells, saved):
                masks[c] = m
        search(k + 1, points, supply)

    search(0, 0, supply0)
    board = _placement(best_masks, tiles)
    score = score_board(board)
    assert score >= best_score, "the optimum's board scores less than promised"
    return score, board
