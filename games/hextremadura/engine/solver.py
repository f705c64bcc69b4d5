"""Hextremadura's par solver: find the best game of a shuffle and, when it can, prove it.

``solve(seed, budget_s)`` returns a :class:`Par`: the score, whether it is *proved* the best
the shuffle allows, the upper bound it holds, and the solver's placements (a legal game that
replays to that score).

How (``docs/hextremadura.md``, "Par solver"):

- **Upper bound** (``upper_bound``): the final score counts the back-up terrain tiles whose
  objective is met. A terrain tile can only end back up if it is back up already, or waits
  in a pile back up, or is a front whose two requirements can still be met; a requirement is
  dead when neither space on its side can ever reach the kind and size asked (a wrong kind
  held by a tile that never leaves, or a terrain closed in by such tiles and too small). An
  objective is dead when the icons it needs are not all on tiles that can still end back up,
  or are already joined for good (a scatter's icons in one terrain of tiles that never
  leave), or lie in closed terrains that miss the rest (a trio). The bound is the number of
  terrain tiles that can end back up with an objective still alive. It is exact at the end.
- **Finding** (``find``): beams of growing width (iterative deepening of the budget) over
  every distinct placement, scored by ``ai.evaluate``; states whose bound cannot beat the
  best score found go to the back of the beam, at most half a beam from one parent, no
  state twice (a transposition table keyed by the map and the piles), and from the second
  pass on a little noise in the scores so that each pass explores other games.
- **Proving**: a 15 is proved by being found. Below 15, an exhaustive depth-first
  branch-and-bound (``prove``) cuts every branch whose bound is not above the best found,
  skips positions already searched (the same table), and proves the par when it ends
  within the budget.

Time is CPU time of this process (``time.process_time``), so a budget means the same on a
loaded machine.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from .board import Board
from .geometry import DIRECTIONS
from .rules import MAX_SCORE, State, new_state, score, step
from .tiles import ACORN, BACK, FRONT, MONUMENT, STORK, TERRAIN_TILE_IDS, TILES, WATER, CROPS, FOREST
from . import ai

DEFAULT_BUDGET_S = 60.0
ICONS3 = (ACORN, STORK, MONUMENT)
KINDS3 = (FOREST, WATER, CROPS)

# (kind of the space, icon) of every icon on each terrain tile's back
_CARRIERS: dict[str, list[tuple[int, int, int]]] = {}  # tile -> [(space, kind, icon)]
for _tid in TERRAIN_TILE_IDS:
    _back = TILES[_tid].faces[BACK]
    _CARRIERS[_tid] = [(s, _back.spaces[s], i) for s, i in _back.icons]
_OBJECTIVES = {tid: TILES[tid].faces[BACK].objective for tid in TERRAIN_TILE_IDS}


# ==========================================================================================
# Upper bound
# ==========================================================================================
def _permanent_board(board: Board, stuck: set[int] = frozenset()) -> Board:
    """The map without its front-up tiles (river and back-up tiles never leave), but with the
    fronts in ``stuck`` (slots of fronts that can never be explored, so never leave)."""
    perm = Board()
    for slot, p in enumerate(board.slots):
        if p.face != FRONT or slot in stuck:
            perm.place(p)
    return perm


def _closed_roots(perm: Board) -> tuple[list[int], set[int]]:
    """Every node's root on the permanent map, and the roots of terrains closed in: every
    space of them has a permanent tile across its side, so nothing can join them ever."""
    roots = perm.roots()
    cells = perm.cells
    open_ = set()
    for slot, p in enumerate(perm.slots):
        base = slot * 6
        for i, (dq, dr) in enumerate(DIRECTIONS):
            if (p.q + dq, p.r + dr) not in cells:
                open_.add(roots[base + i])
    closed = {r for r in set(roots) if r not in open_}
    return roots, closed


def _requirement_dead(board: Board, slot: int, req, perm: Board, perm_roots: list[int], closed: set[int]) -> bool:
    """True when the front-up tile in ``slot`` can never meet ``req``: its own space on that
    side is of another kind, and the space across is held for good by a tile of another kind,
    or by a closed terrain too small."""
    kind, n, side = req.kind, req.n, req.side
    if board.kind[slot * 6 + side] == kind:
        return False
    p = board.slots[slot]
    dq, dr = DIRECTIONS[side]
    other = perm.cells.get((p.q + dq, p.r + dr))
    if other is None:  # empty, or a front that may leave
        return False
    node = other * 6 + (side + 3) % 6
    if perm.kind[node] != kind:
        return True
    root = perm_roots[node]
    return root in closed and perm.size[root] < n


def live_tiles(state: State) -> tuple[set[str], tuple]:
    """Terrain tiles that can still end the game back up on the map, and the permanent map
    (board, roots, closed roots) they were judged on. A front that can never be explored
    never leaves either, so it joins the permanent map and the fronts are judged again."""
    board = state.board
    fronts = [slot for slot, p in enumerate(board.slots) if p.face == FRONT]
    stuck: set[int] = set()
    while True:
        perm_board = _permanent_board(board, stuck)
        perm_roots, closed = _closed_roots(perm_board)
        new = {
            slot for slot in fronts if slot not in stuck and any(
                _requirement_dead(board, slot, req, perm_board, perm_roots, closed)
                for req in board.slots[slot].oriented.requirements)
        }
        if not new:
            break
        stuck |= new
    live = {tid for tid in TERRAIN_TILE_IDS if not state.over}  # in a pile, or a front to come
    for slot, p in enumerate(board.slots):
        if p.tile in live and (slot in stuck or (p.face == FRONT and state.over)):
            live.discard(p.tile)
    if state.over:
        live = {p.tile for p in board.slots if p.face == BACK}
    return live, (perm_board, perm_roots, closed)


def upper_bound(state: State) -> int:
    """A score no continuation of ``state`` can beat (exact when the game is over)."""
    board = state.board
    if state.over:
        return score(board)
    live, (perm, perm_roots, closed) = live_tiles(state)
    # carriers: (kind, icon) -> where each icon of a live tile lies: None while in a pile (or a
    # front, to come), else its terrain on the permanent map
    perm_slot = {p.tile: s for s, p in enumerate(perm.slots)}
    carriers: dict[tuple[int, int], list] = {}
    for tid in live:
        ps = perm_slot.get(tid)
        for space, kind, icon in _CARRIERS[tid]:
            if ps is None:
                where = None
            else:
                where = perm_roots[_icon_node(perm, ps, space)]
            carriers.setdefault((kind, icon), []).append(where)

    def distinct(places) -> int:
        return sum(1 for w in places if w is None) + len({w for w in places if w is not None})

    def alive(obj) -> bool:
        fam = obj.family
        if fam == "scatter":
            return distinct(carriers.get((obj.kind, obj.icons[0]), ())) >= 3
        if fam == "trio":
            k = obj.kind
            for r in closed:
                if perm.kind[r] == k and _mask(perm.icons[r]) == 7:
                    return True
            for icon in ICONS3:
                places = [w for w in carriers.get((k, icon), ()) if w is None or w not in closed]
                if not places:
                    return False
            return True
        if fam == "triad":
            i = obj.icons[0]
            return all(carriers.get((k, i)) for k in KINDS3)
        if fam == "pair":
            i, j = obj.icons
            pi = [w for k in KINDS3 for w in carriers.get((k, i), ())]
            if i == j:
                return distinct(pi) >= 2
            pj = [w for k in KINDS3 for w in carriers.get((k, j), ())]
            return bool(pi) and bool(pj)
        raise ValueError(fam)

    return sum(1 for tid in live if alive(_OBJECTIVES[tid]))


def _mask(packed: int) -> int:
    return (1 if packed & 0xFF else 0) | (2 if packed & 0xFF00 else 0) | (4 if packed & 0xFF0000 else 0)


def _icon_node(perm: Board, slot: int, space: int) -> int:
    """The node holding a back face's icon once turned by the tile's rotation."""
    rotation = perm.slots[slot].rotation
    return slot * 6 + (space + rotation) % 6


# ==========================================================================================
# Finding: beams of growing width
# ==========================================================================================
@dataclass
class Par:
    score: int
    proved: bool
    bound: int
    moves: list[dict]
    seconds: float = 0.0
    passes: list[tuple[int, int]] = field(default_factory=list)  # (width, score) of each beam pass

    def to_json(self) -> dict:
        return {"score": self.score, "proved": self.proved, "bound": self.bound, "moves": self.moves}


class _Table:
    """The transposition table: bounds by position, and positions searched by ``prove``."""

    def __init__(self) -> None:
        self.bounds: dict[tuple, int] = {}
        self.done: set[tuple] = set()

    def bound(self, state: State, key: tuple | None = None) -> int:
        key = key if key is not None else ai._key(state)
        b = self.bounds.get(key)
        if b is None:
            b = self.bounds[key] = upper_bound(state)
        return b


def _beam_pass(root: State, width: int, target: int, table: _Table, rng: random.Random | None,
               deadline: float) -> tuple[int, list] | None:
    """One beam over the whole game; states whose bound is below ``target`` only fill the
    beam when too few others are left. Returns (score, moves) or None past the deadline."""
    per_parent = max(2, width // 2)
    beam = [(0.0, root, [])]
    finished: list[tuple[int, list]] = []
    noise = 0.08 if rng is not None else 0.0
    while beam:
        if time.process_time() > deadline:
            return None
        seen = set()
        pool = []
        for _, state, moves in beam:
            kids = []
            for m in ai.candidate_moves(state):
                c = ai.child(state, m)
                v = ai.evaluate(c)
                if noise:
                    v += rng.gauss(0.0, noise)
                kids.append((v, m, c))
            kids.sort(key=lambda t: -t[0])
            taken = 0
            for v, m, c in kids:
                k = ai._key(c)
                if k in seen:
                    continue
                seen.add(k)
                pool.append((v, c, moves + [m], k))
                taken += 1
                if taken >= per_parent:
                    break
        pool.sort(key=lambda t: -t[0])
        nxt = []
        weak = []
        for v, c, moves, k in pool:
            if len(nxt) >= width:
                break
            if table.bound(c, k) < target:
                weak.append((v, c, moves))
                continue
            nxt.append((v, c, moves))
        if len(nxt) < width:
            nxt += weak[: width - len(nxt)]
        beam = []
        for v, c, moves in nxt:
            if c.over:
                finished.append((score(c.board), moves))
            else:
                beam.append((v, c, moves))
        if finished and max(s for s, _ in finished) >= MAX_SCORE:
            break
    best = max(finished, key=lambda t: t[0])
    return best


WIDTHS = (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64)


def find(root: State, budget_s: float, table: _Table | None = None, seed: int = 0,
         stop_at: int | None = None) -> tuple[int, list, list[tuple[int, int]]]:
    """Beams of growing width until the budget is spent or ``stop_at`` (the root's bound) is
    reached. Returns (best score, its moves as tuples, the passes made)."""
    table = table or _Table()
    started = time.process_time()
    deadline = started + budget_s
    stop_at = MAX_SCORE if stop_at is None else stop_at
    best_score, best_moves = -1, []
    passes = []
    last_cost = None
    for i, width in enumerate(WIDTHS):
        now = time.process_time()
        if now > deadline and passes:
            break
        if last_cost is not None and now + last_cost * 1.2 > deadline and passes:
            break  # the next, wider pass would not end in time
        rng = random.Random(f"{seed}:{i}") if i else None
        t0 = time.process_time()
        # the first pass always ends (a par needs a game), the others only within the budget
        got = _beam_pass(root, width, max(best_score + 1, 0) if best_score >= 0 else stop_at, table, rng,
                         deadline if passes else float("inf"))
        if got is None:
            break
        cost = time.process_time() - t0
        last_cost = cost * (WIDTHS[i + 1] / width if i + 1 < len(WIDTHS) else 2)
        s, moves = got
        passes.append((width, s))
        if s > best_score:
            best_score, best_moves = s, moves
        if best_score >= stop_at:
            break
    return best_score, best_moves, passes


# ==========================================================================================
# Proving: exhaustive branch-and-bound
# ==========================================================================================
class _OutOfTime(Exception):
    pass


def prove(root: State, best: int, best_moves: list, budget_s: float, table: _Table | None = None
          ) -> tuple[bool, int, list]:
    """Search every continuation whose bound beats ``best``. Returns (complete, best, moves):
    when complete, no game of ``root`` scores more than the best returned."""
    table = table or _Table()
    deadline = time.process_time() + budget_s
    state_best = [best, best_moves]
    counter = [0]

    def dfs(state: State, moves: list) -> None:
        if state.over:
            s = score(state.board)
            if s > state_best[0]:
                state_best[0], state_best[1] = s, list(moves)
            return
        key = ai._key(state)
        if key in table.done:
            return
        if table.bound(state, key) <= state_best[0]:
            return
        counter[0] += 1
        if counter[0] % 16 == 0 and time.process_time() > deadline:
            raise _OutOfTime
        kids = []
        for m in ai.candidate_moves(state):
            c = ai.child(state, m)
            kids.append((ai.evaluate(c), m, c))
        kids.sort(key=lambda t: -t[0])
        for _, m, c in kids:
            moves.append(m)
            dfs(c, moves)
            moves.pop()
            if state_best[0] >= table.bound(state, key):
                break
        table.done.add(key)

    try:
        dfs(root, [])
    except _OutOfTime:
        return False, state_best[0], state_best[1]
    return True, state_best[0], state_best[1]


# ==========================================================================================
# The par of a shuffle
# ==========================================================================================
def solve_state(root: State, budget_s: float = DEFAULT_BUDGET_S, find_share: float = 0.75, seed: int = 0) -> Par:
    """The par of ``root``: beams for ``find_share`` of the budget (they stop at a proved
    15), then branch-and-bound for the rest when the best found is below the bound."""
    started = time.process_time()
    table = _Table()
    bound = table.bound(root)
    best, moves, passes = find(root, budget_s * find_share, table, seed=seed, stop_at=bound)
    proved = best >= bound
    if not proved:
        left = budget_s - (time.process_time() - started)
        if left > 0:
            complete, best2, moves2 = prove(root, best, moves, left, table)
            if best2 > best:
                best, moves = best2, moves2
            if complete:
                proved, bound = True, best
    return Par(best, proved, bound, [ai.move_json(m) for m in moves], time.process_time() - started, passes)


def solve(seed, budget_s: float = DEFAULT_BUDGET_S, config: dict | None = None) -> Par:
    """The par of a seeded shuffle (full knowledge of the shuffle: server-side only)."""
    return solve_state(new_state(seed), budget_s)
