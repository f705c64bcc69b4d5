"""Hextremadura's solver and hint bot.

- ``solve(config, seed)`` plays a whole game with full knowledge of the shuffle by beam search
  over placements (the old par; the site's par now comes from ``solver.py``, which builds on
  this module's moves and value estimate).
- ``hint(view)`` picks a move from a view only: the first round's unseen order is unknown, so
  it searches the placements of the tiles it can see (the available tiles and, from round 2
  on, the known discovery pile).

Both search over (available tile, face, cell next to the map, distinct rotation), prune with a
value estimate and keep the best few states at each depth (a beam).

The value estimate of a state is, roughly, the expected final score:
- each terrain tile already explored will come back back-up: it counts by how near its
  objective is to being met (objectives are global, so this needs no position);
- each front-up tile on the map counts by how near its two requirements are;
- each front-up tile still to come counts a fixed share.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from .board import Board
from .geometry import DIRECTIONS
from .rules import State, face_choices, legal_cells, score, step
from .tiles import (
    ACORN,
    BACK,
    CROPS,
    FOREST,
    FRONT,
    MONUMENT,
    STORK,
    TERRAIN_TILE_IDS,
    TILES,
    WATER,
    icon_count,
    icon_mask,
)

Bonus = Callable[["State", object, list], float]
KINDS3 = (FOREST, WATER, CROPS)
ICONS3 = (ACORN, STORK, MONUMENT)

# -- weights of the value estimate ---------------------------------------------------------
W_FREED = 1.0  # a terrain tile explored at least once (it will score if its objective is met)
W_OBJ = 1.0  # an objective's progress (0..1)
W_FRONT = 0.6  # a front-up tile on the map, by its requirements' progress (0..1)
W_UNPLACED = 0.55  # a front-up tile not yet placed


# ==========================================================================================
# Value estimate
# ==========================================================================================
def _supply(state: State) -> list[list[int]]:
    """Icons still to come, by (kind, icon): backs in the discovery pile and the explored pile."""
    sup = [[0, 0, 0] for _ in range(3)]
    for tid in state.queue:
        if state.faces_up.get(tid) == BACK:
            _add_icons(sup, tid)
    for tid in state.explored:
        _add_icons(sup, tid)
    return sup


_TILE_ICONS: dict[str, list[tuple[int, int]]] = {}
for _tid in TERRAIN_TILE_IDS:
    _face = TILES[_tid].faces[BACK]
    _TILE_ICONS[_tid] = [(_face.spaces[s], i) for s, i in _face.icons]


def _add_icons(sup, tid):
    for kind, icon in _TILE_ICONS[tid]:
        sup[kind][icon] += 1


def open_roots(board: Board, roots: list[int]) -> set[int]:
    """Terrains with a space at the map's edge: the only ones that can still grow."""
    cells = board.cells
    out = set()
    for slot, p in enumerate(board.slots):
        q, r = p.q, p.r
        base = slot * 6
        for i, (dq, dr) in enumerate(DIRECTIONS):
            if (q + dq, r + dr) not in cells:
                out.add(roots[base + i])
    return out


def _req_progress(board: Board, slot: int, req, opened: set[int]) -> float:
    """0..1 for one requirement of a front-up tile."""
    kind, n, side = req.kind, req.n, req.side
    p = board.slots[slot]
    node = slot * 6 + side
    best = 0.0
    if board.kind[node] == kind:
        root = board.find(node)
        size = board.size[root]
        if size >= n:
            return 1.0
        best = (0.15 + 0.6 * size / n) if root in opened else 0.02
    dq, dr = DIRECTIONS[side]
    other_slot = board.cells.get((p.q + dq, p.r + dr))
    if other_slot is None:
        # a tile may still come to that side, bringing a terrain of the kind
        return max(best, 0.3)
    other = other_slot * 6 + (side + 3) % 6
    if board.kind[other] == kind:
        root = board.find(other)
        size = board.size[root]
        if size >= n:
            return 1.0
        return max(best, (0.15 + 0.6 * size / n) if root in opened else 0.02)
    if board.slots[other_slot].face == FRONT:
        best = max(best, 0.08)  # blocked until that neighbour leaves
    return best


def front_progress(board: Board, slot: int, opened: set[int]) -> float:
    """0..1: how near a front-up tile's two requirements are to being met."""
    a, b = board.slots[slot].oriented.requirements
    return _req_progress(board, slot, a, opened) * _req_progress(board, slot, b, opened)


def objective_progress(analysis, objective, supply) -> float:
    """0..1: 1 when met; else a rough chance from what the map holds and what is to come."""
    if analysis.objective_met(objective):
        return 1.0
    fam = objective.family
    holders = analysis.holders
    mask = analysis.mask
    if fam == "trio":
        k = objective.kind
        best = 0
        best_missing = 7
        for icon in ICONS3:
            for r in holders[k][icon]:
                m = mask[r]
                n = (m & 1) + (m >> 1 & 1) + (m >> 2 & 1)
                if n > best:
                    best, best_missing = n, 7 & ~m
        feasible = all(supply[k][i] or len(holders[k][i]) > 0 for i in ICONS3 if best_missing >> i & 1)
        return (0.15 + 0.2 * best) if feasible else 0.05 * best
    if fam == "scatter":
        k, i = objective.kind, objective.icons[0]
        c = len(holders[k][i])
        return (0.15 + 0.25 * c) if c + supply[k][i] >= 3 else 0.05 * c
    if fam == "triad":
        i = objective.icons[0]
        present = [bool(holders[k][i]) for k in KINDS3]
        n = sum(present)
        adj_pairs = 0
        if n >= 2:
            # best number of adjacent pairs among one holder of each present kind
            lists = [holders[k][i] for k in KINDS3 if holders[k][i]]
            adj = analysis.icon_adj
            if n == 2:
                adj_pairs = int(any(((a, b) if a < b else (b, a)) in adj for a in lists[0] for b in lists[1]))
            else:
                for a in lists[0]:
                    for b in lists[1]:
                        ab = ((a, b) if a < b else (b, a)) in adj
                        for c in lists[2]:
                            cnt = ab + (((a, c) if a < c else (c, a)) in adj) + (((b, c) if b < c else (c, b)) in adj)
                            if cnt > adj_pairs:
                                adj_pairs = cnt
        feasible = all(present[j] or supply[k][i] for j, k in enumerate(KINDS3))
        base = 0.1 + 0.1 * n + 0.12 * adj_pairs
        return base if feasible else 0.3 * base
    if fam == "pair":
        i, j = objective.icons
        hi = any(holders[k][i] for k in KINDS3)
        hj = any(holders[k][j] for k in KINDS3)
        si = any(supply[k][i] for k in KINDS3)
        sj = any(supply[k][j] for k in KINDS3)
        if not ((hi or si) and (hj or sj)):
            return 0.0
        return 0.3 + 0.15 * hi + 0.15 * hj
    raise ValueError(fam)


def evaluate(state: State, bonus: Bonus | None = None) -> float:
    """The value estimate (about the expected final score); exact when the game is over.
    ``bonus`` adds a quest's progress, for searches that aim at a quest."""
    board = state.board
    roots = board.roots()
    analysis = board.analysis(roots)
    extra = bonus(state, analysis, roots) if bonus is not None else 0.0
    if state.over:
        return float(score(board, analysis)) + extra
    faces_up = state.faces_up
    supply = _supply(state)
    value = extra
    # terrain tiles explored at least once count by their objectives' progress
    explored = state.explored
    for tid in TERRAIN_TILE_IDS:
        if faces_up[tid] == BACK or tid in explored:
            value += W_FREED * 0.5 + W_OBJ * 0.5 * objective_progress(analysis, _OBJECTIVES[tid], supply)
    opened = None
    for slot, p in enumerate(board.slots):
        if p.face == FRONT:
            if opened is None:
                opened = open_roots(board, roots)
            value += W_FRONT * front_progress(board, slot, opened)
    for tid in state.queue:
        if faces_up[tid] == FRONT:
            value += W_UNPLACED
    return value


_OBJECTIVES = {tid: TILES[tid].faces[BACK].objective for tid in TERRAIN_TILE_IDS}


# ==========================================================================================
# Quest progress (for searches that aim at a discover quest)
# ==========================================================================================
def _members(roots: list[int]) -> dict[int, list[int]]:
    members: dict[int, list[int]] = {}
    for x, r in enumerate(roots):
        members.setdefault(r, []).append(x)
    return members


def garganta_progress(state: State, analysis, roots) -> float:
    """0..1: the largest water terrain against the 28 spaces asked."""
    b = state.board
    best = max((b.size[r] for r in set(roots) if b.kind[r] == WATER), default=0)
    return min(best, 28) / 28


def monfrague_progress(state: State, analysis, roots) -> float:
    """0..1: the best thin water terrain holding storks and acorns, and what lies around it."""
    b = state.board
    members = None
    best = 0.0
    cand = set(analysis.holders[WATER][STORK]) | set(analysis.holders[WATER][ACORN])
    if not cand:
        return 0.0
    members = _members(roots)
    adj: dict[int, set[int]] = {}
    for a, c in b.edges:
        ra, rc = roots[a], roots[c]
        if ra in cand:
            adj.setdefault(ra, set()).add(rc)
        if rc in cand:
            adj.setdefault(rc, set()).add(ra)
    for r in cand:
        thick = sum(
            1 for x in members[r] if sum(1 for y in b.node_neighbours(x) if roots[y] == r) > 2
        )
        own = min(2, icon_count(b.icons[r], STORK)) + min(2, icon_count(b.icons[r], ACORN))
        around = adj.get(r, ())
        s = min(3, sum(icon_count(b.icons[a], STORK) for a in around))
        a_ = min(2, sum(icon_count(b.icons[a], ACORN) for a in around))
        p = (own / 4) * 0.5 + ((s + a_) / 5) * 0.5
        p *= 1.0 if thick == 0 else 0.5 / thick
        best = max(best, p)
    return best


def barruecos_progress(state: State, analysis, roots) -> float:
    """0..1: the best forest holding icons, by its icons, how far water surrounds it, and the
    icons of that water."""
    b = state.board
    forests = {r for i in ICONS3 for r in analysis.holders[FOREST][i]}
    if not forests:
        return 0.0
    members = _members(roots)
    best = 0.0
    for r in forests:
        k = bin(analysis.mask[r]).count("1")
        water: dict[int, int] = {}
        bad = 0
        edge = 0
        for x in members[r]:
            slot, i = divmod(x, 6)
            p = b.slots[slot]
            dq, dr = DIRECTIONS[i]
            if (p.q + dq, p.r + dr) not in b.cells:
                edge += 1
            for y in b.node_neighbours(x):
                ry = roots[y]
                if ry == r:
                    continue
                if b.kind[y] == WATER:
                    water[ry] = water.get(ry, 0) + 1
                else:
                    bad += 1
        main = max(water, key=water.get) if water else None
        touching = sum(water.values()) + bad
        enclosed = (water[main] / (touching + edge)) if main is not None else 0.0
        wk = bin(icon_mask(b.icons[main])).count("1") if main is not None else 0
        best = max(best, 0.4 * k / 3 + 0.4 * enclosed + 0.2 * wk / 3)
    return best


QUEST_PROGRESS = {
    "garganta": garganta_progress,
    "monfrague": monfrague_progress,
    "barruecos": barruecos_progress,
}


# How much a quest's progress weighs against the score, by quest: Los Barruecos asks for a shape
# (a forest ringed by water) that the score alone never leads to.
QUEST_WEIGHTS = {"garganta": 1.0, "monfrague": 1.0, "barruecos": 4.0}


def quest_bonus(quest: str, weight: float | None = None) -> Bonus:
    """A bonus for ``evaluate``: the quest's progress and a prize when its terrain is there,
    from round 2 on (the final map is built of back-up tiles)."""
    progress = QUEST_PROGRESS[quest]
    weight = QUEST_WEIGHTS[quest] if weight is None else weight
    check = {
        "garganta": lambda a: a.garganta_terrain(),
        "monfrague": lambda a: a.monfrague_terrain(),
        "barruecos": lambda a: a.barruecos_terrain(),
    }[quest]

    def bonus(state: State, analysis, roots) -> float:
        if state.round == 1 or state.board.is_empty():
            return 0.0
        return weight * (progress(state, analysis, roots) + (1.0 if check(analysis) else 0.0))

    return bonus


# ==========================================================================================
# Search
# ==========================================================================================
Move = tuple  # (tile, q, r, rotation, face)


def move_json(m: Move) -> dict:
    tile, q, r, rotation, face = m
    out = {"type": "place", "tile": tile, "q": q, "r": r, "rotation": rotation}
    if TILES[tile].river:
        out["face"] = face
    return out


def candidate_moves(state: State, tiles: list[str] | None = None) -> list[Move]:
    """Every distinct placement: (available tile, face, cell, rotation up to the face's symmetry)."""
    cells = legal_cells(state.board)
    out = []
    for tile in tiles if tiles is not None else state.available:
        for face in face_choices(state, tile):
            sym = TILES[tile].faces[face].symmetry
            for q, r in cells:
                for rot in range(sym):
                    out.append((tile, q, r, rot, face))
    return out


def child(state: State, m: Move) -> State:
    c = state.copy()
    tile, q, r, rot, face = m
    step(c, tile, (q, r), rot, face)
    return c


def _key(state: State) -> tuple:
    return (
        frozenset((p.tile, p.q, p.r, p.rotation, p.face) for p in state.board.slots),
        tuple(state.queue),
        tuple(state.explored),
    )


@dataclass
class Node:
    state: State
    moves: list
    value: float


def beam_step(beam: list[Node], width: int, per_parent: int, bonus: Bonus | None = None) -> list[Node]:
    """Expand every state of the beam by every placement; keep the best ``width`` (at most
    ``per_parent`` from one parent, and no state twice)."""
    seen = set()
    pool: list[Node] = []
    for node in beam:
        if node.state.over:
            pool.append(node)
            continue
        kids = []
        for m in candidate_moves(node.state):
            c = child(node.state, m)
            kids.append((evaluate(c, bonus), m, c))
        kids.sort(key=lambda t: -t[0])
        taken = 0
        for v, m, c in kids:
            k = _key(c)
            if k in seen:
                continue
            seen.add(k)
            pool.append(Node(c, node.moves + [m], v))
            taken += 1
            if taken >= per_parent:
                break
    pool.sort(key=lambda n: -n.value)
    return pool[:width]


def beam_search(
    state: State,
    width: int = 8,
    per_parent: int | None = None,
    max_depth: int | None = None,
    bonus: Bonus | None = None,
    deadline: float | None = None,
) -> Node:
    """Search to the end of the game (or ``max_depth`` placements, or until the clock passes
    ``deadline``, a ``time.perf_counter()`` value, after at least one step); return the best
    node."""
    per_parent = per_parent or max(2, width // 2)
    beam = [Node(state, [], evaluate(state, bonus))]
    depth = 0
    while not all(n.state.over for n in beam) and (max_depth is None or depth < max_depth):
        if deadline is not None and depth and time.perf_counter() > deadline:
            break
        beam = beam_step(beam, width, per_parent, bonus)
        depth += 1
    return max(beam, key=lambda n: n.value)


PAR_WIDTH = 12


def solve(config: dict | None, seed, width: int = PAR_WIDTH, quest: str | None = None) -> tuple[int, list[dict]]:
    """Play the seeded game with full knowledge of the shuffle (the daily puzzle's par, computed
    server-side); return (score, moves). ``quest`` aims the search at a discover quest too."""
    from . import new_state

    return solve_state(new_state(config, seed), width, quest)


def solve_state(state: State, width: int = PAR_WIDTH, quest: str | None = None) -> tuple[int, list[dict]]:
    bonus = quest_bonus(quest) if quest else None
    best = beam_search(state, width, bonus=bonus)
    return score(best.state.board), [move_json(m) for m in best.moves]


# ==========================================================================================
# Hints: from a view only
# ==========================================================================================
def state_from_view(view: dict, rng: random.Random | None = None) -> tuple[State, int]:
    """Rebuild a state from a view. In round 1 the tiles not seen yet go below the pile's top in
    an order drawn from ``rng`` (the view does not hold it); returns (state, known), where the
    first ``known`` tiles of the queue are the ones the view shows."""
    from .board import placed

    board = Board()
    faces_up: dict[str, str] = {}
    for t in TILES.values():
        faces_up[t.id] = "a" if t.river else FRONT
    for entry in sorted(view["map"], key=lambda e: e.get("seq", 0)):
        board.place(placed(entry["tile"], (entry["q"], entry["r"]), entry["rotation"], entry["face"], entry.get("seq", 0)))
        faces_up[entry["tile"]] = entry["face"]
    queue = [a["tile"] for a in view["available"]]
    for a in view["available"]:
        faces_up[a["tile"]] = a["face"]
    below = view["discovery"]["below_top"]
    explored = [e["tile"] for e in view["explored"]]
    for e in view["explored"]:
        faces_up[e["tile"]] = e["face"]
    if below is not None:
        for b in below:
            faces_up[b["tile"]] = b["face"]
        queue += [b["tile"] for b in below]
        known = len(queue)
    else:
        known = len(queue)
        seen = set(queue) | set(explored) | {e["tile"] for e in view["map"]}
        unseen = [t for t in TILES if t not in seen]
        (rng or random.Random(0)).shuffle(unseen)
        queue += unseen
    state = State(
        seed=None,
        board=board,
        queue=queue,
        faces_up=faces_up,
        explored=explored,
        round=view["round"],
        turn=view["turn"],
        over=view["over"],
    )
    return state, known


HINT_BUDGET_S = 0.8
AI_LEVELS = ("hint",)


def choose_move(view: dict, level: str = "hint") -> dict:
    """The protocol's entry point: the hint player's move (a solo game has no AI seats, but
    tools and the conformance test play through it)."""
    if level not in AI_LEVELS:
        raise ValueError(f"unknown level {level!r}; known: {', '.join(AI_LEVELS)}")
    return hint(view)


def hint(view: dict, budget_s: float = HINT_BUDGET_S) -> dict:
    """The move the solver would play, decided from the view alone."""
    if view["over"]:
        raise ValueError("the game is over")
    state, known = state_from_view(view)
    started = time.perf_counter()
    if known >= len(state.queue):
        # Everything to come is known (round 2 on, or the end of round 1): a beam over the
        # rest of the game, cut short by the clock. One step of a beam of width w costs about
        # w * (placements) * 60 us.
        per_step = max(len(candidate_moves(state)), 1) * 6e-5
        width = max(1, min(6, int(budget_s / (4 * per_step))))
        best = beam_search(state, width=width, deadline=started + budget_s - 1.5 * width * per_step)
        return move_json(best.moves[0])
    # Round 1: only the available tiles are known. Try every placement; for the best few,
    # add the best placement of the other available tile (it stays available).
    moves = candidate_moves(state)
    scored = []
    for m in moves:
        c = child(state, m)
        scored.append((evaluate(c), m, c))
    scored.sort(key=lambda t: -t[0])
    best_move, best_value = scored[0][1], float("-inf")
    for v1, m, c in scored[:12]:
        if time.perf_counter() - started > budget_s:
            break
        others = [t for t in state.available if t != m[0]]
        if c.over or not others or others[0] not in c.available:
            v = v1
        else:
            v = max((evaluate(child(c, m2)) for m2 in candidate_moves(c, others)), default=v1)
        if v > best_value:
            best_move, best_value = m, v
    return move_json(best_move)
