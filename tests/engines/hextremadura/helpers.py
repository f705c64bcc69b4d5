"""Helpers for hand-built Hextremadura positions: faces written as in tiles.py."""
from __future__ import annotations

from games.hextremadura.engine.board import Board, Placed
from games.hextremadura.engine.tiles import (
    BACK,
    FRONT,
    ICON_LETTERS,
    KIND_LETTERS,
    Face,
    Objective,
    Requirement,
    Tile,
)


def face(spaces: str, name: str = FRONT, reqs=(), icons=None, objective=None) -> Face:
    return Face(
        name,
        tuple(KIND_LETTERS.index(c) for c in spaces),
        tuple(Requirement(KIND_LETTERS.index(k), n, side) for k, n, side in reqs),
        tuple(sorted((s, ICON_LETTERS.index(i)) for s, i in (icons or {}).items())),
        objective,
    )


def put(board: Board, cell, spaces: str, rotation: int = 0, name: str | None = None, reqs=(), icons=None, tile: str = "X", seq: int | None = None) -> int:
    """Place a made-up face on the board; return its slot. A face with requirements is a
    front, else a back (a front without requirements would count as completed)."""
    name = name or (FRONT if reqs else BACK)
    f = face(spaces, name, reqs, icons)
    seq = len(board.slots) if seq is None else seq
    board.place(Placed(tile, cell[0], cell[1], rotation, name, seq, f.oriented[rotation]))
    return len(board.slots) - 1


def back(board: Board, cell, spaces: str, icons=None, rotation: int = 0) -> int:
    return put(board, cell, spaces, rotation, BACK, icons=icons)


def obj(family: str, *args) -> Objective:
    if family == "trio":
        return Objective("trio", KIND_LETTERS.index(args[0]))
    if family == "triad":
        return Objective("triad", None, (ICON_LETTERS.index(args[0]),))
    if family == "scatter":
        return Objective("scatter", KIND_LETTERS.index(args[0]), (ICON_LETTERS.index(args[1]),))
    return Objective("pair", None, tuple(ICON_LETTERS.index(a) for a in args))


def terrain_tile(tid: str, front: str, reqs, back_spaces: str = "FFFFFF", icons=None, objective=None) -> Tile:
    """A made-up terrain tile, for flows that need particular requirements."""
    return Tile(
        tid,
        False,
        {
            FRONT: face(front, FRONT, reqs),
            BACK: face(back_spaces, BACK, icons=icons, objective=objective or obj("trio", "F")),
        },
    )


def flood_terrains(board: Board) -> dict[int, int]:
    """Terrain sizes by brute force (no union-find): node -> size of its terrain."""
    from games.hextremadura.engine.geometry import DIRECTIONS

    # Written again from the rules on purpose: calling Board.node_neighbours would let an
    # adjacency bug pass unseen in both the engine and this oracle.
    def nbrs(node):
        slot, i = divmod(node, 6)
        out = [slot * 6 + (i + 1) % 6, slot * 6 + (i + 5) % 6]
        p = board.slots[slot]
        dq, dr = DIRECTIONS[i]
        other = board.cells.get((p.q + dq, p.r + dr))
        if other is not None:
            out.append(other * 6 + (i + 3) % 6)
        return out

    size: dict[int, int] = {}
    n = len(board.slots) * 6
    for start in range(n):
        if start in size:
            continue
        comp, stack = {start}, [start]
        while stack:
            x = stack.pop()
            for y in nbrs(x):
                if y not in comp and board.kind[y] == board.kind[start]:
                    comp.add(y)
                    stack.append(y)
        for x in comp:
            size[x] = len(comp)
    return size
