"""The ``easy``, ``medium`` and ``hard`` bots: every decision from one seat's view.

Each decision rebuilds a State from the view (hidden cards sampled, see determinise.py) and
looks ahead with the engine's own ``apply``:

* own turn: a depth-limited search over sequences of our own moves this turn (build, buy,
  trade with the bank, play a card, then the robber / free roads it leads to), scoring the
  position where the turn would end with the value function of evaluate.py; a bought card
  is scored as the expectation over what the unseen deck may hold;
* setup: corners by pips, variety and harbours; the road towards the best corner beyond;
* robber: the engine's outcome scored, plus the production taken from the leader;
* discards: one card at a time, always the one whose loss costs least;
* trades: answer by value; offer one surplus card for the one card a build lacks, at most
  ``OFFERS_PER_TURN`` per turn and never the same offer twice (remembered from the log).

Levels differ in weights, depth and the mistakes ``easy`` makes on purpose (see ``LEVELS``).
Every search stops at its level's time budget.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from games.hexland.engine.board import (
    EDGE_NODES, HEX_NODES, NODE_BIT, NODE_NEIGHBOURS, RESOURCES,
)
from games.hexland.engine.determinise import state_from_view
from games.hexland.engine.evaluate import (
    EASY, HARD, MEDIUM, Weights, node_yield, production, spot_value, value,
)
from games.hexland.engine.rules import apply, legal_moves
from games.hexland.engine.state import (
    COST_CITY, COST_DEV, COST_SETTLEMENT, FREE_ROADS, MAIN, OVER, ROBBER,
)

OFFERS_PER_TURN = 2
SETUP_VARIETY = 1.5       # per different resource at a corner
SETUP_LONG_GAME = 0.15    # per pip of brick, wheat and ore (scarcer, and cities need two)
DRAFT_CANDIDATES = 8
TRADE_ENVY = 0.5          # hard: share of the offerer's gain held against a trade (1-v-1)


@dataclass(frozen=True)
class Level:
    weights: Weights
    depth: int            # own moves looked ahead in a turn
    budget: float         # seconds per decision
    offers: bool          # makes offers to other players
    mistakes: bool        # easy: human-like slips on purpose
    full_setup: bool = True   # setup weighs variety, harbours and the long game, not pips only
    draft_lookahead: bool = False   # setup plays the rest of the draft out per candidate


LEVELS = {
    "easy": Level(EASY, 1, 0.15, False, True, full_setup=False),
    "medium": Level(MEDIUM, 1, 0.4, True, False, full_setup=False),
    "hard": Level(HARD, 2, 0.85, True, False, draft_lookahead=True),
}


class _Clock:
    def __init__(self, budget: float):
        self.end = time.perf_counter() + budget

    def out(self) -> bool:
        return time.perf_counter() > self.end


def decide(view: dict, level: str, rng: random.Random) -> dict:
    lv = LEVELS[level]
    clock = _Clock(lv.budget)
    phase = view["phase"]
    moves = view["legal_moves"]
    if not moves:
        raise ValueError("this seat has no move to make")
    me = view["seat"]
    s = state_from_view(view, rng)
    if phase == "setup_settlement":
        return _setup_settlement(s, me, moves, lv, rng)
    if phase == "setup_road":
        return _setup_road(s, me, moves)
    if phase == "discard":
        return _discard(s, me, lv)
    if phase == "trade":
        return _trade(view, s, me, moves, lv)
    if phase == "robber":
        return _robber_move(s, me, lv, rng)
    if phase == "free_roads":
        return _best_road(s, me, lv)
    if phase == "roll":
        return _roll(s, me, lv, clock)
    if phase == "main":
        return _main(view, s, me, lv, clock, rng)
    return moves[0]


# == setup ==================================================================================
def _setup_scores(s, me, lv: Level) -> list:
    """(score, corner) of every free corner for ``me``, best first."""
    rows = node_yield(s.g.board)
    prod = production(s, me)
    scored = []
    for m in legal_moves(s, me, offers=False):
        if m["type"] != "place_settlement":
            continue
        x = m["node"]
        if not lv.full_setup:   # raw pips only, blind to variety and harbours
            v = sum(p for _r, p, _h in rows[x])
        else:
            v = spot_value(rows, x, prod) + SETUP_VARIETY * len({r for r, _p, _h in rows[x]})
            kind = s.g.board.node_harbour[x]
            if kind == 5:
                v += 1.5
            elif kind != -1:
                v += 0.4 * (prod[kind] + sum(p for r, p, _h in rows[x] if r == kind))
            # ore and wheat win the long game; brick and wood the early one: keep both
            v += SETUP_LONG_GAME * sum(p for r, p, _h in rows[x] if r in (1, 3, 4))
        scored.append((v, x))
    scored.sort(reverse=True)
    return scored


def _setup_pair(s, q, lv: Level):
    """Place q's settlement and road by the heuristic (the draft's model of every player)."""
    x = _setup_scores(s, q, lv)[0][1]
    s = apply(s, q, {"type": "place_settlement", "node": x})
    return apply(s, q, _setup_road(s, q, legal_moves(s, q, offers=False)))


def _setup_settlement(s, me, moves, lv: Level, rng) -> dict:
    scored = _setup_scores(s, me, lv)
    if lv.mistakes and len(scored) > 2 and rng.random() < 0.4:
        return {"type": "place_settlement", "node": scored[rng.randrange(1, 3)][1]}
    if lv.draft_lookahead and len(scored) > 1:
        return {"type": "place_settlement", "node": _draft_search(s, me, scored, lv)}
    return {"type": "place_settlement", "node": scored[0][1]}


def _draft_search(s, me, scored, lv: Level) -> int:
    """Try the best few corners; play the rest of the snake draft out with the heuristic for
    everyone (our own second pick included) and keep the corner whose finished setup is
    worth most to us: a first pick that leaves a good second one beats a greedy one."""
    best, pick = None, scored[0][1]
    for _v, x in scored[:DRAFT_CANDIDATES]:
        t = apply(s, me, {"type": "place_settlement", "node": x})
        t = apply(t, me, _setup_road(t, me, legal_moves(t, me, offers=False)))
        while t.phase in (0, 1):
            t = _setup_pair(t, t.cur, lv)
        v = value(t, me, lv.weights)
        if best is None or v > best:
            best, pick = v, x
    return pick


def _setup_road(s, me, moves) -> dict:
    rows = node_yield(s.g.board)
    prod = production(s, me)
    free = ~s.blocked
    best, pick = -1.0, None
    for m in moves:
        if m["type"] != "place_road":
            continue
        a, b = EDGE_NODES[m["edge"]]
        far = b if a == s.last_node else a
        v = 0.0
        for y in (far,) + NODE_NEIGHBOURS[far]:
            if free & NODE_BIT[y]:
                v = max(v, spot_value(rows, y, prod))
        if v > best:
            best, pick = v, m
    return pick or moves[0]


# == discards and robber ====================================================================
def _discard(s, me, lv: Level) -> dict:
    need = s.need[me]
    o = me * 5
    s = s.copy()
    s.hand = s.hand[:]
    out = [0] * 5
    for _ in range(need):
        best, pick = None, None
        for r in range(5):
            if s.hand[o + r]:
                s.hand[o + r] -= 1
                v = value(s, me, lv.weights)
                s.hand[o + r] += 1
                if best is None or v > best:
                    best, pick = v, r
        if pick is None:
            break
        s.hand[o + pick] -= 1
        out[pick] += 1
    return {"type": "discard", "cards": {RESOURCES[r]: k for r, k in enumerate(out) if k}}


def _robber_score(s, s2, me, h: int, lv: Level) -> float:
    """Our value after the move, plus the production denied to opponents on that hex
    (weighted towards whoever leads: hard and medium), less any of our own."""
    v = value(s2, me, lv.weights)
    board = s.g.board
    if board.number[h] is None:
        return v
    pips = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}[board.number[h]]
    for x in HEX_NODES[h]:
        b = s.bld[x]
        if b == -1:
            continue
        q, k = b & 3, (2 if b > 3 else 1)
        if q == me:
            v -= 12 * k * pips
        elif lv.mistakes:
            v += 2 * k * pips
        else:
            v += (2 + 0.5 * s.vp[q]) * k * pips
    return v


def _robber_move(s, me, lv: Level, rng):
    best, pick = None, None
    for m in legal_moves(s, me, offers=False):
        if m["type"] != "move_robber":
            continue
        s2 = apply(s, me, m)
        v = _robber_score(s, s2, me, m["hex"], lv)
        if lv.mistakes:
            v += rng.random() * 20   # easy: rough judgement of which hex hurts most
        if best is None or v > best:
            best, pick = v, m
    return pick


# == own turn: search =======================================================================
def _expected_after_buy(s_before, s2, me, w: Weights) -> float:
    """A bought card's value as the mean over the unseen deck, not the sampled draw."""
    deck = s_before.deck
    if not deck:
        return value(s2, me, w)
    drawn = s_before.deck[-1]
    total = 0.0
    counts = {}
    for c in deck:
        counts[c] = counts.get(c, 0) + 1
    base = s2.dev[:]
    for c, k in counts.items():
        s2.dev = base[:]
        s2.dev[me * 5 + drawn] -= 1
        s2.dev[me * 5 + c] += 1
        total += k * value(s2, me, w)
    s2.dev = base
    return total / len(deck)


def _candidates(s, me, lv: Level) -> list:
    moves = [m for m in legal_moves(s, me, offers=False) if m["type"] != "end_turn"]
    if lv.mistakes:   # easy forgets its cards unless the robber sits on it (below)
        moves = [m for m in moves if m["type"] != "play_dev" or m["card"] == "knight"]
    return moves


def _settle(s, me, lv: Level, rng):
    """Finish what a card started (robber, free roads) greedily."""
    while s.phase in (ROBBER, FREE_ROADS) and s.cur == me:
        if s.phase == ROBBER:
            m = _robber_move(s, me, lv, rng)
        else:
            m = _best_road(s, me, lv)
        s = apply(s, me, m)
    return s


def _best_road(s, me, lv: Level) -> dict:
    best, pick = None, None
    for m in legal_moves(s, me, offers=False):
        if m["type"] != "build_road":
            continue
        v = value(apply(s, me, m), me, lv.weights)
        if best is None or v > best:
            best, pick = v, m
    return pick


def _score_after(s, m, me, lv: Level, depth: int, clock, rng) -> float:
    s2 = apply(s, me, m)
    if s2.phase == OVER:
        return value(s2, me, lv.weights)
    s2 = _settle(s2, me, lv, rng)
    if m["type"] == "buy_dev":
        here = _expected_after_buy(s, s2, me, lv.weights)
    else:
        here = value(s2, me, lv.weights)
    if depth <= 1 or s2.phase != MAIN or clock.out():
        return here
    best = here
    for m2 in _candidates(s2, me, lv):
        if m2["type"] == "buy_dev" or m2["type"] == "play_dev":
            continue   # chance and cards: decided when we get there
        # a little less for every extra step: of two ways to the same end, the shorter
        best = max(best, _score_after(s2, m2, me, lv, depth - 1, clock, rng) - 0.01)
        if clock.out():
            break
    return best


def _search(s, me, lv: Level, clock, rng):
    """(best move or None for 'stop here', its score, the score of stopping)."""
    stay = value(s, me, lv.weights)
    best, pick = stay + 0.5, None      # a move must beat stopping by a little
    for m in _candidates(s, me, lv):
        v = _score_after(s, m, me, lv, lv.depth, clock, rng)
        if v > best:
            best, pick = v, m
        if clock.out():
            break
    return pick, best, stay


def _roll(s, me, lv: Level, clock) -> dict:
    rng = random.Random(s.rng)
    knight = {"type": "play_dev", "card": "knight"}
    if any(m == knight for m in legal_moves(s, me, offers=False)):
        on_us = any(s.bld[x] != -1 and s.bld[x] & 3 == me for x in HEX_NODES[s.robber])
        if not lv.mistakes or on_us:
            v = _score_after(s, knight, me, lv, 1, clock, rng)
            if v > value(s, me, lv.weights) + 4:
                return knight
    return {"type": "roll"}


def _main(view, s, me, lv: Level, clock, rng) -> dict:
    pick, best, stay = _search(s, me, lv, clock, rng)
    if pick is not None:
        return pick
    if lv.offers:
        offer = _make_offer(view, s, me, lv)
        if offer is not None:
            return offer
    return {"type": "end_turn"}


# == trading with players ===================================================================
_offers_made: dict = {}   # (board, seat, turn) -> offer texts (when the view has no log)


def _offer_text(view, me, give, get) -> str:
    def words(b):
        parts = [f"{k} {RESOURCES[r]}" for r, k in enumerate(b) if k]
        return ", ".join(parts) if parts else "nothing"
    return f"{view['players'][me]['name']} offers {words(give)} for {words(get)}"


def _offer_key(view, me) -> tuple:
    return (str(view["board"]["hexes"]), tuple(p["name"] for p in view["players"]), me,
            view["turn"])


def _offers_this_turn(view, me) -> set:
    """Offers we made this turn: read from the log (since our last roll) when the view has
    one, else from a small cache (benchmarks pass views without the log)."""
    log = view.get("log")
    if not log:
        return set(_offers_made.get(_offer_key(view, me), ()))
    name = view["players"][me]["name"]
    seen = set()
    for line in reversed(log):
        if line.startswith(f"{name} rolled") or line.startswith(f"{name} ended"):
            break
        if line.startswith(f"{name} offers "):
            seen.add(line)
    return seen


def _remember_offer(view, me, text: str) -> None:
    if view.get("log"):
        return
    if len(_offers_made) > 512:
        _offers_made.clear()
    _offers_made.setdefault(_offer_key(view, me), set()).add(text)


def _make_offer(view, s, me, lv: Level):
    """One surplus card for the single card that stops a city, settlement or card."""
    done = _offers_this_turn(view, me)
    if len(done) >= OFFERS_PER_TURN:
        return None
    o = me * 5
    hand = s.hand[o:o + 5]
    targets = []
    if s.pieces[me * 3 + 1] and any(s.bld[x] == me for x in range(54)):
        targets.append(COST_CITY)
    if s.pieces[me * 3] and s.reach[me] & ~s.blocked:
        targets.append(COST_SETTLEMENT)
    if s.deck:
        targets.append(COST_DEV)
    for cost in targets:
        missing = [r for r in range(5) if hand[r] < cost[r]]
        if len(missing) != 1 or cost[missing[0]] - hand[missing[0]] != 1:
            continue
        surplus = sorted((r for r in range(5) if hand[r] > cost[r]),
                         key=lambda r: hand[r] - cost[r], reverse=True)
        for r in surplus:
            give = [0] * 5
            get = [0] * 5
            give[r] = 1
            get[missing[0]] = 1
            text = _offer_text(view, me, give, get)
            if text in done:
                continue
            _remember_offer(view, me, text)
            return {"type": "offer", "give": {RESOURCES[r]: 1},
                    "get": {RESOURCES[missing[0]]: 1}}
    return None


def _trade(view, s, me, moves, lv: Level) -> dict:
    types = {m["type"] for m in moves}
    if "cancel" in types:    # our own offer: take the first who accepted, else withdraw
        for m in moves:
            if m["type"] == "confirm":
                return m
        return {"type": "cancel"}
    if "accept" not in types:
        return {"type": "decline"}
    give, get = s.offer          # what the offerer gives / asks of us
    offerer = s.cur
    if not lv.mistakes and s.vp[offerer] >= s.g.vp_to_win - 2:
        return {"type": "decline"}   # never feed a player about to win
    before = value(s, me, lv.weights)
    s2 = s.copy()
    o, f = me * 5, offerer * 5
    for r in range(5):
        s2.hand[o + r] += give[r] - get[r]
        s2.hand[f + r] += get[r] - give[r]
    gain = value(s2, me, lv.weights) - before
    if lv.weights.opponents:
        # hard: a trade must help us more than it helps the offerer (their hand is sampled,
        # the cards they give and get are not)
        theirs = value(s2, offerer, lv.weights) - value(s, offerer, lv.weights)
        gain -= max(0.0, theirs) * TRADE_ENVY * (2 / s.g.n)
    margin = 0.0 if lv.mistakes else (2.0 if lv.weights.opponents else 1.0)
    return {"type": "accept"} if gain > margin else {"type": "decline"}


__all__ = ["decide", "LEVELS", "OFFERS_PER_TURN"]
