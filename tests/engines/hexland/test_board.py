"""Board generation: random (no neighbouring 6/8), spiral, fixed; harbours; topology."""
from collections import Counter

import pytest

from games.hexland import engine as H
from games.hexland.engine import board as B

from .helpers import BOARD, new


def test_topology_counts():
    assert (B.NUM_HEXES, B.NUM_NODES, B.NUM_EDGES) == (19, 54, 72)
    assert [len(h) for h in B.HEX_NODES] == [6] * 19
    # 30 coastal edges (touching one hex), 18 corners on one hex only
    coastal = [e for e in range(72)
               if len(set(B.NODE_HEXES[B.EDGE_NODES[e][0]])
                      & set(B.NODE_HEXES[B.EDGE_NODES[e][1]])) == 1]
    assert len(coastal) == 30
    assert sum(len(h) == 1 for h in B.NODE_HEXES) == 18


def test_harbours_on_the_coast_apart():
    nodes = [x for pair in B.HARBOUR_NODES for x in pair]
    assert len(nodes) == 18 and len(set(nodes)) == 18
    for a, b in B.HARBOUR_NODES:
        assert len(set(B.NODE_HEXES[a]) & set(B.NODE_HEXES[b])) == 1   # a coastal edge


@pytest.mark.parametrize("seed", range(60))
def test_random_layout_keeps_reds_apart(seed):
    s = H.new_state({"players": 4, "layout": "random"}, seed)
    b = s.g.board
    assert Counter(b.resource) == Counter(B.TILE_SET)
    assert sorted(n for n in b.number if n) == sorted(B.TOKEN_SET)
    assert b.number[b.desert] is None and s.robber == b.desert
    for h in range(19):
        if b.number[h] in (6, 8):
            assert all(b.number[g] not in (6, 8) for g in B.HEX_NEIGHBOURS[h])
    assert Counter(b.harbours) == Counter(B.HARBOUR_SET)


def test_random_boards_differ_between_seeds():
    boards = {H.new_state({"layout": "random"}, k).g.board.to_config()["numbers"].__repr__()
              for k in range(10)}
    assert len(boards) > 5


@pytest.mark.parametrize("seed", range(10))
def test_spiral_layout_follows_the_official_order(seed):
    b = H.new_state({"layout": "spiral"}, seed).g.board
    tokens = [b.number[h] for h in B.SPIRAL_ORDER if b.resource[h] is not None]
    assert tuple(tokens) == B.SPIRAL_TOKENS


def test_spiral_order_walks_rings_inward():
    assert len(set(B.SPIRAL_ORDER)) == 19
    assert B.SPIRAL_ORDER[0] == 0 and B.SPIRAL_ORDER[-1] == 9     # top-left ... centre
    outer, inner = B.SPIRAL_ORDER[:12], B.SPIRAL_ORDER[12:18]
    for ring in (outer, inner):                                   # consecutive hexes touch
        for a, b in zip(ring, ring[1:] + ring[:1]):
            assert b in B.HEX_NEIGHBOURS[a]


def test_fixed_layout_from_board_seed_ignores_game_seed():
    a = H.new_state({"layout": "fixed", "board_seed": 42}, "game-1").g.board
    b = H.new_state({"layout": "fixed", "board_seed": 42}, "game-2").g.board
    c = H.new_state({"layout": "fixed", "board_seed": 43}, "game-1").g.board
    assert a.to_config() == b.to_config() != c.to_config()


def test_fixed_layout_from_explicit_board_round_trips():
    b = new().g.board
    assert b.to_config()["numbers"] == BOARD["numbers"]
    assert B.Board.from_config(b.to_config()).to_config() == b.to_config()


def test_invalid_boards_and_configs_are_refused():
    bad = dict(BOARD, numbers=[2] * 18 + [None])
    with pytest.raises(ValueError):
        H.new_state({"layout": "fixed", "board": bad}, 1)
    with pytest.raises(ValueError):
        H.new_state({"players": 5}, 1)
    with pytest.raises(ValueError):
        H.new_state({"layout": "hexagonal"}, 1)
    with pytest.raises(ValueError):
        H.new_state({"players": 2, "names": ["a"]}, 1)


def test_same_seed_same_game_start():
    a, b = H.new_state({}, "x"), H.new_state({}, "x")
    assert a.g.board.to_config() == b.g.board.to_config()
    assert a.g.order == b.g.order and a.deck == b.deck


def test_seat_count_and_names():
    assert H.seat_count({"players": 3}) == 3
    s = H.new_state({"players": 3}, 1)
    assert s.g.names == ("Player 1", "Player 2", "Player 3")
    assert sorted(s.g.order) == [0, 1, 2]
