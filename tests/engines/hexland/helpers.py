"""Fixed boards and position builders for the Hexland tests.

Positions are built with the engine's own placement helpers on a private copy, so every
derived field (blocked corners, reach, frontier, road lengths, harbour rates, points) is what
the engine itself would hold.  Hex ids run row by row from the top (rows of 3, 4, 5, 4, 3);
see games/hexland/engine/board.py for node and edge ids.
"""
from __future__ import annotations

from itertools import combinations

from games.hexland import engine as H
from games.hexland.engine import rules
from games.hexland.engine.board import EDGE_NODES, NUM_EDGES, RES_INDEX
from games.hexland.engine.state import DEV_INDEX, MAIN, ROLL, rand_below

# hex:      0       1        2       3       4        5       6       7       8       9
BOARD = {"resources": ["ore", "sheep", "wood", "wheat", "brick", "sheep", "brick", "wheat",
                       "wood", "desert", "wood", "ore", "wood", "ore", "wheat", "sheep",
                       "brick", "wheat", "sheep"],
         #           10      11      12     13      14       15      16       17       18
         "numbers": [10, 2, 9, 12, 6, 4, 10, 9, 11, None, 3, 8, 8, 3, 4, 5, 5, 6, 11],
         "harbours": ["any", "wood", "brick", "any", "sheep", "any", "wheat", "ore", "any"]}
NAMES = ["Ana", "Bo", "Cy", "Di"]


def config(players: int = 4, **extra) -> dict:
    return {"players": players, "layout": "fixed", "board": BOARD,
            "order": list(range(players)), "names": NAMES[:players], **extra}


def new(players: int = 4, seed="test", **extra):
    return H.new_state(config(players, **extra), seed)


def edge(a: int, b: int) -> int:
    return EDGE_NODES.index((min(a, b), max(a, b)))


def position(players: int = 3, settlements=None, roads=None, cities=None, hands=None,
             devs=None, cur: int = 0, rolled: bool = True, seed="test", **extra):
    """A main-phase position.  ``roads`` entries are edge ids or (node, node) pairs."""
    s = new(players, seed, **extra).copy()
    s.phase = MAIN if rolled else ROLL
    s.turn, s.step, s.cur, s.rolled = 1, 2 * players, cur, rolled
    for p, nodes in (settlements or {}).items():
        for x in nodes:
            rules._put_settlement(s, p, x)
    for p, es in (roads or {}).items():
        for e in es:
            rules._put_road(s, p, edge(*e) if isinstance(e, tuple) else e)
    for p, nodes in (cities or {}).items():
        for x in nodes:
            s.bld = s.bld[:]
            s.bld[x] = p + 4
            s.pieces[p * 3] += 1
            s.pieces[p * 3 + 1] -= 1
            s.vp[p] += 1
    for p, cards in (hands or {}).items():
        s = give(s, p, **cards)
    for p, cards in (devs or {}).items():
        s.deck = s.deck[:]
        for name, k in cards.items():
            for _ in range(k):
                s.deck.remove(DEV_INDEX[name])
                s.dev[p * 5 + DEV_INDEX[name]] += 1
    return s


def give(s, p: int, **cards):
    """A copy of ``s`` where seat ``p`` took ``cards`` from the bank."""
    s = s.copy()
    for name, k in cards.items():
        r = RES_INDEX[name]
        assert s.bank[r] >= k, "the bank lacks the cards for this position"
        s.bank[r] -= k
        s.hand[p * 5 + r] += k
    return s


def hand(s, p: int) -> dict:
    return {name: s.hand[p * 5 + r] for name, r in RES_INDEX.items() if s.hand[p * 5 + r]}


def next_roll(s, total: int, d1: int | None = None):
    """A copy of ``s`` whose random stream makes the next roll sum to ``total``."""
    s = s.copy()
    for k in range(10_000):
        probe = s.copy()
        probe.rng = k
        a, b = rand_below(probe, 6) + 1, rand_below(probe, 6) + 1
        if a + b == total and (d1 is None or a == d1):
            s.rng = k
            return s
    raise AssertionError("no stream value found")


def play(s, _seat, _type: str, /, **fields):
    return H.apply(s, _seat, {"type": _type, **fields})


def snapshot(s) -> dict:
    """Every field of a state (log as its event list), for equality checks."""
    out = {}
    for name in type(s).__slots__:
        v = getattr(s, name)
        if name == "g":
            v = (v.board.to_config(), v.order, v.names, v.vp_to_win)
        elif name == "log":
            events = []
            while v is not None:
                events.append(v[0])
                v = v[1]
            v = events
        elif isinstance(v, list):
            v = list(v)
        out[name] = v
    return out


def brute_longest_road(road: list, bld: list, p: int) -> int:
    """Longest trail by brute force over edge subsets: a subset is one trail that never
    passes through an opponent's corner iff it is connected and either has two odd corners
    with every blocked corner a dead end, or none at all with at most one blocked corner,
    of degree 2 (the loop starts and ends there)."""
    edges = [e for e in range(NUM_EDGES) if road[e] == p]
    blocked = {x for x in range(len(bld)) if bld[x] != -1 and bld[x] & 3 != p}
    best = 0
    for comp in _components(edges):
        for k in range(len(comp), best, -1):
            if any(_is_trail(sub, blocked) for sub in combinations(comp, k)):
                best = k
                break
    return best


def _components(edges):
    comps = []
    left = set(edges)
    while left:
        e = left.pop()
        comp, todo = [e], [e]
        while todo:
            a, b = EDGE_NODES[todo.pop()]
            for f in list(left):
                if set(EDGE_NODES[f]) & {a, b}:
                    left.discard(f)
                    comp.append(f)
                    todo.append(f)
        comps.append(comp)
    return comps


def _is_trail(sub, blocked) -> bool:
    deg: dict = {}
    for e in sub:
        for x in EDGE_NODES[e]:
            deg[x] = deg.get(x, 0) + 1
    if len(_components(list(sub))) != 1:
        return False
    odd = [x for x, d in deg.items() if d % 2]
    stops = [x for x in deg if x in blocked]
    if len(odd) == 2:
        return all(deg[x] == 1 for x in stops)
    if not odd:
        return not stops or (len(stops) == 1 and deg[stops[0]] == 2)
    return False
