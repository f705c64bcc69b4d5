"""A learned afterstate value for Hextension, evaluated for many boards at once with NumPy.

The value of a board (after a placement) estimates the points its empty cells will still add
by the end of the game under good play. It is a sum of table entries, an n-tuple network
over hand-made line features:

* per line: its state (empty / one value with n tiles / dead), how many tiles of its value
  may still come, and how many cells are empty on the board;
* per direction and value: how many empty cells of the lines that hold that value still need
  it, against how many such tiles may still come (lines compete for the same tiles);
* per empty cell: the states of its three lines and how many of the tiles that may still
  come fit all of them at once (crossing lines compete for one cell);
* per direction: the states of its five parallel lines together;
* per line: its state and the spare supply of its value (what may come beyond what every
  line holding that value still needs).

The board turned by 180° scores the same, so cells and lines share tables with their turned
images. ``train.py`` learns the tables by temporal-difference learning; ``weights.npz`` ships
the result.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .board import CELL_LINES, CELLS, LINES, TILES, VALUES, rotate_180

EMPTY = 27  # tile index of an empty cell in a board array
_PAD = 28  # tile index of the padding cell that shortens lines to five cells
N_CELLS = len(CELLS)
N_TILES = len(TILES)
TILE_INDEX = {t: i for i, t in enumerate(TILES)}
CELL_INDEX = {c: i for i, c in enumerate(CELLS)}

# TV[t, d]: the value index (0..2) tile t shows in direction d; empty -> 3, padding -> 4.
TV = np.zeros((N_TILES + 2, 3), dtype=np.int64)
for _t, _tile in enumerate(TILES):
    for _d in range(3):
        TV[_t, _d] = VALUES[_d].index(int(_tile[_d]))
TV[EMPTY] = 3
TV[_PAD] = 4

N_LINES = len(LINES)
LINE_DIR = np.array([ln.direction for ln in LINES])
LINE_LEN = np.array([len(ln.cells) for ln in LINES])
LINE_CELLS = np.full((N_LINES, 5), N_CELLS, dtype=np.int64)  # column N_CELLS is the padding
for _i, _ln in enumerate(LINES):
    LINE_CELLS[_i, :len(_ln.cells)] = [CELL_INDEX[c] for c in _ln.cells]
# VALUE_OF[d, a]: the points value index a stands for in direction d.
VALUE_OF = np.array(VALUES, dtype=np.int64)
# CELL_LINE[c, d]: the line of direction d through cell c.
CELL_LINE = np.array([CELL_LINES[c] for c in CELLS], dtype=np.int64)
# LINE_OF_DIR[d, k]: the k-th line of direction d.
LINE_OF_DIR = np.array([[i for i, ln in enumerate(LINES) if ln.direction == d] for d in range(3)])

# Symmetry classes under the 180° turn.
_cell_class: dict[int, int] = {}
for _c, _name in enumerate(CELLS):
    _img = CELL_INDEX[rotate_180(_name)]
    _cell_class[_c] = _cell_class.get(_img, len(set(_cell_class.values())))
CELL_CLASS = np.array([_cell_class[c] for c in range(N_CELLS)])
N_CELL_CLASSES = int(CELL_CLASS.max()) + 1
_line_class: dict[int, int] = {}
for _i, _ln in enumerate(LINES):
    _img_cells = {rotate_180(c) for c in _ln.cells}
    _img = next(j for j, m in enumerate(LINES) if m.direction == _ln.direction and set(m.cells) == _img_cells)
    _line_class[_i] = _line_class.get(_img, len(set(_line_class.values())))
LINE_CLASS = np.array([_line_class[i] for i in range(N_LINES)])
N_LINE_CLASSES = int(LINE_CLASS.max()) + 1

# POOL_DV[t, d*3 + a] = 1 when tile t shows value index a in direction d.
POOL_DV = np.zeros((N_TILES, 9), dtype=np.int64)
for _t in range(N_TILES):
    for _d in range(3):
        POOL_DV[_t, _d * 3 + TV[_t, _d]] = 1
# FIT_MASK[p, t] = 1 when tile t fits constraint pattern p = p0*16 + p1*4 + p2, where p_d is the
# value index line d demands, or 3 for no demand.
FIT_MASK = np.zeros((64, N_TILES), dtype=np.int64)
for _p in range(64):
    _want = (_p // 16, (_p // 4) % 4, _p % 4)
    for _t in range(N_TILES):
        FIT_MASK[_p, _t] = all(w == 3 or TV[_t, d] == w for d, w in enumerate(_want))

# Table layout.
LINE_CODES = 17  # 0 empty, 1 + a*5 + (n-1) one value a on n cells, 16 dead
MAX_E = N_CELLS  # empty-cell counts 0..18
N_F1 = N_LINE_CLASSES * LINE_CODES * 10 * MAX_E
N_F2 = 9 * 20 * 10 * MAX_E
E_BUCKETS = 5
FIT_CAP = 5
N_F3 = N_CELL_CLASSES * 125 * (FIT_CAP + 1) * E_BUCKETS
OFF_F2 = N_F1
OFF_F3 = N_F1 + N_F2
OFF_F4 = N_F1 + N_F2 + N_F3
N_F4 = 3 * 5 ** 5 * E_BUCKETS
OFF_F5 = OFF_F4 + N_F4
SPARE_RANGE = 15  # tiles of the line's value to come beyond what every line holding it needs: -5..9
N_F5 = N_LINE_CLASSES * LINE_CODES * SPARE_RANGE * E_BUCKETS
NULL = OFF_F5 + N_F5  # a slot that always holds 0 (filled cells point here)
N_WEIGHTS = NULL + 1
N_FEATURES = N_LINES + 9 + N_CELLS + 3 + N_LINES
_POW5 = 5 ** np.arange(5)


def board_array(board: dict[str, str]) -> np.ndarray:
    """A board (cell -> tile code) as a row of tile indices, EMPTY for empty cells."""
    row = np.full(N_CELLS, EMPTY, dtype=np.int64)
    for cell, tile in board.items():
        row[CELL_INDEX[cell]] = TILE_INDEX[tile]
    return row


def line_counts(boards: np.ndarray) -> np.ndarray:
    """counts[b, line, a]: tiles showing value index a on the line (a = 3: empty cells)."""
    padded = np.concatenate([boards, np.full((boards.shape[0], 1), _PAD, dtype=boards.dtype)], axis=1)
    proj = TV[padded[:, LINE_CELLS], LINE_DIR[None, :, None]]  # (B, 15, 5) value index per cell
    return np.stack([(proj == a).sum(-1) for a in range(4)], axis=-1)


def scores(boards: np.ndarray, counts: np.ndarray | None = None) -> np.ndarray:
    """The score of every board (B, 19)."""
    counts = line_counts(boards) if counts is None else counts
    full = counts[:, :, :3].max(-1) == LINE_LEN[None, :]
    best = counts[:, :, :3].argmax(-1)
    return (full * LINE_LEN[None, :] * VALUE_OF[LINE_DIR[None, :], best]).sum(-1)


def features(boards: np.ndarray, pools: np.ndarray, counts: np.ndarray | None = None) -> np.ndarray:
    """Indices into the weight vector, (B, N_FEATURES), for boards (B, 19) with pools (B, 27).

    ``pools[b, t]`` is true when tile t may still come to board b.
    """
    counts = line_counts(boards) if counts is None else counts
    B = boards.shape[0]
    vals = counts[:, :, :3]
    filled = vals.sum(-1)
    distinct = (vals > 0).sum(-1)
    value = vals.argmax(-1)  # (B, 15)
    empty_cells = (boards == EMPTY).sum(-1)  # (B,)
    pool_dv = pools.astype(np.int64) @ POOL_DV  # (B, 9)

    one_value = (distinct == 1)
    code = np.where(filled == 0, 0, np.where(distinct >= 2, 16, 1 + value * 5 + filled - 1))
    dv = LINE_DIR[None, :] * 3 + value  # (B, 15)
    m_line = np.take_along_axis(pool_dv, dv, axis=1)
    m_empty = pool_dv.reshape(B, 3, 3).max(-1)[:, LINE_DIR]
    m = np.where(one_value, m_line, np.where(filled == 0, m_empty, 0))
    E = empty_cells[:, None]
    f1 = ((LINE_CLASS[None, :] * LINE_CODES + code) * 10 + m) * MAX_E + E

    need = np.zeros((B, 9), dtype=np.int64)
    missing = np.where(one_value, LINE_LEN[None, :] - filled, 0)
    np.add.at(need, (np.arange(B)[:, None].repeat(N_LINES, 1), dv), missing)
    need = np.minimum(need, 19)
    f2 = OFF_F2 + ((np.arange(9)[None, :] * 20 + need) * 10 + pool_dv) * MAX_E + E

    # Line states as seen from a cell: 0 empty line, 1..3 one value, 4 dead.
    state = np.where(filled == 0, 0, np.where(distinct >= 2, 4, 1 + value))  # (B, 15)
    demand = np.where(one_value, value, 3)  # (B, 15)
    cs = state[:, CELL_LINE]  # (B, 19, 3)
    cd = demand[:, CELL_LINE]
    combo = cs[:, :, 0] * 25 + cs[:, :, 1] * 5 + cs[:, :, 2]
    pattern = cd[:, :, 0] * 16 + cd[:, :, 1] * 4 + cd[:, :, 2]
    fit_by_pattern = pools.astype(np.int64) @ FIT_MASK.T  # (B, 64)
    fit = np.minimum(np.take_along_axis(fit_by_pattern, pattern, axis=1), FIT_CAP)
    eb = np.minimum(empty_cells * E_BUCKETS // MAX_E, E_BUCKETS - 1)[:, None]
    f3 = OFF_F3 + ((CELL_CLASS[None, :] * 125 + combo) * (FIT_CAP + 1) + fit) * E_BUCKETS + eb
    f3 = np.where(boards == EMPTY, f3, NULL)

    # The five parallel lines of each direction together (the plan for that direction); the
    # half turn reverses their order, so a pattern and its mirror share an entry.
    par = state[:, LINE_OF_DIR]  # (B, 3, 5)
    plan = np.minimum(par @ _POW5, par[:, :, ::-1] @ _POW5)
    f4 = OFF_F4 + (np.arange(3)[None, :] * 5 ** 5 + plan) * E_BUCKETS + eb

    # Per line again, with the spare supply of its value: tiles to come minus the cells of all
    # lines holding that value that still need it (an empty line takes its best value).
    spare = pool_dv - need  # (B, 9)
    spare_line = np.take_along_axis(spare, dv, axis=1)
    spare_empty = spare.reshape(B, 3, 3).max(-1)[:, LINE_DIR]
    spare = np.where(one_value, spare_line, np.where(filled == 0, spare_empty, 0))
    spare = np.clip(spare + 5, 0, SPARE_RANGE - 1)
    f5 = OFF_F5 + ((LINE_CLASS[None, :] * LINE_CODES + code) * SPARE_RANGE + spare) * E_BUCKETS + eb
    return np.concatenate([f1, f2, f3, f4, f5], axis=1)


WEIGHTS_FILE = Path(__file__).with_name("weights.npz")


def load_weights(path: Path = WEIGHTS_FILE) -> np.ndarray:
    with np.load(path) as data:
        w = data["w"].astype(np.float64)
    if w.shape != (N_WEIGHTS,):
        raise ValueError(f"{path} holds {w.shape[0]} weights, the value function needs {N_WEIGHTS}")
    return w
