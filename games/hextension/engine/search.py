"""Expectimax over the tiles still to come, on the learned value of ``value.py``, compiled
with Numba.

``value.features`` evaluates many boards at once with NumPy (training needs that); a search
needs a few hundred thousand boards per placement, one at a time, so ``board_value`` here
computes the same sum (points made + the learned value of the empty cells) for a single
board in a compiled loop, about a microsecond each. The tests check it against the NumPy
features.

The search (``best_placement``):

* every placement of the round's tiles is scored by points + value (depth 0);
* the best ``width1`` of them are scored by the expectation over the next tile (every tile
  that may still come, equally likely) of the best place for it (depth 1);
* when few cells are left (``deep_from`` empty cells or fewer after the placement), the best
  ``width2`` of those are searched two tiles deep: for each next tile, its ``inner`` best
  places (by depth 0) are scored by depth 1, and the best of them counts.

Everything is deterministic: ties go to the earlier placement in the enumeration order.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from . import value as V

EMPTY = V.EMPTY
N_CELLS = V.N_CELLS
N_TILES = V.N_TILES
N_LINES = V.N_LINES

_TV = V.TV.copy()
_LINE_CELLS = V.LINE_CELLS.copy()
_LINE_LEN = V.LINE_LEN.astype(np.int64)
_LINE_DIR = V.LINE_DIR.astype(np.int64)
_LINE_CLASS = V.LINE_CLASS.astype(np.int64)
_CELL_LINE = V.CELL_LINE.copy()
_CELL_CLASS = V.CELL_CLASS.astype(np.int64)
_LINE_OF_DIR = V.LINE_OF_DIR.astype(np.int64)
_VALUE_OF = V.VALUE_OF.copy()
_FIT_MASK = V.FIT_MASK.copy()
_LINE_CODES = V.LINE_CODES
_MAX_E = V.MAX_E
_E_BUCKETS = V.E_BUCKETS
_FIT_CAP = V.FIT_CAP
_SPARE_RANGE = V.SPARE_RANGE
_OFF_F2, _OFF_F3, _OFF_F4, _OFF_F5 = V.OFF_F2, V.OFF_F3, V.OFF_F4, V.OFF_F5


@njit(cache=True)
def pool_stats(pool):
    """What the value needs from the tiles that may come: per (direction, value) how many
    show it (9), and per constraint pattern how many fit it (64)."""
    dv = np.zeros(9, np.int64)
    fit = np.zeros(64, np.int64)
    for t in range(N_TILES):
        if pool[t]:
            for d in range(3):
                dv[d * 3 + _TV[t, d]] += 1
            for p in range(64):
                fit[p] += _FIT_MASK[p, t]
    return dv, fit


@njit(cache=True)
def board_score(board):
    total = 0
    for i in range(N_LINES):
        d = _LINE_DIR[i]
        first = -1
        ok = True
        for k in range(_LINE_LEN[i]):
            t = board[_LINE_CELLS[i, k]]
            if t == EMPTY:
                ok = False
                break
            a = _TV[t, d]
            if first < 0:
                first = a
            elif a != first:
                ok = False
                break
        if ok:
            total += _LINE_LEN[i] * _VALUE_OF[d, first]
    return total


# The extension table (the second value had it; the third and fourth have not): per cell,
# the codes of its three lines together (how far each crossing line is filled, and with which
# value), by symmetry class of the cell and stage of the game. Its entries follow the
# ``value.py`` entries in the weight vector; a vector of ``V.N_WEIGHTS`` entries has none.
OFF_F6 = V.N_WEIGHTS
N_F6 = V.N_CELL_CLASSES * V.LINE_CODES ** 3 * V.E_BUCKETS
N_WEIGHTS_X = OFF_F6 + N_F6
N_FEATURES = V.N_FEATURES + N_CELLS


@njit(cache=True)
def board_value(board, pool_dv, pool_fit, w):
    """Points made on ``board`` plus the learned value of its empty cells, for the tiles that
    may still come summarised by ``pool_stats``. Equal to ``ai._evaluate`` (up to rounding)."""
    feats = np.empty(N_FEATURES, np.int64)
    score, n = board_features(board, pool_dv, pool_fit, feats, w.shape[0] > OFF_F6)
    total = score * 1.0
    for j in range(n):
        total += w[feats[j]]
    return total


@njit(cache=True)
def board_features(board, pool_dv, pool_fit, out, extended):
    """The points made on ``board`` and the indices of its weights (written to ``out``; their
    count is returned, 0 for a full board): ``value.features`` for one board, followed by the
    extension table's when ``extended``."""
    n_empty = 0
    for c in range(N_CELLS):
        if board[c] == EMPTY:
            n_empty += 1
    code = np.empty(N_LINES, np.int64)
    state = np.empty(N_LINES, np.int64)
    demand = np.empty(N_LINES, np.int64)
    one = np.empty(N_LINES, np.bool_)
    dvs = np.empty(N_LINES, np.int64)
    need = np.zeros(9, np.int64)
    filled_of = np.empty(N_LINES, np.int64)
    score = 0
    for i in range(N_LINES):
        d = _LINE_DIR[i]
        c0 = 0
        c1 = 0
        c2 = 0
        for k in range(_LINE_LEN[i]):
            t = board[_LINE_CELLS[i, k]]
            if t != EMPTY:
                a = _TV[t, d]
                if a == 0:
                    c0 += 1
                elif a == 1:
                    c1 += 1
                else:
                    c2 += 1
        filled = c0 + c1 + c2
        distinct = (c0 > 0) + (c1 > 0) + (c2 > 0)
        value = 0
        if c1 > c0:
            value = 1
        if c2 > max(c0, c1):
            value = 2
        filled_of[i] = filled
        dvs[i] = d * 3 + value
        one[i] = distinct == 1
        if filled == 0:
            code[i] = 0
            state[i] = 0
        elif distinct >= 2:
            code[i] = 16
            state[i] = 4
        else:
            code[i] = 1 + value * 5 + filled - 1
            state[i] = 1 + value
        demand[i] = value if distinct == 1 else 3
        if distinct == 1:
            need[d * 3 + value] += _LINE_LEN[i] - filled
            if filled == _LINE_LEN[i]:
                score += _LINE_LEN[i] * _VALUE_OF[d, value]
    if n_empty == 0:
        return score, 0
    for k in range(9):
        if need[k] > 19:
            need[k] = 19
    E = n_empty
    eb = min(E * _E_BUCKETS // _MAX_E, _E_BUCKETS - 1)
    j = 0
    # f1 and f5: per line.
    for i in range(N_LINES):
        d = _LINE_DIR[i]
        if one[i]:
            m = pool_dv[dvs[i]]
            sp = pool_dv[dvs[i]] - need[dvs[i]]
        elif filled_of[i] == 0:
            m = max(pool_dv[d * 3], pool_dv[d * 3 + 1], pool_dv[d * 3 + 2])
            sp = max(pool_dv[d * 3] - need[d * 3], pool_dv[d * 3 + 1] - need[d * 3 + 1],
                     pool_dv[d * 3 + 2] - need[d * 3 + 2])
        else:
            m = 0
            sp = 0
        out[j] = ((_LINE_CLASS[i] * _LINE_CODES + code[i]) * 10 + m) * _MAX_E + E
        j += 1
        sp = min(max(sp + 5, 0), _SPARE_RANGE - 1)
        out[j] = _OFF_F5 + ((_LINE_CLASS[i] * _LINE_CODES + code[i]) * _SPARE_RANGE + sp) * _E_BUCKETS + eb
        j += 1
    # f2: per direction and value.
    for k in range(9):
        out[j] = _OFF_F2 + ((k * 20 + need[k]) * 10 + pool_dv[k]) * _MAX_E + E
        j += 1
    # f3: per empty cell.
    for c in range(N_CELLS):
        if board[c] != EMPTY:
            continue
        l0 = _CELL_LINE[c, 0]
        l1 = _CELL_LINE[c, 1]
        l2 = _CELL_LINE[c, 2]
        combo = state[l0] * 25 + state[l1] * 5 + state[l2]
        pattern = demand[l0] * 16 + demand[l1] * 4 + demand[l2]
        fit = min(pool_fit[pattern], _FIT_CAP)
        out[j] = _OFF_F3 + ((_CELL_CLASS[c] * 125 + combo) * (_FIT_CAP + 1) + fit) * _E_BUCKETS + eb
        j += 1
    # f4: the five parallel lines of each direction.
    for d in range(3):
        fwd = 0
        bwd = 0
        p = 1
        for k in range(5):
            fwd += state[_LINE_OF_DIR[d, k]] * p
            bwd += state[_LINE_OF_DIR[d, 4 - k]] * p
            p *= 5
        out[j] = _OFF_F4 + (d * 3125 + min(fwd, bwd)) * _E_BUCKETS + eb
        j += 1
    if extended:
        for c in range(N_CELLS):
            combo = (code[_CELL_LINE[c, 0]] * _LINE_CODES + code[_CELL_LINE[c, 1]]) * _LINE_CODES + code[_CELL_LINE[c, 2]]
            out[j] = OFF_F6 + (_CELL_CLASS[c] * _LINE_CODES ** 3 + combo) * _E_BUCKETS + eb
            j += 1
    return score, j


@njit(cache=True)
def best_reply_value(board, pool_dv, pool_fit, w, tile):
    """The best depth-0 value of putting ``tile`` on an empty cell of ``board``."""
    best = -1e18
    for c in range(N_CELLS):
        if board[c] == EMPTY:
            board[c] = tile
            v = board_value(board, pool_dv, pool_fit, w)
            board[c] = EMPTY
            if v > best:
                best = v
    return best


@njit(cache=True)
def expect1(board, pool, w):
    """Depth 1: the mean over the next tile of the best depth-0 value after placing it."""
    n = 0
    total = 0.0
    for t in range(N_TILES):
        if not pool[t]:
            continue
        pool[t] = False
        dv, fit = pool_stats(pool)
        total += best_reply_value(board, dv, fit, w, t)
        pool[t] = True
        n += 1
    if n == 0:
        return board_score(board) * 1.0
    return total / n


@njit(cache=True)
def expect2(board, pool, w, inner):
    """Depth 2: the mean over the next tile of the best depth-1 value after placing it,
    among its ``inner`` best places by depth 0."""
    n_empty = 0
    for c in range(N_CELLS):
        if board[c] == EMPTY:
            n_empty += 1
    if n_empty <= 1:
        return expect1(board, pool, w)
    cells = np.empty(N_CELLS, np.int64)
    vals = np.empty(N_CELLS)
    n = 0
    total = 0.0
    for t in range(N_TILES):
        if not pool[t]:
            continue
        pool[t] = False
        dv, fit = pool_stats(pool)
        k = 0
        for c in range(N_CELLS):
            if board[c] == EMPTY:
                board[c] = t
                vals[k] = board_value(board, dv, fit, w)
                board[c] = EMPTY
                cells[k] = c
                k += 1
        order = np.argsort(-vals[:k], kind="mergesort")
        best = -1e18
        for j in range(min(inner, k)):
            c = cells[order[j]]
            board[c] = t
            v = expect1(board, pool, w)
            board[c] = EMPTY
            if v > best:
                best = v
        total += best
        pool[t] = True
        n += 1
    if n == 0:
        return board_score(board) * 1.0
    return total / n


@njit(cache=True)
def best_placement(board, pool, tiles, perms, w, width1, width2, deep_from, inner):
    """The index in ``perms`` (rows of cells, one per tile of ``tiles``) of the placement to
    play, and its depth-0 values (for tests)."""
    m = perms.shape[0]
    q0 = np.empty(m)
    dv, fit = pool_stats(pool)
    for i in range(m):
        for k in range(tiles.shape[0]):
            board[perms[i, k]] = tiles[k]
        q0[i] = board_value(board, dv, fit, w)
        for k in range(tiles.shape[0]):
            board[perms[i, k]] = EMPTY
    n_empty = 0
    for c in range(N_CELLS):
        if board[c] == EMPTY:
            n_empty += 1
    left = n_empty - tiles.shape[0]
    n_pool = 0
    for t in range(N_TILES):
        if pool[t]:
            n_pool += 1
    if left == 0 or n_pool == 0 or m == 1 or width1 <= 0:
        return int(np.argmax(q0)), q0
    order = np.argsort(-q0, kind="mergesort")
    k1 = min(width1, m)
    q1 = np.empty(k1)
    for j in range(k1):
        i = order[j]
        for k in range(tiles.shape[0]):
            board[perms[i, k]] = tiles[k]
        q1[j] = expect1(board, pool, w)
        for k in range(tiles.shape[0]):
            board[perms[i, k]] = EMPTY
    if left > deep_from or width2 <= 0 or left < 2:
        return int(order[np.argmax(q1)]), q0
    order1 = np.argsort(-q1, kind="mergesort")
    k2 = min(width2, k1)
    best, best_i = -1e18, -1
    for j in range(k2):
        i = order[order1[j]]
        for k in range(tiles.shape[0]):
            board[perms[i, k]] = tiles[k]
        v = expect2(board, pool, w, inner)
        for k in range(tiles.shape[0]):
            board[perms[i, k]] = EMPTY
        if v > best or (v == best and i < best_i):
            best, best_i = v, i
    return int(best_i), q0


@njit(cache=True)
def td_games(w, e_sum, a_sum, games, seed, alpha, scores, explore=0.0):
    """Play ``games`` one-tile-per-round games greedily on ``w`` (points + value, depth 0),
    learning from each move by TD(0) with temporal-coherence step sizes: an entry moves by
    ``alpha`` × |sum of its errors| / (sum of their sizes) × the error, spread over the
    entries of the board. ``e_sum`` and ``a_sum`` hold those sums (and carry over between
    calls); the final scores go to ``scores``. Deterministic for a given ``seed``.

    With ``explore`` > 0, that share of the placements goes to an empty cell at random
    instead of the best one. The target of the board before is still the best placement's
    value (the greedy play is what is learned); the random board is learned from what
    follows it. Without exploration a value can settle on a poor plan it never leaves, since
    it never sees the lines it does not try (docs/hextension.md, "Training")."""
    np.random.seed(seed)
    deck = np.arange(N_TILES)
    board = np.empty(N_CELLS, np.int64)
    pool = np.empty(N_TILES, np.bool_)
    prev = np.empty(N_FEATURES, np.int64)
    cur = np.empty(N_FEATURES, np.int64)
    for g in range(games):
        np.random.shuffle(deck)
        board[:] = EMPTY
        pool[:] = True
        n_prev = 0
        prev_val = 0.0
        prev_score = 0
        for step in range(N_CELLS):
            t = deck[step]
            pool[t] = False
            dv, fit = pool_stats(pool)
            best = -1e18
            best_c = -1
            for c in range(N_CELLS):
                if board[c] == EMPTY:
                    board[c] = t
                    v = board_value(board, dv, fit, w)
                    board[c] = EMPTY
                    if v > best:
                        best = v
                        best_c = c
            if explore > 0.0 and np.random.random() < explore:
                k = np.random.randint(N_CELLS - step)  # the k-th empty cell
                for c in range(N_CELLS):
                    if board[c] == EMPTY:
                        if k == 0:
                            best_c = c
                            break
                        k -= 1
            board[best_c] = t
            score, n = board_features(board, dv, fit, cur, w.shape[0] > OFF_F6)
            if n_prev > 0:
                delta = (best - prev_score) - prev_val
                step_size = alpha / n_prev
                for j in range(n_prev):
                    f = prev[j]
                    rate = 1.0
                    if a_sum[f] > 0:
                        rate = abs(e_sum[f]) / a_sum[f]
                    w[f] += step_size * rate * delta
                    e_sum[f] += delta
                    a_sum[f] += abs(delta)
            value = 0.0
            for j in range(n):
                value += w[cur[j]]
                prev[j] = cur[j]
            n_prev = n
            prev_val = value
            prev_score = score
        scores[g] = prev_score
