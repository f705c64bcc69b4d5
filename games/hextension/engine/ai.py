"""Placement AI for Hextension, and the hindsight optimum.

    place(board, tiles, level, seen=()) -> {tile: cell}

``board`` maps cells to tiles, ``tiles`` are the tiles of the round to place (all of them are
placed together), ``seen`` the tiles drawn in earlier rounds (so the AI knows which tiles may
still come: every tile neither seen, on the board nor in ``tiles``). Levels:

* ``random``: empty cells at random (pass ``rng``, a ``random.Random``, for repeatable play);
* ``greedy``: the placement that maximises a one-step hand-made heuristic (points already
  made plus partial credit for lines that can still be completed);
* ``strong``: immediate points plus a learned value of the board (``value.py``'s tables,
  ``weights_v5.npz``, trained by ``train_strong.py``), searched
  by expectimax in compiled loops (``search.best_placement``, settings ``SEARCH``): for the
  most promising placements it averages, over every tile that may come next, the best answer
  to that tile;
* ``strong-v1`` (not offered; replays old timeout events): the strong level before, the
  ``value.py`` value alone (``weights.npz``, ``train.py``) with the same one-tile search in
  NumPy.

An AI seat plays from its view: ``place(v["seats"][s]["board"], v["drawn"], level,
seen=v["earlier"])`` gives the ``placements`` of the move to ``apply``.

``best_possible(tiles)`` is the hindsight optimum (see ``optimum.py``).
"""
from __future__ import annotations

import itertools
import random
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np

from . import value as V
from .board import CELLS, LINES, TILE_SET, TILES, value_counts
from .optimum import best_possible

__all__ = ["AI_LEVELS", "LEVELS", "choose_move", "place", "best_possible", "warm_up"]

LEVELS = ("random", "greedy", "strong")
AI_LEVELS = LEVELS
# Earlier versions of a level, kept so that games whose stored events ask the engine to re-run
# an AI (timeout events stored before the decision itself was stored) replay unchanged.
LEGACY_LEVELS = ("strong-v1",)

# Search width of ``strong-v1``: the placements searched one tile deeper.
TOP_K = 6

# The search of ``strong`` (see ``search.best_placement``).
SEARCH = {"width1": 6, "width2": 2, "deep_from": 18, "inner": 2}


def place(
    board: Mapping[str, str],
    tiles: Sequence[str],
    level: str,
    seen: Iterable[str] = (),
    *,
    rng: random.Random | None = None,
) -> dict[str, str]:
    """Where to put each of ``tiles``: {tile: cell} for every tile, on distinct empty cells."""
    tiles = list(tiles)
    empty = [c for c in CELLS if c not in board]
    for cell, tile in board.items():
        if cell not in CELLS or tile not in TILE_SET:
            raise ValueError(f"not a board: {cell!r}: {tile!r}")
    if len(set(tiles)) != len(tiles) or any(t not in TILE_SET or t in board.values() for t in tiles):
        raise ValueError(f"tiles to place must be distinct tiles not on the board: {tiles!r}")
    if len(tiles) > len(empty):
        raise ValueError(f"{len(tiles)} tiles do not fit on {len(empty)} empty cells")
    if not tiles:
        return {}
    if level == "random":
        cells = (rng or random.Random()).sample(empty, len(tiles))
        return dict(zip(tiles, cells))
    gone = set(board.values()) | set(tiles) | set(seen)
    to_come = [t for t in TILES if t not in gone]
    if level == "greedy":
        return _greedy(dict(board), tiles, empty, to_come)
    if level == "strong":
        return _search(board, tiles, to_come)
    if level == "strong-v1":
        return _strong(dict(board), tiles, empty, to_come)
    raise ValueError(f"unknown AI level {level!r}; levels are {', '.join(LEVELS)}")


def warm_up() -> None:
    """Compile ``strong``'s search (Numba, ``cache=True``: compiled once per machine and source,
    then loaded from ``__pycache__`` in about a second) and load its weights. The first call in a
    process otherwise pays that, inside the game's row lock when it is a timeout's no-move rule:
    20 s and more on a cold cache, during which the game's players and the sweep wait."""
    place({}, list(TILES[:2]), "strong")


def choose_move(view: Mapping, level: str) -> dict:
    """The protocol's entry point: the seat's move for the open round, from its view alone."""
    board = view["seats"][view["seat"]]["board"]
    return {"type": "place", "placements": place(board, view["drawn"], level, seen=view["earlier"])}


# --- greedy: one step of a hand-made heuristic ----------------------------------------------


def heuristic(board: Mapping[str, str], to_come_counts: Mapping[tuple[int, int], int]) -> float:
    """Points made, plus half the points of each line that holds one value and can still be
    filled, scaled by how much of it is filled."""
    total = 0.0
    for line in LINES:
        d = line.direction
        shown = {board[c][d] for c in line.cells if c in board}
        if len(shown) != 1:
            continue
        value = int(shown.pop())
        filled = sum(1 for c in line.cells if c in board)
        length = len(line.cells)
        if filled == length:
            total += length * value
        elif to_come_counts[(d, value)] >= length - filled:
            total += 0.5 * value * length * filled / length
    return total


def _greedy(board: dict, tiles: list[str], empty: list[str], to_come: list[str]) -> dict[str, str]:
    counts = value_counts(to_come)
    best, best_cells = None, None
    for cells in itertools.permutations(empty, len(tiles)):
        trial = dict(board)
        trial.update(zip(cells, tiles))
        h = heuristic(trial, counts)
        if best is None or h > best:
            best, best_cells = h, cells
    return dict(zip(tiles, best_cells))


# --- strong-v1: learned value, one tile of expectimax ------------------------------------------


@lru_cache(maxsize=1)
def _weights() -> np.ndarray:
    return V.load_weights()


WEIGHTS_STRONG = Path(__file__).with_name("weights_v5.npz")


@lru_cache(maxsize=1)
def _weights_strong() -> np.ndarray:
    """The strong level's value: ``value.py``'s tables, with or without the extension table."""
    from . import search

    with np.load(WEIGHTS_STRONG) as data:
        w = data["w"].astype(np.float64)
    if w.shape[0] not in (V.N_WEIGHTS, search.N_WEIGHTS_X):
        raise ValueError(f"{WEIGHTS_STRONG} holds {w.shape[0]} weights, the value needs "
                         f"{V.N_WEIGHTS} (or {search.N_WEIGHTS_X} with the extension table)")
    return w


def _search(board: Mapping[str, str], tiles: list[str], to_come: list[str]) -> dict[str, str]:
    from . import search

    row = V.board_array(dict(board))
    tile_idx = np.array([V.TILE_INDEX[t] for t in tiles], dtype=np.int64)
    pool = np.zeros(V.N_TILES, dtype=np.bool_)
    pool[[V.TILE_INDEX[t] for t in to_come]] = True
    empty = np.nonzero(row == V.EMPTY)[0]
    perms = np.array(list(itertools.permutations(empty, len(tiles))), dtype=np.int64)
    best, _ = search.best_placement(
        row, pool, tile_idx, perms, _weights_strong(),
        SEARCH["width1"], SEARCH["width2"], SEARCH["deep_from"], SEARCH["inner"],
    )
    return {t: CELLS[c] for t, c in zip(tiles, perms[best])}


def _afterstates(boards: np.ndarray, tiles: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Every way to put ``tiles`` on the empty cells of each board: the new boards (M, 19)
    and, for each, the index of the board it came from and the cells used."""
    out_boards, parents, cells = [], [], []
    for b, row in enumerate(boards):
        empty = np.nonzero(row == V.EMPTY)[0]
        perms = np.array(list(itertools.permutations(empty, len(tiles))), dtype=np.int64)
        new = np.repeat(row[None, :], len(perms), axis=0)
        for k, t in enumerate(tiles):
            new[np.arange(len(perms)), perms[:, k]] = t
        out_boards.append(new)
        parents.append(np.full(len(perms), b))
        cells.append(perms)
    return np.concatenate(out_boards), np.concatenate(parents), np.concatenate(cells)


def _evaluate(boards: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """Score plus learned value of the rest of the game, for boards sharing one pool."""
    counts = V.line_counts(boards)
    total = V.scores(boards, counts).astype(np.float64)
    if (boards == V.EMPTY).any():
        feats = V.features(boards, np.broadcast_to(pool, (len(boards), V.N_TILES)), counts)
        values = _weights()[feats].sum(1)
        total += np.where((boards == V.EMPTY).any(1), values, 0.0)
    return total


def _strong(board: dict, tiles: list[str], empty: list[str], to_come: list[str]) -> dict[str, str]:
    row = V.board_array(board)
    tile_idx = [V.TILE_INDEX[t] for t in tiles]
    pool = np.zeros(V.N_TILES, dtype=bool)
    pool[[V.TILE_INDEX[t] for t in to_come]] = True
    cands, _, cells = _afterstates(row[None, :], tile_idx)
    q = _evaluate(cands, pool)
    left = len(empty) - len(tiles)
    if TOP_K > 0 and left > 0 and pool.any() and len(cands) > 1:
        top = np.argsort(-q, kind="stable")[:TOP_K]
        q_top = np.array([_expectation(cands[i], pool) for i in top])
        best = top[int(np.argmax(q_top))]
    else:
        best = int(np.argmax(q))
    return {t: CELLS[c] for t, c in zip(tiles, cells[best])}


def _expectation(board: np.ndarray, pool: np.ndarray) -> float:
    """Mean over the next tile of the best score + value after placing it."""
    nxt = np.nonzero(pool)[0]
    empty = np.nonzero(board == V.EMPTY)[0]
    n_e = len(empty)
    boards = np.repeat(board[None, :], len(nxt) * n_e, axis=0)
    tile_of = np.repeat(nxt, n_e)
    cell_of = np.tile(empty, len(nxt))
    boards[np.arange(len(boards)), cell_of] = tile_of
    pools = np.repeat(pool[None, :], len(boards), axis=0)
    pools[np.arange(len(boards)), tile_of] = False
    counts = V.line_counts(boards)
    total = V.scores(boards, counts).astype(np.float64)
    if n_e > 1:
        feats = V.features(boards, pools, counts)
        total += _weights()[feats].sum(1)
    return float(total.reshape(len(nxt), n_e).max(1).mean())
