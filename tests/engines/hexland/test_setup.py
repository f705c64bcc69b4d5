"""Setup: snake draft, distance rule, the second settlement's payout, auto-placement and
moving an auto-placed pair later in setup."""
import pytest

from games.hexland import engine as H
from games.hexland.engine.board import NODE_EDGES, NODE_NEIGHBOURS
from games.hexland.engine.state import SETUP_ROAD

from .helpers import hand, new, play, snapshot

SPOTS = [8, 20, 29, 36, 44, 14]      # pairwise apart


def place(s, x, e=None):
    seat = s.cur
    s = play(s, seat, "place_settlement", node=x)
    return play(s, seat, "place_road", edge=NODE_EDGES[x][0] if e is None else e)


def test_snake_draft_then_first_turn():
    s = H.new_state({"players": 3, "layout": "fixed", "board_seed": 1, "order": [2, 0, 1]},
                    7)
    seen = []
    for x in SPOTS:
        seen.append(s.cur)
        assert H.actors(s) == {s.cur}
        s = place(s, x)
    assert seen == [2, 0, 1, 1, 0, 2]
    assert (H.view(s)["phase"], s.cur, s.turn) == ("roll", 2, 1)
    assert s.pieces == [3, 4, 13] * 3


def test_random_seat_order_comes_from_the_seed():
    orders = {H.new_state({"players": 4}, k).g.order for k in range(20)}
    assert len(orders) > 3


def test_distance_rule_and_road_placement():
    s = place(new(3), 8)
    with pytest.raises(H.IllegalMove, match="already taken"):
        play(s, 1, "place_settlement", node=8)
    for x in NODE_NEIGHBOURS[8]:
        with pytest.raises(H.IllegalMove, match="too close"):
            play(s, 1, "place_settlement", node=x)
    assert all(m["node"] not in (8, *NODE_NEIGHBOURS[8]) for m in H.legal_moves(s, 1))
    s = play(s, 1, "place_settlement", node=20)
    with pytest.raises(H.IllegalMove, match="touch the settlement"):
        play(s, 1, "place_road", edge=NODE_EDGES[8][1])
    with pytest.raises(H.IllegalMove, match="already a road"):
        play(s, 1, "place_road", edge=NODE_EDGES[8][0])
    with pytest.raises(H.IllegalMove, match="not your turn"):
        play(s, 0, "place_road", edge=NODE_EDGES[20][0])
    with pytest.raises(H.IllegalMove, match="place the road"):
        play(s, 1, "place_settlement", node=29)
    assert {m["edge"] for m in H.legal_moves(s, 1)} == set(NODE_EDGES[20])


def test_only_the_second_settlement_pays():
    s = new(3)
    for x in SPOTS[:5]:
        s = place(s, x)
    assert hand(s, 0) == {}
    assert hand(s, 2) == {"wood": 1, "wheat": 1, "sheep": 1}   # node 36: wood 3, wheat 4, sheep 5
    assert hand(s, 1) == {"ore": 1, "brick": 1, "wheat": 1}    # node 44: ore 3, brick 5, wheat 6
    s = place(s, 14)                                                 # node 14: wood, sheep, brick
    assert hand(s, 0) == {"wood": 1, "sheep": 1, "brick": 1}
    assert sum(s.bank) == 95 - 9


def test_desert_pays_nothing_at_setup():
    s = new(2)
    for x in (8, 20, 23):
        s = place(s, x)
    assert hand(s, 1) == {"brick": 1, "wood": 1}                     # node 23 touches the desert


def test_setup_timeout_places_a_sensible_pair():
    s = new(3)
    s = H.timeout_move(s, 0)
    x = next(i for i, b in enumerate(s.bld) if b == 0)
    pips = s.g.board.node_pips
    assert pips[x] == max(pips)                      # the best corner of an empty board
    road = next(e for e, q in enumerate(s.road) if q == 0)
    assert road in NODE_EDGES[x]
    assert s.auto[0] == (x, road) and s.cur == 1
    assert "time ran out" in H.view(s, 1)["log"][-1]


def test_setup_road_timeout_marks_the_pair():
    s = play(new(3), 0, "place_settlement", node=8)
    s = H.timeout_move(s, 0)
    assert s.auto[0][0] == 8 and s.road[s.auto[0][1]] == 0


def test_auto_pair_moved_on_the_second_setup_turn():
    s = H.timeout_move(new(3), 0)                    # seat 0 is auto-placed
    old_x, old_e = s.auto[0]
    assert old_x == 31                               # best pips, then most resources, lowest id
    s = place(s, 20)
    with pytest.raises(H.IllegalMove, match="no auto-placed"):
        play(s, 2, "move_pair", node=29, edge=NODE_EDGES[29][0])
    s = place(place(s, 29), 8)
    s = place(s, 44)                                 # seat 1's second pair
    assert s.cur == 0 and s.auto[0] is not None
    moves = [m for m in H.legal_moves(s, 0) if m["type"] == "move_pair"]
    assert moves and all(m["node"] not in (20, 29, 8, 44, 15) for m in moves)
    assert any(m["node"] == old_x and m["edge"] != old_e for m in moves)
    with pytest.raises(H.IllegalMove, match="too close"):
        play(s, 0, "move_pair", node=15, edge=NODE_EDGES[15][0])
    s = play(s, 0, "place_settlement", node=14)      # may move in either step of the turn
    assert s.phase == SETUP_ROAD
    before = snapshot(s)
    with pytest.raises(H.IllegalMove, match="touch the settlement"):
        play(s, 0, "move_pair", node=51, edge=NODE_EDGES[29][0])
    assert snapshot(s) == before
    s = play(s, 0, "move_pair", node=51, edge=NODE_EDGES[51][0])
    assert s.bld[old_x] == -1 and s.road[old_e] == -1
    assert s.bld[51] == 0 and s.road[NODE_EDGES[51][0]] == 0
    assert s.auto[0] is None and s.vp[0] == 2 and s.pieces[0:3] == [3, 4, 14]
    assert not [m for m in H.legal_moves(s, 0) if m["type"] == "move_pair"]
    s = play(s, 0, "place_road", edge=NODE_EDGES[14][0])
    assert s.phase != SETUP_ROAD and s.turn == 1
    # the second settlement (14) paid; moving the first changed nothing in the hand
    assert sum(s.hand[0:5]) == 3


def test_auto_pair_of_the_second_round_cannot_be_moved():
    s = new(2)
    s = place(place(place(s, 8), 20), 29)
    s = H.timeout_move(s, 0)                         # seat 0's second (last) placement
    assert s.auto == [None, None] and s.turn == 1


def test_last_seat_moves_its_pair_on_the_next_placement():
    s = place(new(2), 8)
    s = H.timeout_move(s, 1)                         # seat 1, first round
    assert s.cur == 1 and s.auto[1] is not None
    assert any(m["type"] == "move_pair" for m in H.legal_moves(s, 1))
