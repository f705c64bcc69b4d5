"""A full engine State rebuilt from one seat's view, the hidden parts sampled (determinisation).

Bots decide from a view only; to look ahead they need a State the engine can ``apply`` moves
to.  What the view shows is copied; what it hides is sampled consistently with it:

* opponents' hands: their hand sizes are public; the cards are drawn from the resources not
  in the bank nor in our hand, each opponent favouring what its buildings produce;
* opponents' development cards and the deck: drawn from the 25 cards less our own and the
  knights already played (the log names other played cards; we ignore that small gain);
* the random stream: a fresh one, so dice and steals in a look-ahead are samples too.

The board's derived fields (blocked corners, reach, frontier) are recomputed from buildings
and roads exactly as the engine keeps them.
"""
from __future__ import annotations

import random

from games.hexland.engine.board import (
    EDGE_BIT, EDGE_NODES, NODE_BIT, NODE_CLOSE_MASK, NODE_EDGE_MASK, NODE_HEXES, NUM_EDGES,
    NUM_NODES, PIPS, RES_INDEX, Board,
)
from games.hexland.engine.state import (
    DECK_SET, DEV_CARDS, KNIGHT, PHASES, TIMER_PRESETS, Game, State,
)

_TERRAIN_RES = {"forest": 0, "hills": 1, "pasture": 2, "fields": 3, "mountains": 4,
                "desert": None}
_boards: dict = {}   # board signature -> Board (boards are immutable; build each once)


def board_of(view: dict) -> Board:
    pub = view["board"]
    res = tuple(_TERRAIN_RES[h["terrain"]] for h in pub["hexes"])
    num = tuple(h["number"] for h in pub["hexes"])
    hb = tuple(None if x["resource"] is None else RES_INDEX[x["resource"]]
               for x in pub["harbours"])
    key = (res, num, hb)
    b = _boards.get(key)
    if b is None:
        if len(_boards) > 256:
            _boards.clear()
        b = _boards[key] = Board(res, num, hb)
    return b


def production_weights(view: dict, seat: int, board: Board) -> list:
    """Pips per resource of ``seat``'s buildings (cities count twice), plus one each."""
    w = [1.0] * 5
    for b in view["buildings"]:
        if b["seat"] == seat:
            k = 2 if b["kind"] == "city" else 1
            for h in NODE_HEXES[b["node"]]:
                r = board.resource[h]
                if r is not None:
                    w[r] += k * PIPS[board.number[h]]
    return w


def _rolled_this_turn(view: dict, dev_played: bool) -> bool:
    """In the robber phase: after a roll, unless a knight came first (the log tells)."""
    log = view.get("log")
    if not dev_played:
        return True
    if not log:
        return True      # the likelier case: knights are mostly played after rolling
    name = view["players"][view["current"]]["name"]
    for line in reversed(log):
        if line.startswith(f"{name} rolled"):
            return True
        if line.endswith("ended their turn") or line.startswith("Setup is over"):
            return False
    return False


def state_from_view(view: dict, rng: random.Random) -> State:
    """A State consistent with ``view`` (hidden cards sampled with ``rng``)."""
    n = len(view["players"])
    me = view["seat"]
    board = board_of(view)
    players = view["players"]
    timers = tuple(view["timer_seconds"][k] for k in ("setup", "turn", "discard"))
    preset = next((k for k, v in TIMER_PRESETS.items() if v == timers), "normal")
    g = Game(board, n, tuple(p["name"] for p in players), tuple(view["order"]),
             view["vp_to_win"], 7, "fixed", TIMER_PRESETS[preset], {})
    s = State.__new__(State)
    s.g = g
    s.rng = rng.getrandbits(64)
    s.phase = PHASES.index(view["phase"])
    s.cur = view["current"]
    s.turn = view["turn"]
    s.robber = view["robber"]
    s.dice = tuple(view["dice"]) if view["dice"] else None
    s.expired = False
    you = view.get("you") or {}
    s.dev_played = bool(you.get("dev_played")) if me == s.cur else False
    # MAIN, TRADE and DISCARD come after a roll; ROBBER and FREE_ROADS usually do (a card
    # played before the roll is the exception: the log tells).
    s.rolled = view["phase"] in ("main", "trade", "discard") or (
        view["phase"] in ("robber", "free_roads") and _rolled_this_turn(view, s.dev_played))

    # board pieces
    bld = [-1] * NUM_NODES
    blocked = 0
    for b in view["buildings"]:
        bld[b["node"]] = b["seat"] + (4 if b["kind"] == "city" else 0)
        blocked |= NODE_CLOSE_MASK[b["node"]]
    road = [-1] * NUM_EDGES
    road_mask = 0
    reach = [0] * n
    for r in view["roads"]:
        e, q = r["edge"], r["seat"]
        road[e] = q
        road_mask |= EDGE_BIT[e]
        a, c = EDGE_NODES[e]
        reach[q] |= NODE_BIT[a] | NODE_BIT[c]
    frontier = []
    for q in range(n):
        fr = 0
        for x in range(NUM_NODES):
            v = bld[x]
            if (v != -1 and v & 3 == q) or (v == -1 and reach[q] & NODE_BIT[x]):
                fr |= NODE_EDGE_MASK[x]
        frontier.append(fr & ~road_mask)
    s.bld, s.road, s.blocked, s.road_mask, s.reach, s.frontier = (
        bld, road, blocked, road_mask, reach, frontier)
    s.step = len(view["roads"]) if s.phase in (0, 1) else 2 * n

    # public per-seat numbers
    s.vp = [p["vp"] for p in players]
    s.knights = [p["knights"] for p in players]
    s.road_len = [p["road_length"] for p in players]
    s.pieces = []
    s.rate = []
    for p in players:
        pc = p["pieces"]
        s.pieces += [pc["settlements"], pc["cities"], pc["roads"]]
        s.rate += [p["rates"][r] for r in ("wood", "brick", "sheep", "wheat", "ore")]
    s.lr = -1 if view["longest_road"] is None else view["longest_road"]
    s.la = -1 if view["largest_army"] is None else view["largest_army"]
    s.bank = [view["bank"][r] for r in ("wood", "brick", "sheep", "wheat", "ore")]

    # hands: ours known, the others sampled from the unseen cards
    hand = [0] * (5 * n)
    unseen = [19 - s.bank[r] for r in range(5)]
    if me is not None:
        for r, name in enumerate(("wood", "brick", "sheep", "wheat", "ore")):
            hand[me * 5 + r] = you["hand"][name]
            unseen[r] -= you["hand"][name]
    offer = view.get("offer")
    for q in range(n):
        if q == me:
            continue
        size = players[q]["hand_size"]
        if offer and offer["from"] == q:     # an offerer holds what it offers
            for r, name in enumerate(("wood", "brick", "sheep", "wheat", "ore")):
                k = min(offer["give"][name], size, max(unseen[r], 0))
                hand[q * 5 + r] += k
                unseen[r] -= k
                size -= k
        w = production_weights(view, q, board)
        for _ in range(size):
            weights = [w[r] * unseen[r] for r in range(5)]
            if sum(weights) <= 0:
                weights = [max(u, 0) for u in unseen]
                if sum(weights) <= 0:
                    break
            r = rng.choices(range(5), weights)[0]
            unseen[r] -= 1
            hand[q * 5 + r] += 1
    s.hand = hand

    # development cards: ours known, the rest from what is unaccounted for
    dev = [0] * (5 * n)
    pool = list(DECK_SET)
    for _ in range(sum(s.knights)):
        if KNIGHT in pool:
            pool.remove(KNIGHT)
    if me is not None:
        for c, name in enumerate(DEV_CARDS):
            k = you["dev_cards"][name]
            dev[me * 5 + c] = k
            for _ in range(k):
                if c in pool:
                    pool.remove(c)
    rng.shuffle(pool)
    for q in range(n):
        if q == me:
            continue
        for _ in range(players[q]["dev_cards"]):
            if pool:
                dev[q * 5 + pool.pop()] += 1
    s.dev = dev
    s.deck = pool[:view["deck_size"]]
    while len(s.deck) < view["deck_size"]:        # only if our bookkeeping fell short
        s.deck.append(KNIGHT)
    if me is not None and me == s.cur:
        s.new_dev = [you["new_dev_cards"][name] for name in DEV_CARDS]
    else:
        s.new_dev = [0] * 5

    s.need = list(view["discards"])
    if offer:
        names = ("wood", "brick", "sheep", "wheat", "ore")
        s.offer = (tuple(offer["give"][r] for r in names), tuple(offer["get"][r] for r in names))
        s.answers = [-1 if a is None else {"pending": 0, "accepted": 1, "declined": 2}[a]
                     for a in offer["answers"]]
    else:
        s.offer = None
        s.answers = [0] * n
    s.free_roads = view["free_roads"]
    s.last_node = -1 if view["setup_node"] is None else view["setup_node"]
    s.auto = [tuple(p["auto_pair"]) if p["auto_pair"] else None for p in players]
    s.winner = -1 if view["winner"] is None else view["winner"]
    s.log = None
    s.log_len = view.get("log_length", 0)
    return s


__all__ = ["state_from_view", "board_of", "production_weights"]
