"""Building with costs and piece limits; bank, harbour and player trades."""
import pytest

from games.hexland import engine as H
from games.hexland.engine.board import HARBOUR_NODES, NODE_HEXES, NODE_NEIGHBOURS
from games.hexland.engine.state import MAIN, TRADE

from .helpers import edge, hand, next_roll, play, position, snapshot

RICH = {"wood": 6, "brick": 6, "sheep": 4, "wheat": 6, "ore": 6}


def test_roads_connect_and_stop_at_opponent_buildings():
    s = position(3, settlements={0: [8], 1: [17]}, roads={0: [(8, 12)]}, hands={0: RICH})
    with pytest.raises(H.IllegalMove, match="must connect"):
        play(s, 0, "build_road", edge=edge(28, 33))
    with pytest.raises(H.IllegalMove, match="already a road"):
        play(s, 0, "build_road", edge=edge(8, 12))
    s = play(s, 0, "build_road", edge=edge(12, 17))      # a road may end at Bo's settlement
    assert hand(s, 0)["wood"] == 5 and s.pieces[2] == 13
    legal = {m["edge"] for m in H.legal_moves(s, 0) if m["type"] == "build_road"}
    assert edge(17, 22) not in legal and edge(17, 23) not in legal   # ... but not pass it
    assert edge(7, 12) in legal and edge(8, 13) in legal
    with pytest.raises(H.IllegalMove, match="must connect"):
        play(s, 0, "build_road", edge=edge(17, 22))


def test_costs_are_checked_and_paid_to_the_bank():
    s = position(3, settlements={0: [8]}, hands={0: {"wood": 1}})
    with pytest.raises(H.IllegalMove, match="cannot afford a road"):
        play(s, 0, "build_road", edge=edge(8, 12))
    assert [m["type"] for m in H.legal_moves(s, 0, offers=False)] == ["end_turn"]
    s = position(3, settlements={0: [8]}, roads={0: [(8, 12), (12, 7)]}, hands={0: RICH})
    s2 = play(s, 0, "build_settlement", node=7)
    assert hand(s2, 0) == {"wood": 5, "brick": 5, "sheep": 3, "wheat": 5, "ore": 6}
    assert s2.vp[0] == 2 and s2.pieces[0] == 3
    s3 = play(s2, 0, "build_city", node=7)
    assert hand(s3, 0)["wheat"] == 3 and hand(s3, 0)["ore"] == 3
    assert s3.vp[0] == 3 and s3.pieces[0:2] == [4, 3] and s3.bld[7] == 4
    s4 = play(s3, 0, "buy_dev")
    assert sum(s4.dev[0:5]) == 1 and len(s4.deck) == 24
    assert sum(s4.bank) + sum(s4.hand) == 95


def test_settlements_need_a_road_and_the_distance_rule():
    s = position(3, settlements={0: [8], 1: [20]}, roads={0: [(8, 12), (12, 7)]},
                 hands={0: RICH})
    with pytest.raises(H.IllegalMove, match="too close"):
        play(s, 0, "build_settlement", node=12)
    with pytest.raises(H.IllegalMove, match="needs a road"):
        play(s, 0, "build_settlement", node=29)
    with pytest.raises(H.IllegalMove, match="already taken"):
        play(s, 0, "build_settlement", node=20)
    assert [m["node"] for m in H.legal_moves(s, 0) if m["type"] == "build_settlement"] == [7]


def test_cities_replace_own_settlements_only():
    s = position(3, settlements={0: [8], 1: [20]}, hands={0: RICH})
    with pytest.raises(H.IllegalMove, match="replace one of your settlements"):
        play(s, 0, "build_city", node=20)
    with pytest.raises(H.IllegalMove, match="replace one of your settlements"):
        play(s, 0, "build_city", node=29)
    s = play(s, 0, "build_city", node=8)
    with pytest.raises(H.IllegalMove, match="replace one of your settlements"):
        play(s, 0, "build_city", node=8)


def test_piece_limits():
    spots = [2, 20, 29, 36, 47]
    s = position(3, settlements={0: spots}, roads={0: [(8, 12), (12, 7)]},
                 hands={0: RICH})
    assert s.pieces[0] == 0
    with pytest.raises(H.IllegalMove, match="no settlements left"):
        play(s, 0, "build_settlement", node=7)
    assert not [m for m in H.legal_moves(s, 0) if m["type"] == "build_settlement"]
    s = position(3, settlements={0: spots}, cities={0: spots[:4]}, hands={0: RICH})
    assert s.pieces[0:2] == [4, 0]
    with pytest.raises(H.IllegalMove, match="no cities left"):
        play(s, 0, "build_city", node=47)
    assert not [m for m in H.legal_moves(s, 0) if m["type"] == "build_city"]
    s = position(3, settlements={0: [8]}, hands={0: RICH})
    s.pieces[2] = 0
    with pytest.raises(H.IllegalMove, match="no roads left"):
        play(s, 0, "build_road", edge=edge(8, 12))


def harbour_node(s, kind):
    return next(x for pair in HARBOUR_NODES for x in pair if s.g.board.node_harbour[x] == kind)


def test_bank_trades_at_each_resources_best_rate():
    s = position(3, hands={0: {"wood": 4, "brick": 3, "sheep": 2}})
    assert s.rate[0:5] == [4, 4, 4, 4, 4]
    s2 = play(s, 0, "bank_trade", give="wood", get="ore")
    assert hand(s2, 0) == {"brick": 3, "sheep": 2, "ore": 1} and s2.bank[0] == 23 - 4
    with pytest.raises(H.IllegalMove, match="need 4 brick"):
        play(s, 0, "bank_trade", give="brick", get="ore")
    generic, sheep = harbour_node(s, 5), harbour_node(s, 2)
    assert sheep not in NODE_NEIGHBOURS[generic]
    s = position(3, settlements={0: [generic, sheep]},
                 hands={0: {"wood": 4, "brick": 3, "sheep": 2}})
    assert s.rate[0:5] == [3, 3, 2, 3, 3]
    s = play(s, 0, "bank_trade", give="brick", get="ore")          # 3:1
    s = play(s, 0, "bank_trade", give="sheep", get="wheat")        # 2:1
    with pytest.raises(H.IllegalMove, match="need 6 wood"):
        play(s, 0, "bank_trade", give="wood", get="ore", count=2)
    assert hand(s, 0) == {"wood": 4, "ore": 1, "wheat": 1}
    moves = {(m["give"], m["get"]) for m in H.legal_moves(s, 0) if m["type"] == "bank_trade"}
    assert moves == {("wood", g) for g in ("brick", "sheep", "wheat", "ore")}


def test_bank_trade_refusals():
    s = position(3, hands={0: {"wood": 8}, 1: {"ore": 19}})
    with pytest.raises(H.IllegalMove, match="bank has only 0 ore"):
        play(s, 0, "bank_trade", give="wood", get="ore")
    with pytest.raises(H.IllegalMove, match="for itself"):
        play(s, 0, "bank_trade", give="wood", get="wood")
    with pytest.raises(H.IllegalMove, match="'give' must be one of"):
        play(s, 0, "bank_trade", give="gold", get="wood")
    s = play(s, 0, "bank_trade", give="wood", get="sheep", count=2)
    assert hand(s, 0) == {"sheep": 2}
    s = position(3, hands={0: {"wood": 8}}, rolled=False)
    with pytest.raises(H.IllegalMove, match="roll the dice first"):
        play(s, 0, "bank_trade", give="wood", get="ore")


def trading():
    return position(4, hands={0: {"wood": 2, "brick": 1}, 1: {"ore": 1}, 2: {"ore": 2},
                              3: {"sheep": 3}})


def test_player_trade_accept_and_confirm():
    s = play(trading(), 0, "offer", give={"wood": 2}, get={"ore": 1})
    assert s.phase == TRADE and H.actors(s) == {0, 1, 2, 3}
    assert [m["type"] for m in H.legal_moves(s, 3)] == ["decline"]    # Di holds no ore
    with pytest.raises(H.IllegalMove, match="do not hold the cards"):
        play(s, 3, "accept")
    with pytest.raises(H.IllegalMove, match="your own offer"):
        play(s, 0, "accept")
    s = play(s, 1, "accept")
    s = play(s, 3, "decline")
    with pytest.raises(H.IllegalMove, match="already answered"):
        play(s, 1, "decline")
    assert H.view(s, 2)["offer"]["answers"] == [None, "accepted", "pending", "declined"]
    assert H.legal_moves(s, 0) == [{"type": "confirm", "seat": 1}, {"type": "cancel"}]
    with pytest.raises(H.IllegalMove, match="who accepted"):
        play(s, 0, "confirm", seat=3)
    with pytest.raises(H.IllegalMove, match="answer or cancel"):
        play(s, 0, "build_road", edge=0)
    s = play(s, 0, "confirm", seat=1)
    assert s.phase == MAIN and s.offer is None
    assert hand(s, 0) == {"brick": 1, "ore": 1} and hand(s, 1) == {"wood": 2}
    assert H.view(s)["log"][-1] == "Ana traded 2 wood to Bo for 1 ore"


def test_player_trade_lapses():
    s = play(trading(), 0, "offer", give={"brick": 1}, get={"sheep": 2})
    s = play(play(s, 1, "decline"), 2, "decline")
    s2 = play(s, 3, "decline")
    assert s2.phase == MAIN and s2.offer is None                     # everyone declined
    s3 = play(play(s, 3, "accept"), 0, "cancel")
    assert s3.phase == MAIN and hand(s3, 3) == {"sheep": 3}
    s4 = play(play(s, 3, "accept"), 0, "end_turn")                   # lapses at the turn's end
    assert s4.offer is None and s4.cur == 1 and hand(s4, 0) == {"wood": 2, "brick": 1}


def test_offer_refusals():
    s = trading()
    before = snapshot(s)
    for fields, msg in [({"give": {"wood": 1}, "get": {"wood": 1}}, "for itself"),
                        ({"give": {"wood": 3}, "get": {"ore": 1}}, "do not hold 3 wood"),
                        ({"give": {}, "get": {"ore": 1}}, "must name the cards"),
                        ({"give": {"wood": 1}, "get": {"ore": 0}}, "names no cards"),
                        ({"give": {"wood": -1}, "get": {"ore": 1}}, "whole numbers"),
                        ({"give": {"gold": 1}, "get": {"ore": 1}}, "not a resource"),
                        ({"give": "wood", "get": {"ore": 1}}, "must name the cards")]:
        with pytest.raises(H.IllegalMove, match=msg):
            play(s, 0, "offer", **fields)
    assert snapshot(s) == before
    with pytest.raises(H.IllegalMove, match="not your turn"):
        play(s, 1, "offer", give={"ore": 1}, get={"wood": 1})
    s = position(4, hands={0: {"wood": 2}}, rolled=False)
    with pytest.raises(H.IllegalMove, match="roll the dice first"):
        play(s, 0, "offer", give={"wood": 1}, get={"ore": 1})


def test_production_reaches_the_right_hexes():
    s = position(3, settlements={0: [29]}, rolled=False)            # wood 11, desert, ore 3
    assert {h for h in NODE_HEXES[29]} == {8, 9, 13}
    s = play(next_roll(s, 11), 0, "roll")
    assert hand(s, 0) == {"wood": 1}
