"""A hand-tuned value function over an engine State, from one seat's point of view.

Points dominate (the race to the target); then production (pips, cities counted twice, the
robber's hex left out) with a bonus for variety, harbour access weighted by what we produce,
the best free spots our roads reach now or after one more road, the hand's progress towards
the next build (and the risk of a 7 when it is large), development cards, knights and road
length.  ``Weights`` lets the levels differ (``easy`` ignores harbours and the opponents).
"""
from __future__ import annotations

from dataclasses import dataclass

from games.hexland.engine.board import (
    EDGE_NODES, NODE_BIT, NODE_HEXES, NUM_NODES, PIPS,
)
from games.hexland.engine.state import OVER

_node_tables: dict = {}   # id(board) -> per node ((resource, pips, hex), ...)


def node_yield(board) -> tuple:
    t = _node_tables.get(id(board))
    if t is None or t[0] is not board:
        rows = []
        for x in range(NUM_NODES):
            rows.append(tuple((board.resource[h], PIPS[board.number[h]], h)
                              for h in NODE_HEXES[x] if board.resource[h] is not None))
        t = _node_tables[id(board)] = (board, tuple(rows))
    return t[1]


@dataclass(frozen=True)
class Weights:
    vp: float = 100.0
    pip: float = 4.0
    variety: float = 6.0
    harbour: float = 1.0
    spot_now: float = 2.5
    spot_next: float = 1.0
    progress: float = 35.0
    card: float = 0.6
    overflow: float = 3.0
    dev: float = 9.0
    knight: float = 5.0
    road: float = 1.5
    opponents: float = 0.25      # how much the strongest opponent's standing counts against


HARD = Weights()
MEDIUM = Weights(opponents=0.0, spot_next=0.7)
EASY = Weights(opponents=0.0, harbour=0.0, variety=2.0, progress=15.0, overflow=0.5,
               spot_next=0.3)

_TARGETS = ((0, 0, 0, 2, 3), (1, 1, 1, 1, 0), (0, 0, 1, 1, 1), (1, 1, 0, 0, 0))
_TARGET_WORTH = (1.0, 1.0, 0.45, 0.25)   # city, settlement, development card, road


def production(s, p: int) -> list:
    """Pips per resource of p's buildings, the robber's hex excluded."""
    rows = node_yield(s.g.board)
    prod = [0, 0, 0, 0, 0]
    robber = s.robber
    for x, v in enumerate(s.bld):
        if v != -1 and v & 3 == p:
            k = 2 if v > 3 else 1
            for r, pips, h in rows[x]:
                if h != robber:
                    prod[r] += k * pips
    return prod


def spot_value(rows, x: int, prod: list) -> float:
    """A free corner's worth to a player producing ``prod``: pips, more for new resources."""
    v = 0.0
    for r, pips, _h in rows[x]:
        v += pips * (1.5 if prod[r] == 0 else 1.0)
    return v


def best_spots(s, p: int, prod: list) -> tuple:
    """(best free corner our roads reach, best one a single new road would reach)."""
    rows = node_yield(s.g.board)
    free = ~s.blocked
    now = 0.0
    mask = s.reach[p] & free
    x = 0
    while mask:
        if mask & 1:
            now = max(now, spot_value(rows, x, prod))
        mask >>= 1
        x += 1
    nxt = 0.0
    fr = s.frontier[p]
    e = 0
    while fr:
        if fr & 1:
            for y in EDGE_NODES[e]:
                if free & NODE_BIT[y]:
                    nxt = max(nxt, spot_value(rows, y, prod))
        fr >>= 1
        e += 1
    return now, nxt


def standing(s, p: int, w: Weights, hidden_vp: bool) -> float:
    """Points and production only (what we weigh an opponent by)."""
    vp = s.vp[p] + (s.dev[p * 5 + 4] if hidden_vp else 0)
    return w.vp * vp + w.pip * sum(production(s, p))


def value(s, p: int, w: Weights = HARD) -> float:
    g = s.g
    vp = s.vp[p] + s.dev[p * 5 + 4]
    if vp >= g.vp_to_win or (s.phase == OVER and s.winner == p):
        return 1e6 + vp
    if s.phase == OVER:
        return -1e6
    o = p * 5
    prod = production(s, p)
    total = sum(prod)
    score = w.vp * vp + w.pip * total + w.variety * sum(1 for r in prod if r)
    if w.harbour:
        rate = s.rate
        for r in range(5):
            if rate[o + r] == 2:
                score += w.harbour * prod[r]
            elif rate[o + r] == 3:
                score += w.harbour * prod[r] * 0.4
    pieces = s.pieces
    if pieces[p * 3]:
        now, nxt = best_spots(s, p, prod)
        score += w.spot_now * now + w.spot_next * nxt
    hand = s.hand[o:o + 5]
    size = sum(hand)
    best = 0.0
    for t, cost in enumerate(_TARGETS):
        if t == 0 and not pieces[p * 3 + 1]:
            continue
        if t == 1 and not pieces[p * 3]:
            continue
        need = sum(cost)
        have = sum(min(hand[r], cost[r]) for r in range(5))
        best = max(best, _TARGET_WORTH[t] * (have / need) ** 2)
    score += w.progress * best + w.card * min(size, 7)
    if size > 7:
        score -= w.overflow * (size - 7)
    dev = s.dev
    score += w.dev * (dev[o] + dev[o + 1] + dev[o + 2] + dev[o + 3])
    score += w.knight * s.knights[p] + w.road * s.road_len[p]
    if w.opponents:
        other = max(standing(s, q, w, False) for q in range(g.n) if q != p)
        score -= w.opponents * other
    return score


__all__ = ["Weights", "HARD", "MEDIUM", "EASY", "value", "production", "node_yield",
           "spot_value", "best_spots"]
