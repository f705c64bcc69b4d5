"""What each seat may see (rules: "What each player may see"), and the game log in words.

Public: the board, buildings, rolls and what they produced, hand sizes, development card
counts, knights played, harbours, the bank's cards, the deck's size, the log.  Private to a
seat: its cards, its development cards and which were bought this turn, and the card of a
steal it took part in.  Nobody sees the deck's order or the random stream.  Hidden victory
point cards are shown when the game is over.
"""
from __future__ import annotations

from games.hexland.engine.board import NODE_HEXES, RESOURCES, TOPOLOGY
from games.hexland.engine.rules import actors, legal_moves, timer_kind
from games.hexland.engine.state import (
    DEV_CARDS, DEV_TITLES, DISCARD, MONOPOLY, OVER, PHASES, TRADE, VICTORY_POINT,
    YEAR_OF_PLENTY, State,
)

_ANSWER = {0: "pending", 1: "accepted", 2: "declined"}


def _cards(counts) -> dict:
    return dict(zip(RESOURCES, counts))


# States share their building and road lists until a build copies them (copy on write), so
# the rendered lists can be reused while the same list object comes back.  One entry each.
_rendered: dict = {"bld": (None, None), "road": (None, None)}


def _buildings(bld: list) -> list:
    seen, out = _rendered["bld"]
    if seen is not bld:
        out = [{"node": x, "seat": b & 3, "kind": "city" if b > 3 else "settlement"}
               for x, b in enumerate(bld) if b != -1]
        _rendered["bld"] = (bld, out)
    return out


def _roads(road: list) -> list:
    seen, out = _rendered["road"]
    if seen is not road:
        out = [{"edge": e, "seat": q} for e, q in enumerate(road) if q != -1]
        _rendered["road"] = (road, out)
    return out


def view(s: State, seat=None, log_tail: int | None = None) -> dict:
    """The game as ``seat`` sees it (None: a spectator).  JSON-serialisable; shared parts
    (``topology``, ``board``, ``buildings``, ``roads``) are reused between views: treat the
    view as read-only.
    ``log_tail``: only the last N log lines (bots pass 0); None gives the whole log."""
    g = s.g
    n = g.n
    over = s.phase == OVER
    if seat is not None and not (type(seat) is int and 0 <= seat < n):
        raise ValueError(f"no seat {seat!r} in this game")
    hand, dev = s.hand, s.dev
    players = []
    for q in range(n):
        o = q * 5
        info = {
            "seat": q, "name": g.names[q], "vp": s.vp[q],
            "hand_size": hand[o] + hand[o + 1] + hand[o + 2] + hand[o + 3] + hand[o + 4],
            "dev_cards": dev[o] + dev[o + 1] + dev[o + 2] + dev[o + 3] + dev[o + 4],
            "knights": s.knights[q], "road_length": s.road_len[q],
            "longest_road": s.lr == q, "largest_army": s.la == q,
            "pieces": {"settlements": s.pieces[q * 3], "cities": s.pieces[q * 3 + 1],
                       "roads": s.pieces[q * 3 + 2]},
            "rates": _cards(s.rate[o:o + 5]),
            "auto_pair": list(s.auto[q]) if s.auto[q] else None,
        }
        if over:
            info["vp_cards"] = dev[o + VICTORY_POINT]
            info["total_vp"] = s.vp[q] + dev[o + VICTORY_POINT]
        players.append(info)
    v = {
        "game": "hexland",
        "seat": seat,
        "phase": PHASES[s.phase],
        "turn": s.turn,
        "current": s.cur,
        "actors": sorted(actors(s)),
        "timer": timer_kind(s),
        "timer_seconds": dict(zip(("setup", "turn", "discard"), g.timers)),
        "order": list(g.order),
        "vp_to_win": g.vp_to_win,
        "dice": list(s.dice) if s.dice else None,
        "topology": TOPOLOGY,
        "board": g.board.public(),
        "robber": s.robber,
        "buildings": _buildings(s.bld),
        "roads": _roads(s.road),
        "bank": _cards(s.bank),
        "deck_size": len(s.deck),
        "players": players,
        "longest_road": None if s.lr == -1 else s.lr,
        "largest_army": None if s.la == -1 else s.la,
        "discards": list(s.need) if s.phase == DISCARD else [0] * n,   # owed, per seat
        "offer": None,
        "free_roads": s.free_roads,
        "setup_node": s.last_node if s.last_node != -1 else None,
        "winner": None if s.winner == -1 else s.winner,
        "log_length": s.log_len,
        "roll_counts": roll_counts(s) if over else None,
        "log": render_log(s, seat, log_tail),
    }
    if s.phase == TRADE:
        give, get = s.offer
        v["offer"] = {"from": s.cur, "give": _cards(give), "get": _cards(get),
                      "answers": [_ANSWER.get(a) for a in s.answers]}   # None: the offerer
    if seat is not None:
        o = seat * 5
        own_new = s.new_dev if seat == s.cur else [0] * 5
        v["you"] = {
            "hand": _cards(hand[o:o + 5]),
            "dev_cards": {DEV_CARDS[c]: dev[o + c] for c in range(5)},
            "new_dev_cards": {DEV_CARDS[c]: own_new[c] for c in range(5)},
            "vp": s.vp[seat] + dev[o + VICTORY_POINT],
            "dev_played": s.dev_played and seat == s.cur,
        }
        v["legal_moves"] = legal_moves(s, seat)
    else:
        v["legal_moves"] = []
    return v


def roll_counts(s: State) -> dict:
    """How often each total from 2 to 12 was rolled (public: every roll is announced)."""
    counts = dict.fromkeys(range(2, 13), 0)
    node = s.log
    while node is not None:
        event = node[0]
        if event[0] == "roll":
            counts[event[2] + event[3]] += 1
        node = node[1]
    return {str(total): n for total, n in counts.items()}


# == the log in words =======================================================================
def render_log(s: State, seat=None, tail: int | None = None) -> list:
    events = []
    node = s.log
    while node is not None and (tail is None or len(events) < tail):
        events.append(node[0])
        node = node[1]
    events.reverse()
    return [describe(e, s, seat) for e in events]


def _amounts(pairs) -> str:
    parts = []
    for r, k in pairs:
        parts.append(f"{k} {RESOURCES[r]}")
    return ", ".join(parts) if parts else "nothing"


def _bundle_text(counts) -> str:
    return _amounts([(r, k) for r, k in enumerate(counts) if k])


def _node_text(s: State, x: int) -> str:
    b = s.g.board
    parts = []
    for h in NODE_HEXES[x]:
        if b.resource[h] is None:
            parts.append("desert")
        else:
            parts.append(f"{b.number[h]} {RESOURCES[b.resource[h]]}")
    return " / ".join(parts)


def _hex_text(s: State, h: int) -> str:
    b = s.g.board
    if b.resource[h] is None:
        return "the desert"
    return f"the {b.number[h]} {RESOURCES[b.resource[h]]}"


def describe(event: tuple, s: State, seat=None) -> str:
    """One log event as a sentence for ``seat`` (private details only for those involved)."""
    names = s.g.names
    kind, p = event[0], event[1]
    who = names[p] if isinstance(p, int) and 0 <= p < len(names) else ""
    if kind == "place_settlement":
        return f"{who} placed a settlement at {_node_text(s, event[2])}"
    if kind == "place_road":
        return f"{who} placed a road"
    if kind == "payout":
        return f"{who} received {_amounts([(r, 1) for r in event[2]])} as a starting hand"
    if kind == "auto_pair":
        return f"{who}'s time ran out: a settlement and road were placed for them"
    if kind == "move_pair":
        return f"{who} moved their auto-placed settlement to {_node_text(s, event[3])}"
    if kind == "start":
        return f"Setup is over; {who} takes the first turn"
    if kind == "roll":
        d1, d2, gains, short = event[2], event[3], event[4], event[5]
        text = f"{who} rolled {d1 + d2}"
        if d1 + d2 == 7:
            return text + " — the robber!"
        if gains:
            text += " — " + ", ".join(f"{names[q]} +{k} {RESOURCES[r]}" for q, r, k in gains)
        else:
            text += " — nothing produced"
        if short:
            text += f" (the bank ran short of {', '.join(RESOURCES[r] for r in short)})"
        return text
    if kind == "discard":
        return f"{who} discarded {_bundle_text(event[2])}"
    if kind == "robber":
        h, victim, card = event[2], event[3], event[4]
        text = f"{who} moved the robber to {_hex_text(s, h)}"
        if victim is None:
            return text
        if seat is not None and seat in (p, victim):
            return text + f" and stole 1 {RESOURCES[card]} from {names[victim]}"
        return text + f" and stole a card from {names[victim]}"
    if kind == "build_road":
        return f"{who} placed a free road" if event[3] else f"{who} built a road"
    if kind == "build_settlement":
        return f"{who} built a settlement at {_node_text(s, event[2])}"
    if kind == "build_city":
        return f"{who} built a city at {_node_text(s, event[2])}"
    if kind == "buy_dev":
        if seat == p:
            return f"{who} bought a development card ({DEV_TITLES[event[2]]})"
        return f"{who} bought a development card"
    if kind == "play_dev":
        card, detail = event[2], event[3]
        text = f"{who} played {DEV_TITLES[card]}"
        if card == YEAR_OF_PLENTY:
            text += f" and took {_amounts([(r, 1) for r in detail])}"
        elif card == MONOPOLY:
            text += f" on {RESOURCES[detail[0]]} and took {detail[1]}"
        return text
    if kind == "bank_trade":
        give, k, get, m = event[2], event[3], event[4], event[5]
        return f"{who} traded {k} {RESOURCES[give]} for {m} {RESOURCES[get]} with the bank"
    if kind == "offer":
        return (f"{who} offers {_bundle_text(event[2])} for {_bundle_text(event[3])}")
    if kind == "answer":
        return f"{who} {'accepts' if event[2] else 'declines'}"
    if kind == "offer_closed":
        return {"declined": "Everyone declined the offer",
                "cancelled": f"{who} withdrew the offer",
                "lapsed": "The offer lapsed"}[event[2]]
    if kind == "trade":
        q, give, get = event[2], event[3], event[4]
        return (f"{who} traded {_bundle_text(give)} to {names[q]} "
                f"for {_bundle_text(get)}")
    if kind == "longest_road":
        new, old, length = event[1], event[2], event[3]
        if new == -1:
            return "Longest Road is set aside: nobody alone has the longest road of 5+"
        if old == -1:
            return f"{names[new]} takes Longest Road ({length} roads)"
        return f"{names[new]} takes Longest Road from {names[old]} ({length} roads)"
    if kind == "largest_army":
        new, old, k = event[1], event[2], event[3]
        if old == -1:
            return f"{names[new]} takes Largest Army ({k} knights)"
        return f"{names[new]} takes Largest Army from {names[old]} ({k} knights)"
    if kind == "end_turn":
        return f"{who} ended their turn"
    if kind == "timeout":
        return f"{who}'s {event[2]} time ran out"
    if kind == "win":
        return f"{who} wins with {event[2]} victory points!"
    if kind == "turn_limit":
        if who:
            return f"The turn limit is reached: {who} wins with the most points ({event[2]})"
        return f"The turn limit is reached: the game ends in a tie at {event[2]} points"
    return f"{kind} {who}"


__all__ = ["view", "render_log", "describe"]
