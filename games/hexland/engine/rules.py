"""Hexland's rules: actors, legal moves, apply, timeouts.

Every ``apply`` checks the move against the state, copies the state and mutates the copy;
the state passed in is never changed, so a refused move (``IllegalMove``) leaves it as it was.
Moves are plain JSON objects; docs/hexland.md lists them all with examples.

The spatial candidates are kept incrementally in the state: ``blocked`` (corners taken or too
close, a bit mask), ``reach[p]`` (corners touched by p's roads) and ``frontier[p]`` (empty
edges where p may build a road).  Longest Road is recomputed only for the players a road or a
settlement touches.
"""
from __future__ import annotations

from games.protocol import IllegalMove
from games.hexland.engine.board import (
    ALL_NODES_MASK, EDGE_BIT, EDGE_NODES, HEX_NODES, NODE_BIT, NODE_CLOSE_MASK, NODE_EDGE_MASK,
    NODE_EDGES, NODE_HEXES, NODE_NEIGHBOURS, NUM_EDGES, NUM_HEXES, NUM_NODES, RES_INDEX,
    RESOURCES,
)
from games.hexland.engine.roads import longest_road
from games.hexland.engine.state import (
    COST_CITY, COST_DEV, COST_ROAD, COST_SETTLEMENT, DEV_INDEX, DISCARD, FREE_ROADS, KNIGHT,
    MAIN, MONOPOLY, OVER, ROAD_BUILDING, ROBBER, ROLL, SETUP_ROAD, SETUP_SETTLEMENT, TRADE,
    VICTORY_POINT, YEAR_OF_PLENTY, State, rand_below,
)

PENDING, ACCEPTED, DECLINED = 0, 1, 2
MIN_LONGEST_ROAD, MIN_LARGEST_ARMY = 5, 3


# == who acts ===============================================================================
def actors(s: State) -> set:
    ph = s.phase
    if ph == OVER:
        return set()
    if ph == DISCARD:
        return {q for q, k in enumerate(s.need) if k}
    if ph == TRADE:
        return {s.cur} | {q for q, a in enumerate(s.answers) if a == PENDING and q != s.cur}
    return {s.cur}


def is_actor(s: State, seat) -> bool:
    ph = s.phase
    if ph == DISCARD:
        return type(seat) is int and 0 <= seat < s.g.n and s.need[seat] > 0
    if ph == TRADE:
        return seat == s.cur or (type(seat) is int and 0 <= seat < s.g.n
                                 and s.answers[seat] == PENDING)
    return ph != OVER and seat == s.cur


def victory_points(s: State, p: int) -> int:
    """All of p's points, hidden Victory Point cards included."""
    return s.vp[p] + s.dev[p * 5 + VICTORY_POINT]


def hand_size(s: State, p: int) -> int:
    o = p * 5
    h = s.hand
    return h[o] + h[o + 1] + h[o + 2] + h[o + 3] + h[o + 4]


# == legal moves ============================================================================
def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def legal_moves(s: State, seat, offers: bool = True) -> list:
    """Every legal move of ``seat`` now.  Two families are combinatorial and listed by their
    canonical members only: discards (one card at a time; ``apply`` takes any bundle up to
    what is owed) and trade offers (one card for one card; ``apply`` takes any offer).
    ``offers=False`` leaves trade offers out (benchmarks, simple bots)."""
    if not is_actor(s, seat):
        return []
    ph = s.phase
    if ph == MAIN:
        return _main_moves(s, seat, offers)
    if ph == ROLL:
        moves = [{"type": "roll"}]
        _dev_moves(s, seat, moves)
        return moves
    if ph == DISCARD:
        o = seat * 5
        return [{"type": "discard", "cards": {RESOURCES[r]: 1}}
                for r in range(5) if s.hand[o + r]]
    if ph == ROBBER:
        return _robber_moves(s, seat)
    if ph == TRADE:
        return _trade_moves(s, seat)
    if ph == FREE_ROADS:
        return [{"type": "build_road", "edge": e} for e in _bits(s.frontier[seat])]
    if ph == SETUP_SETTLEMENT:
        moves = [{"type": "place_settlement", "node": x}
                 for x in _bits(~s.blocked & ALL_NODES_MASK)]
        _move_pair_moves(s, seat, moves)
        return moves
    if ph == SETUP_ROAD:
        road = s.road
        moves = [{"type": "place_road", "edge": e} for e in NODE_EDGES[s.last_node]
                 if road[e] == -1]
        _move_pair_moves(s, seat, moves)
        return moves
    return []


def _main_moves(s: State, p: int, offers: bool) -> list:
    o = p * 5
    w, b, sh, wh, ore = s.hand[o:o + 5]
    moves = [{"type": "end_turn"}]
    pieces = s.pieces
    if w and b:
        if pieces[p * 3 + 2]:
            moves += [{"type": "build_road", "edge": e} for e in _bits(s.frontier[p])]
        if sh and wh and pieces[p * 3]:
            moves += [{"type": "build_settlement", "node": x}
                      for x in _bits(s.reach[p] & ~s.blocked)]
    if wh >= 2 and ore >= 3 and pieces[p * 3 + 1]:
        bld = s.bld
        moves += [{"type": "build_city", "node": x} for x in range(NUM_NODES) if bld[x] == p]
    if sh and wh and ore and s.deck:
        moves.append({"type": "buy_dev"})
    if not s.dev_played:
        _dev_moves(s, p, moves)
    hand, rate, bank = s.hand, s.rate, s.bank
    for r in range(5):
        if hand[o + r] >= rate[o + r]:
            give = RESOURCES[r]
            moves += [{"type": "bank_trade", "give": give, "get": RESOURCES[g]}
                      for g in range(5) if g != r and bank[g]]
    if offers:
        for r in range(5):
            if hand[o + r]:
                give = RESOURCES[r]
                moves += [{"type": "offer", "give": {give: 1}, "get": {RESOURCES[g]: 1}}
                          for g in range(5) if g != r]
    return moves


def _dev_moves(s: State, p: int, moves: list) -> None:
    if s.dev_played:
        return
    o = p * 5
    dev, new = s.dev, s.new_dev
    if dev[o + KNIGHT] > new[KNIGHT]:
        moves.append({"type": "play_dev", "card": "knight"})
    if dev[o + ROAD_BUILDING] > new[ROAD_BUILDING] and s.pieces[p * 3 + 2] \
            and s.frontier[p]:
        moves.append({"type": "play_dev", "card": "road_building"})
    if dev[o + YEAR_OF_PLENTY] > new[YEAR_OF_PLENTY]:
        bank = s.bank
        moves += [{"type": "play_dev", "card": "year_of_plenty",
                   "resources": [RESOURCES[a], RESOURCES[b]]}
                  for a in range(5) for b in range(a, 5) if bank[a] or bank[b]]
    if dev[o + MONOPOLY] > new[MONOPOLY]:
        moves += [{"type": "play_dev", "card": "monopoly", "resource": name}
                  for name in RESOURCES]


def _victims(s: State, p: int, h: int) -> list:
    """Opponents with a building on hex ``h`` who hold at least one card."""
    bld = s.bld
    out = []
    for x in HEX_NODES[h]:
        v = bld[x]
        if v != -1:
            q = v & 3
            if q != p and q not in out and hand_size(s, q):
                out.append(q)
    out.sort()
    return out


def _robber_moves(s: State, p: int) -> list:
    hand, bld = s.hand, s.bld
    has_cards = [q != p and any(hand[q * 5:q * 5 + 5]) for q in range(s.g.n)]
    moves = []
    for h in range(NUM_HEXES):
        if h == s.robber:
            continue
        victims = set()
        for x in HEX_NODES[h]:
            v = bld[x]
            if v != -1 and has_cards[v & 3]:
                victims.add(v & 3)
        if victims:
            moves += [{"type": "move_robber", "hex": h, "victim": q} for q in sorted(victims)]
        else:
            moves.append({"type": "move_robber", "hex": h, "victim": None})
    return moves


def _trade_moves(s: State, seat: int) -> list:
    if seat == s.cur:
        moves = [{"type": "confirm", "seat": q} for q, a in enumerate(s.answers)
                 if a == ACCEPTED]
        moves.append({"type": "cancel"})
        return moves
    moves = [{"type": "decline"}]
    get = s.offer[1]
    o = seat * 5
    if all(s.hand[o + r] >= get[r] for r in range(5)):
        moves.insert(0, {"type": "accept"})
    return moves


def _move_pair_moves(s: State, p: int, moves: list) -> None:
    pair = s.auto[p]
    if pair is None or s.step < s.g.n:
        return
    node, edge = pair
    blocked = _blocked_without(s, node)
    road = s.road
    for x in _bits(~blocked & ALL_NODES_MASK):
        for e in NODE_EDGES[x]:
            if road[e] == -1 or e == edge:
                moves.append({"type": "move_pair", "node": x, "edge": e})


def _blocked_without(s: State, skip: int) -> int:
    m = 0
    bld = s.bld
    for x in range(NUM_NODES):
        if bld[x] != -1 and x != skip:
            m |= NODE_CLOSE_MASK[x]
    return m


# == field checks ===========================================================================
def _index(mv: dict, key: str, limit: int, what: str) -> int:
    v = mv.get(key)
    if type(v) is not int or not 0 <= v < limit:
        raise IllegalMove(f"{what} must be a number from 0 to {limit - 1}")
    return v


def _resource(mv: dict, key: str) -> int:
    v = mv.get(key)
    r = RES_INDEX.get(v) if isinstance(v, str) else None
    if r is None:
        raise IllegalMove(f"'{key}' must be one of {', '.join(RESOURCES)}")
    return r


def _bundle(mv: dict, key: str) -> list:
    v = mv.get(key)
    if not isinstance(v, dict) or not v:
        raise IllegalMove(f"'{key}' must name the cards, e.g. {{\"wood\": 1}}")
    out = [0] * 5
    for name, k in v.items():
        r = RES_INDEX.get(name) if isinstance(name, str) else None
        if r is None:
            raise IllegalMove(f"{name!r} is not a resource")
        if type(k) is not int or k < 0:
            raise IllegalMove("card counts must be whole numbers")
        out[r] += k
    if not any(out):
        raise IllegalMove(f"'{key}' names no cards")
    return out


def _turn(s: State, seat, *phases: int) -> None:
    if s.phase == OVER:
        raise IllegalMove("the game is over")
    if seat != s.cur:
        raise IllegalMove("it is not your turn")
    if s.phase not in phases:
        raise IllegalMove(_PHASE_REFUSAL.get(s.phase, "you cannot do that now"))


_PHASE_REFUSAL = {
    SETUP_SETTLEMENT: "place your starting settlement first",
    SETUP_ROAD: "place the road next to your new settlement first",
    ROLL: "roll the dice first",
    DISCARD: "wait until everyone has discarded",
    ROBBER: "move the robber first",
    TRADE: "answer or cancel the open trade offer first",
    FREE_ROADS: "place your free roads first",
}


def _pay(s: State, p: int, cost: tuple) -> None:
    """Move a cost from p's hand to the bank (affordability was checked before the copy)."""
    o = p * 5
    hand, bank = s.hand, s.bank
    for r in range(5):
        k = cost[r]
        if k:
            hand[o + r] -= k
            bank[r] += k


def _can_afford(s: State, p: int, cost: tuple) -> bool:
    o = p * 5
    hand = s.hand
    return all(hand[o + r] >= cost[r] for r in range(5))


# == log ====================================================================================
def _log(s: State, *event) -> None:
    s.log = (event, s.log)
    s.log_len += 1


# == pieces on the board ====================================================================
def _recompute_frontier(s: State, q: int) -> None:
    bld, mask, fr = s.bld, s.reach[q], 0
    for x in range(NUM_NODES):
        v = bld[x]
        if (v != -1 and v & 3 == q) or (v == -1 and mask & NODE_BIT[x]):
            fr |= NODE_EDGE_MASK[x]
    s.frontier[q] = fr & ~s.road_mask


def _put_settlement(s: State, p: int, x: int) -> None:
    s.bld = bld = s.bld[:]
    bld[x] = p
    s.blocked |= NODE_CLOSE_MASK[x]
    s.pieces[p * 3] -= 1
    s.vp[p] += 1
    kind = s.g.board.node_harbour[x]
    if kind != -1:
        rate, o = s.rate, p * 5
        if kind == 5:
            for r in range(5):
                if rate[o + r] > 3:
                    rate[o + r] = 3
        else:
            rate[o + kind] = 2
    s.frontier[p] |= NODE_EDGE_MASK[x] & ~s.road_mask
    bit = NODE_BIT[x]
    broken = [q for q in range(s.g.n) if q != p and s.reach[q] & bit]
    if broken:
        for q in broken:
            _recompute_frontier(s, q)
            s.road_len[q] = longest_road(s.road, bld, q)
        _award_longest_road(s)


def _put_road(s: State, p: int, e: int) -> None:
    s.road = road = s.road[:]
    road[e] = p
    bit = EDGE_BIT[e]
    s.road_mask |= bit
    s.pieces[p * 3 + 2] -= 1
    fr = s.frontier
    for q in range(s.g.n):
        fr[q] &= ~bit
    a, b = EDGE_NODES[e]
    bld = s.bld
    free = ~s.road_mask
    va, vb = bld[a], bld[b]
    if va == -1 or va & 3 == p:
        fr[p] |= NODE_EDGE_MASK[a] & free
    if vb == -1 or vb & 3 == p:
        fr[p] |= NODE_EDGE_MASK[b] & free
    s.reach[p] |= NODE_BIT[a] | NODE_BIT[b]
    # a new road leaves every other network of p as it was: search only the one it joined
    length = max(s.road_len[p], longest_road(road, bld, p, e))
    if length != s.road_len[p]:
        s.road_len[p] = length
        if length >= MIN_LONGEST_ROAD:
            _award_longest_road(s)


def _award_longest_road(s: State) -> None:
    """Settle who holds Longest Road after lengths changed (building or breaking)."""
    lens, h = s.road_len, s.lr
    best = max(lens)
    if h != -1 and lens[h] == best and best >= MIN_LONGEST_ROAD:
        return
    new = lens.index(best) if best >= MIN_LONGEST_ROAD and lens.count(best) == 1 else -1
    if new != h:
        if h != -1:
            s.vp[h] -= 2
        if new != -1:
            s.vp[new] += 2
        s.lr = new
        _log(s, "longest_road", new, h, best)


MAX_TURNS = 200  # the default turn limit of a room (config "max_turns")


def _check_win(s: State) -> None:
    p = s.cur
    if s.vp[p] + s.dev[p * 5 + VICTORY_POINT] >= s.g.vp_to_win:
        s.phase = OVER
        s.winner = p
        _log(s, "win", p, s.vp[p] + s.dev[p * 5 + VICTORY_POINT])


# == setup ==================================================================================
def _place_settlement(s: State, seat, mv: dict) -> State:
    _turn(s, seat, SETUP_SETTLEMENT)
    x = _index(mv, "node", NUM_NODES, "node")
    _check_spot(s.bld, s.blocked, x)
    s = s.copy()
    p = s.cur
    _put_settlement(s, p, x)
    s.last_node = x
    s.phase = SETUP_ROAD
    _log(s, "place_settlement", p, x)
    if s.step >= s.g.n:
        _setup_payout(s, p, x)
    return s


def _check_spot(bld: list, blocked: int, x: int) -> None:
    if bld[x] != -1:
        raise IllegalMove("that corner is already taken")
    if blocked & NODE_BIT[x]:
        raise IllegalMove("that corner is too close to a settlement")


def _setup_payout(s: State, p: int, x: int) -> None:
    gains = []
    res = s.g.board.resource
    for h in NODE_HEXES[x]:
        r = res[h]
        if r is not None and s.bank[r]:
            s.bank[r] -= 1
            s.hand[p * 5 + r] += 1
            gains.append(r)
    _log(s, "payout", p, tuple(gains))


def _place_road(s: State, seat, mv: dict) -> State:
    _turn(s, seat, SETUP_ROAD)
    e = _index(mv, "edge", NUM_EDGES, "edge")
    if s.road[e] != -1:
        raise IllegalMove("there is already a road there")
    if e not in NODE_EDGES[s.last_node]:
        raise IllegalMove("the road must touch the settlement you just placed")
    s = s.copy()
    _put_road(s, s.cur, e)
    _log(s, "place_road", s.cur, e)
    _next_setup_turn(s)
    return s


def _next_setup_turn(s: State) -> None:
    s.step += 1
    s.last_node = -1
    g = s.g
    if s.step < 2 * g.n:
        s.cur = g.setup_order[s.step]
        s.phase = SETUP_SETTLEMENT
    else:
        s.auto = [None] * g.n
        s.cur = g.order[0]
        s.turn = 1
        s.phase = ROLL
        _log(s, "start", s.cur)


def _move_pair(s: State, seat, mv: dict) -> State:
    """Move this player's auto-placed settlement and road (once, on a later setup turn)."""
    _turn(s, seat, SETUP_SETTLEMENT, SETUP_ROAD)
    p = s.cur
    pair = s.auto[p]
    if pair is None or s.step < s.g.n:
        raise IllegalMove("you have no auto-placed settlement and road to move")
    x = _index(mv, "node", NUM_NODES, "node")
    e = _index(mv, "edge", NUM_EDGES, "edge")
    old_x, old_e = pair
    if s.bld[x] != -1 and x != old_x:
        raise IllegalMove("that corner is already taken")
    if _blocked_without(s, old_x) & NODE_BIT[x]:
        raise IllegalMove("that corner is too close to a settlement")
    if e not in NODE_EDGES[x]:
        raise IllegalMove("the road must touch the settlement")
    if s.road[e] != -1 and e != old_e:
        raise IllegalMove("there is already a road there")
    s = s.copy()
    s.bld = s.bld[:]
    s.road = s.road[:]
    s.bld[old_x] = -1
    s.road[old_e] = -1
    s.road_mask &= ~EDGE_BIT[old_e]
    s.pieces[p * 3] += 1
    s.pieces[p * 3 + 2] += 1
    s.vp[p] -= 1
    s.blocked = _blocked_without(s, -1)
    # harbour rates and reach from p's remaining pieces, then the new pair
    o = p * 5
    s.rate[o:o + 5] = [4] * 5
    s.reach[p] = 0
    for y in range(NUM_NODES):
        if s.bld[y] == p:
            kind = s.g.board.node_harbour[y]
            if kind == 5:
                s.rate[o:o + 5] = [min(3, v) for v in s.rate[o:o + 5]]
            elif kind != -1:
                s.rate[o + kind] = 2
    for f in range(NUM_EDGES):
        if s.road[f] == p:
            a, b = EDGE_NODES[f]
            s.reach[p] |= NODE_BIT[a] | NODE_BIT[b]
    for q in range(s.g.n):
        _recompute_frontier(s, q)
        s.road_len[q] = longest_road(s.road, s.bld, q)
    _put_settlement(s, p, x)
    _put_road(s, p, e)
    s.auto[p] = None
    _log(s, "move_pair", p, old_x, x)
    return s


# == the turn ===============================================================================
def _roll(s: State, seat, mv: dict) -> State:
    if s.rolled and seat == s.cur and s.phase != OVER:
        raise IllegalMove("you have already rolled this turn")
    _turn(s, seat, ROLL)
    s = s.copy()
    _do_roll(s)
    return s


def _do_roll(s: State) -> None:
    d1 = rand_below(s, 6) + 1
    d2 = rand_below(s, 6) + 1
    s.dice = (d1, d2)
    s.rolled = True
    total = d1 + d2
    if total == 7:
        _log(s, "roll", s.cur, d1, d2, (), ())
        limit = s.g.discard_limit
        hand = s.hand
        need = s.need
        for q in range(s.g.n):
            o = q * 5
            k = hand[o] + hand[o + 1] + hand[o + 2] + hand[o + 3] + hand[o + 4]
            if k > limit:
                need[q] = k // 2
        # Half of one card is none (a discard limit of 0): nobody to wait for, the robber moves.
        s.phase = DISCARD if any(need) else ROBBER
        return
    gains, short = _produce(s, total)
    _log(s, "roll", s.cur, d1, d2, gains, short)
    s.phase = MAIN


def _produce(s: State, roll: int):
    """Pay out a roll; the bank's limits as the rules say.  Returns (gains, short) for the
    log: gains = ((seat, resource, count), ...), short = resources withheld or cut."""
    owed: dict = {}
    bld, robber = s.bld, s.robber
    for h, r, nodes in s.g.board.production[roll]:
        if h == robber:
            continue
        for x in nodes:
            v = bld[x]
            if v != -1:
                key = (v & 3) * 5 + r
                owed[key] = owed.get(key, 0) + (2 if v > 3 else 1)
    if not owed:
        return (), ()
    bank, hand = s.bank, s.hand
    totals = [0] * 5
    takers = [0] * 5
    for key, k in owed.items():
        totals[key % 5] += k
        takers[key % 5] += 1
    gains = []
    short = []
    for key in sorted(owed):
        r = key % 5
        k = owed[key]
        if totals[r] > bank[r]:
            if takers[r] > 1:
                if r not in short:
                    short.append(r)
                continue
            k = bank[r]
            short.append(r)
            if not k:
                continue
        bank[r] -= k
        hand[key] += k
        gains.append((key // 5, r, k))
    return tuple(gains), tuple(short)


def _discard(s: State, seat, mv: dict) -> State:
    if s.phase != DISCARD:
        raise IllegalMove("nobody has to discard now")
    if not is_actor(s, seat):
        raise IllegalMove("you have nothing to discard")
    cards = _bundle(mv, "cards")
    k = sum(cards)
    if k > s.need[seat]:
        raise IllegalMove(f"you only have to discard {s.need[seat]} card(s)")
    o = seat * 5
    for r in range(5):
        if cards[r] > s.hand[o + r]:
            raise IllegalMove(f"you do not hold {cards[r]} {RESOURCES[r]}")
    s = s.copy()
    _do_discard(s, seat, cards)
    return s


def _do_discard(s: State, q: int, cards: list) -> None:
    o = q * 5
    for r in range(5):
        s.hand[o + r] -= cards[r]
        s.bank[r] += cards[r]
    s.need[q] -= sum(cards)
    _log(s, "discard", q, tuple(cards))
    if not any(s.need):
        if s.expired:
            _end_turn(s)        # the turn timer ran out before the robber moved
        else:
            s.phase = ROBBER


def _move_robber(s: State, seat, mv: dict) -> State:
    _turn(s, seat, ROBBER)
    h = _index(mv, "hex", NUM_HEXES, "hex")
    if h == s.robber:
        raise IllegalMove("the robber must move to another hex")
    p = s.cur
    victims = _victims(s, p, h)
    victim = mv.get("victim")
    if victims:
        if victim not in victims or type(victim) is not int:
            names = ", ".join(s.g.names[q] for q in victims)
            raise IllegalMove(f"choose whom to steal from: {names}")
    elif victim is not None:
        raise IllegalMove("nobody there can be stolen from")
    s = s.copy()
    s.robber = h
    card = None
    if victims:
        card = _steal(s, victim, p)
    _log(s, "robber", p, h, victim, card)
    s.phase = MAIN if s.rolled else ROLL
    return s


def _random_card(s: State, q: int) -> int:
    o = q * 5
    k = rand_below(s, hand_size(s, q))
    for r in range(5):
        k -= s.hand[o + r]
        if k < 0:
            return r
    raise AssertionError("empty hand")


def _steal(s: State, victim: int, thief: int) -> int:
    r = _random_card(s, victim)
    s.hand[victim * 5 + r] -= 1
    s.hand[thief * 5 + r] += 1
    return r


def _build_road(s: State, seat, mv: dict) -> State:
    _turn(s, seat, MAIN, FREE_ROADS)
    e = _index(mv, "edge", NUM_EDGES, "edge")
    p = s.cur
    if s.road[e] != -1:
        raise IllegalMove("there is already a road there")
    if not s.pieces[p * 3 + 2]:
        raise IllegalMove("you have no roads left")
    if not s.frontier[p] & EDGE_BIT[e]:
        raise IllegalMove("a road must connect to your own road, settlement or city")
    free = s.phase == FREE_ROADS
    if not free and not _can_afford(s, p, COST_ROAD):
        raise IllegalMove("you cannot afford a road (1 wood, 1 brick)")
    s = s.copy()
    if free:
        s.free_roads -= 1
    else:
        _pay(s, p, COST_ROAD)
    _log(s, "build_road", p, e, free)
    _put_road(s, p, e)
    if free and (not s.free_roads or not s.pieces[p * 3 + 2] or not s.frontier[p]):
        s.free_roads = 0
        s.phase = MAIN if s.rolled else ROLL
    _check_win(s)
    return s


def _build_settlement(s: State, seat, mv: dict) -> State:
    _turn(s, seat, MAIN)
    x = _index(mv, "node", NUM_NODES, "node")
    p = s.cur
    _check_spot(s.bld, s.blocked, x)
    if not s.reach[p] & NODE_BIT[x]:
        raise IllegalMove("a settlement needs a road of yours leading to it")
    if not s.pieces[p * 3]:
        raise IllegalMove("you have no settlements left")
    if not _can_afford(s, p, COST_SETTLEMENT):
        raise IllegalMove("you cannot afford a settlement (wood, brick, sheep, wheat)")
    s = s.copy()
    _pay(s, p, COST_SETTLEMENT)
    _log(s, "build_settlement", p, x)
    _put_settlement(s, p, x)
    _check_win(s)
    return s


def _build_city(s: State, seat, mv: dict) -> State:
    _turn(s, seat, MAIN)
    x = _index(mv, "node", NUM_NODES, "node")
    p = s.cur
    if s.bld[x] != p:
        raise IllegalMove("a city must replace one of your settlements")
    if not s.pieces[p * 3 + 1]:
        raise IllegalMove("you have no cities left")
    if not _can_afford(s, p, COST_CITY):
        raise IllegalMove("you cannot afford a city (2 wheat, 3 ore)")
    s = s.copy()
    _pay(s, p, COST_CITY)
    s.bld = s.bld[:]
    s.bld[x] = p + 4
    s.pieces[p * 3] += 1
    s.pieces[p * 3 + 1] -= 1
    s.vp[p] += 1
    _log(s, "build_city", p, x)
    _check_win(s)
    return s


def _buy_dev(s: State, seat, mv: dict) -> State:
    _turn(s, seat, MAIN)
    p = s.cur
    if not s.deck:
        raise IllegalMove("the development deck is empty")
    if not _can_afford(s, p, COST_DEV):
        raise IllegalMove("you cannot afford a development card (sheep, wheat, ore)")
    s = s.copy()
    _pay(s, p, COST_DEV)
    s.deck = s.deck[:]
    card = s.deck.pop()
    s.dev[p * 5 + card] += 1
    s.new_dev[card] += 1
    _log(s, "buy_dev", p, card)
    _check_win(s)
    return s


def _play_dev(s: State, seat, mv: dict) -> State:
    _turn(s, seat, ROLL, MAIN)
    p = s.cur
    name = mv.get("card")
    card = DEV_INDEX.get(name) if isinstance(name, str) else None
    if card is None or card == VICTORY_POINT:
        raise IllegalMove("'card' must be knight, road_building, year_of_plenty or monopoly")
    if s.dev_played:
        raise IllegalMove("you have already played a development card this turn")
    held = s.dev[p * 5 + card]
    if not held:
        raise IllegalMove(f"you hold no {name.replace('_', ' ')} card")
    if held <= s.new_dev[card]:
        raise IllegalMove("a development card cannot be played the turn it was bought")
    if card == ROAD_BUILDING and not (s.pieces[p * 3 + 2] and s.frontier[p]):
        raise IllegalMove("you have no road you could place")
    if card == YEAR_OF_PLENTY:
        picks = mv.get("resources")
        if not isinstance(picks, list) or len(picks) != 2 or not all(
                isinstance(x, str) and x in RES_INDEX for x in picks):
            raise IllegalMove("name two resources, e.g. \"resources\": [\"wood\", \"ore\"]")
        picks = [RES_INDEX[x] for x in picks]
        if not (s.bank[picks[0]] or s.bank[picks[1]]):
            raise IllegalMove("the bank has none of those")
    elif card == MONOPOLY:
        r = _resource(mv, "resource")
    s = s.copy()
    s.dev[p * 5 + card] -= 1
    s.dev_played = True
    if card == KNIGHT:
        s.knights[p] += 1
        _log(s, "play_dev", p, card, None)
        k = s.knights[p]
        la = s.la
        if k >= MIN_LARGEST_ARMY and la != p and (la == -1 or k > s.knights[la]):
            if la != -1:
                s.vp[la] -= 2
            s.vp[p] += 2
            s.la = p
            _log(s, "largest_army", p, la, k)
        s.phase = ROBBER
    elif card == ROAD_BUILDING:
        s.free_roads = min(2, s.pieces[p * 3 + 2])
        s.phase = FREE_ROADS
        _log(s, "play_dev", p, card, None)
    elif card == YEAR_OF_PLENTY:
        got = []
        for r in picks:
            if s.bank[r]:
                s.bank[r] -= 1
                s.hand[p * 5 + r] += 1
                got.append(r)
        _log(s, "play_dev", p, card, tuple(got))
    else:
        took = 0
        for q in range(s.g.n):
            if q != p:
                k = s.hand[q * 5 + r]
                s.hand[q * 5 + r] = 0
                took += k
        s.hand[p * 5 + r] += took
        _log(s, "play_dev", p, card, (r, took))
    _check_win(s)
    return s


def _bank_trade(s: State, seat, mv: dict) -> State:
    _turn(s, seat, MAIN)
    p = s.cur
    give, get = _resource(mv, "give"), _resource(mv, "get")
    count = mv.get("count", 1)
    if type(count) is not int or count < 1:
        raise IllegalMove("'count' must be a positive whole number")
    if give == get:
        raise IllegalMove("a trade cannot swap a resource for itself")
    rate = s.rate[p * 5 + give]
    if s.hand[p * 5 + give] < rate * count:
        raise IllegalMove(f"you need {rate * count} {RESOURCES[give]} for that "
                          f"(your rate is {rate}:1)")
    if s.bank[get] < count:
        raise IllegalMove(f"the bank has only {s.bank[get]} {RESOURCES[get]}")
    s = s.copy()
    s.hand[p * 5 + give] -= rate * count
    s.bank[give] += rate * count
    s.hand[p * 5 + get] += count
    s.bank[get] -= count
    _log(s, "bank_trade", p, give, rate * count, get, count)
    return s


def _offer(s: State, seat, mv: dict) -> State:
    _turn(s, seat, MAIN)
    p = s.cur
    give, get = _bundle(mv, "give"), _bundle(mv, "get")
    for r in range(5):
        if give[r] and get[r]:
            raise IllegalMove("a trade cannot swap a resource for itself")
        if give[r] > s.hand[p * 5 + r]:
            raise IllegalMove(f"you do not hold {give[r]} {RESOURCES[r]}")
    s = s.copy()
    s.offer = (tuple(give), tuple(get))
    s.answers = [PENDING] * s.g.n
    s.answers[p] = -1
    s.phase = TRADE
    _log(s, "offer", p, s.offer[0], s.offer[1])
    return s


def _answer(s: State, seat, mv: dict) -> State:
    if s.phase != TRADE:
        raise IllegalMove("there is no trade offer to answer")
    if seat == s.cur:
        raise IllegalMove("you cannot answer your own offer")
    if not is_actor(s, seat):
        raise IllegalMove("you have already answered this offer")
    accept = mv["type"] == "accept"
    if accept:
        get = s.offer[1]
        o = seat * 5
        if any(s.hand[o + r] < get[r] for r in range(5)):
            raise IllegalMove("you do not hold the cards asked for")
    s = s.copy()
    s.answers[seat] = ACCEPTED if accept else DECLINED
    _log(s, "answer", seat, accept)
    if all(a == DECLINED for q, a in enumerate(s.answers) if q != s.cur):
        _close_offer(s, "declined")
    return s


def _close_offer(s: State, why: str) -> None:
    s.offer = None
    s.answers = [PENDING] * s.g.n
    s.phase = MAIN
    _log(s, "offer_closed", s.cur, why)


def _confirm(s: State, seat, mv: dict) -> State:
    _turn(s, seat, TRADE)
    q = mv.get("seat")
    if type(q) is not int or not 0 <= q < s.g.n or s.answers[q] != ACCEPTED:
        raise IllegalMove("confirm with a player who accepted the offer")
    s = s.copy()
    p = s.cur
    give, get = s.offer
    for r in range(5):
        s.hand[p * 5 + r] += get[r] - give[r]
        s.hand[q * 5 + r] += give[r] - get[r]
    _log(s, "trade", p, q, give, get)
    s.offer = None
    s.answers = [PENDING] * s.g.n
    s.phase = MAIN
    return s


def _cancel(s: State, seat, mv: dict) -> State:
    _turn(s, seat, TRADE)
    s = s.copy()
    _close_offer(s, "cancelled")
    return s


def _end_turn_move(s: State, seat, mv: dict) -> State:
    _turn(s, seat, MAIN, TRADE)
    s = s.copy()
    if s.phase == TRADE:
        _close_offer(s, "lapsed")
    _end_turn(s)
    return s


def _end_turn(s: State) -> None:
    g = s.g
    if s.offer is not None:
        _close_offer(s, "lapsed")
    _log(s, "end_turn", s.cur)
    s.new_dev = [0] * 5
    s.dev_played = False
    s.rolled = False
    s.expired = False
    s.free_roads = 0
    s.cur = g.order[(g.order.index(s.cur) + 1) % g.n]
    s.turn += 1
    s.phase = ROLL
    _check_win(s)   # points gained on someone else's turn count as this turn begins
    if s.phase != OVER and s.turn > g.config.get("max_turns", MAX_TURNS):
        _end_by_turn_limit(s)


def _end_by_turn_limit(s: State) -> None:
    """A game that cannot end (no place left to build, no cards left) stops after the room's
    turn limit: the most points (hidden cards included) wins; a tie at the top has no winner."""
    totals = [s.vp[q] + s.dev[q * 5 + VICTORY_POINT] for q in range(s.g.n)]
    best = max(totals)
    s.phase = OVER
    s.winner = totals.index(best) if totals.count(best) == 1 else -1
    _log(s, "turn_limit", s.winner, best)


_HANDLERS = {
    "place_settlement": _place_settlement, "place_road": _place_road, "move_pair": _move_pair,
    "roll": _roll, "discard": _discard, "move_robber": _move_robber,
    "build_road": _build_road, "build_settlement": _build_settlement,
    "build_city": _build_city, "buy_dev": _buy_dev, "play_dev": _play_dev,
    "bank_trade": _bank_trade, "offer": _offer, "accept": _answer, "decline": _answer,
    "confirm": _confirm, "cancel": _cancel, "end_turn": _end_turn_move,
}
MOVE_TYPES = tuple(_HANDLERS)
_FIELDS = {   # the keys each move type may carry ("count" and "victim" are optional)
    "place_settlement": {"node"}, "place_road": {"edge"}, "move_pair": {"node", "edge"},
    "roll": set(), "discard": {"cards"}, "move_robber": {"hex", "victim"},
    "build_road": {"edge"}, "build_settlement": {"node"}, "build_city": {"node"},
    "buy_dev": set(), "play_dev": {"card", "resources", "resource"},
    "bank_trade": {"give", "get", "count"}, "offer": {"give", "get"}, "accept": set(),
    "decline": set(), "confirm": {"seat"}, "cancel": set(), "end_turn": set(),
}
_FIELDS = {t: frozenset(keys | {"type"}) for t, keys in _FIELDS.items()}


def apply(s: State, seat, move) -> State:
    """The state after ``seat`` plays ``move``; raises IllegalMove (state unchanged)."""
    if type(move) is not dict:
        raise IllegalMove("a move is an object with a 'type'")
    kind = move.get("type")
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise IllegalMove(f"unknown move type {kind!r}")
    if not move.keys() <= _FIELDS[kind]:
        extra = sorted(str(k) for k in move.keys() - _FIELDS[kind])
        raise IllegalMove(f"a {kind} move has no field {', '.join(extra)}")
    if s.phase == OVER:
        raise IllegalMove("the game is over")
    return handler(s, seat, move)


# == timeouts ===============================================================================
def timer_kind(s: State) -> str | None:
    """Which of the room's timers runs now: 'setup', 'turn' or 'discard' (None when over)."""
    ph = s.phase
    if ph == OVER:
        return None
    if ph in (SETUP_SETTLEMENT, SETUP_ROAD):
        return "setup"
    if ph == DISCARD:
        return "discard"
    return "turn"


def timeout_move(s: State, seat) -> State:
    """What the rules do when ``seat``'s time runs out (rules: "Timers")."""
    if not is_actor(s, seat):
        raise IllegalMove("that seat has nothing pending")
    ph = s.phase
    if ph == SETUP_SETTLEMENT:
        x = auto_settlement_spot(s)
        s2 = _place_settlement(s, seat, {"type": "place_settlement", "node": x})
        return _auto_road(s2, seat, s.step)
    if ph == SETUP_ROAD:
        return _auto_road(s, seat, s.step)
    if ph == DISCARD:
        s = s.copy()
        _log(s, "timeout", seat, "discard")
        _do_discard(s, seat, _random_cards(s, seat, s.need[seat]))
        return s
    if ph == TRADE and seat != s.cur:
        return _answer(s, seat, {"type": "decline"})
    s = s.copy()
    _log(s, "timeout", seat, "turn")
    _expire_turn(s)
    return s


def _auto_road(s: State, seat: int, step: int) -> State:
    e = auto_road_edge(s, s.last_node)
    x = s.last_node
    s = _place_road(s, seat, {"type": "place_road", "edge": e})
    _log(s, "auto_pair", seat, x, e)
    if step < s.g.n:      # a first-round pair may be moved on the player's second turn
        s.auto[seat] = (x, e)
    return s


def _random_cards(s: State, q: int, k: int) -> list:
    out = [0] * 5
    o = q * 5
    for _ in range(k):
        r = _random_card(s, q)
        s.hand[o + r] -= 1
        out[r] += 1
    for r in range(5):
        s.hand[o + r] += out[r]
    return out


def _expire_turn(s: State) -> None:
    """The active player's turn timer ran out: an unrolled turn rolls, a pending robber stays,
    free roads are lost, open offers lapse, and the turn ends."""
    s.expired = True
    if s.phase in (ROBBER, FREE_ROADS):
        s.free_roads = 0
        s.phase = MAIN if s.rolled else ROLL
    if s.phase == TRADE:
        _close_offer(s, "lapsed")
    if s.phase == ROLL:
        _do_roll(s)
        if s.phase == ROBBER:
            s.phase = MAIN
        elif s.phase == DISCARD:
            p = s.cur
            if s.need[p]:
                _do_discard(s, p, _random_cards(s, p, s.need[p]))
            return      # others discard on their own timers; the turn then ends
    if s.phase == MAIN:
        _end_turn(s)


def auto_settlement_spot(s: State) -> int:
    """A sensible free corner: most pips, then most different resources, then lowest id."""
    board = s.g.board
    best, best_key = -1, None
    for x in _bits(~s.blocked & ALL_NODES_MASK):
        key = (board.node_pips[x],
               len({board.resource[h] for h in NODE_HEXES[x]} - {None}), -x)
        if best_key is None or key > best_key:
            best, best_key = x, key
    return best


def auto_road_edge(s: State, x: int) -> int:
    """The road from ``x`` pointing at the best corner one step further on."""
    board = s.g.board
    free = ~s.blocked & ALL_NODES_MASK
    best, best_key = -1, None
    for e in NODE_EDGES[x]:
        if s.road[e] != -1:
            continue
        y = EDGE_NODES[e][0] + EDGE_NODES[e][1] - x
        ahead = [board.node_pips[z] for z in NODE_NEIGHBOURS[y] if free & NODE_BIT[z]]
        key = (max(ahead, default=0), -e)
        if best_key is None or key > best_key:
            best, best_key = e, key
    return best


__all__ = ["actors", "is_actor", "legal_moves", "apply", "timeout_move", "timer_kind",
           "victory_points", "hand_size", "MOVE_TYPES"]
