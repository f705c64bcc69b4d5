"""Longest Road: taking it, strictly longer to take it over, breaking and setting aside;
winning on one's own turn after points came on another's."""
from games.hexland import engine as H
from games.hexland.engine.roads import longest_road
from games.hexland.engine.state import OVER

from .helpers import brute_longest_road, edge, next_roll, play, position

LEFT = [0, 3, 7, 11, 16, 21, 27, 33, 38, 43, 47, 51]     # the left coast, top to bottom
RIGHT = [2, 6, 10, 15, 20, 26, 32, 37, 42, 46, 50, 53]   # the right coast
MIDDLE = [8, 13, 18, 24, 30, 35, 40, 45]
ROADS = {"wood": 2, "brick": 2, "sheep": 1, "wheat": 1}


def path(nodes, k):
    return [(nodes[i], nodes[i + 1]) for i in range(k)]


def test_five_roads_take_longest_road():
    s = position(3, settlements={0: [0]}, roads={0: path(LEFT, 4)}, hands={0: ROADS})
    assert s.road_len[0] == 4 and s.lr == -1
    s = play(s, 0, "build_road", edge=edge(16, 21))
    assert s.road_len[0] == 5 and s.lr == 0 and s.vp[0] == 3
    assert H.view(s)["log"][-1] == "Ana takes Longest Road (5 roads)"


def test_only_a_strictly_longer_road_takes_it_over():
    s = position(3, settlements={0: [0], 1: [2]}, roads={0: path(LEFT, 5), 1: path(RIGHT, 4)},
                 hands={1: ROADS}, cur=1)
    s = play(s, 1, "build_road", edge=edge(20, 26))
    assert s.road_len == [5, 5, 0] and s.lr == 0                 # a tie does not take it
    s = play(s, 1, "build_road", edge=edge(26, 32))
    assert s.lr == 1 and s.vp == [1, 3, 0]


def test_a_loop_counts_in_full():
    ring = [8, 13, 18, 23, 17, 12]                               # around hex 4
    s = position(3, roads={0: [(ring[i], ring[(i + 1) % 6]) for i in range(6)] + [(12, 7)]})
    assert s.road_len[0] == 7 and s.lr == 0


def test_a_settlement_breaks_a_road_and_nobody_is_left_with_five():
    s = position(3, settlements={0: [0]}, roads={0: path(LEFT, 6), 1: [(22, 16)]},
                 hands={1: ROADS}, cur=1)
    assert s.lr == 0 and s.road_len[0] == 6
    s = play(s, 1, "build_settlement", node=16)
    assert s.road_len[0] == 4 and s.lr == -1 and s.vp == [1, 1, 0]
    assert "set aside" in H.view(s)["log"][-1]


def test_holder_who_still_ties_keeps_it():
    s = position(3, settlements={0: [0]}, roads={0: path(LEFT, 10), 1: [(22, 16)],
                                                 2: path(RIGHT, 6)},
                 hands={1: ROADS}, cur=1)
    assert s.lr == 0
    s = play(s, 1, "build_settlement", node=16)
    assert s.road_len == [6, 1, 6] and s.lr == 0


def test_one_other_player_alone_longest_takes_it():
    s = position(3, settlements={0: [0]}, roads={0: path(LEFT, 10), 1: [(22, 16)],
                                                 2: path(RIGHT, 7)},
                 hands={1: ROADS}, cur=1)
    s = play(s, 1, "build_settlement", node=16)
    assert s.road_len == [6, 1, 7] and s.lr == 2 and s.vp == [1, 1, 2]


def test_ties_after_a_break_set_the_card_aside_until_one_is_alone():
    s = position(3, settlements={0: [0]},
                 roads={0: path(LEFT, 6), 1: path(MIDDLE, 5) + [(22, 16)], 2: path(RIGHT, 5)},
                 hands={1: ROADS, 2: ROADS}, cur=1)
    assert s.lr == 0 and s.road_len == [6, 5, 5]     # (22,16) is apart from Bo's 5
    s = play(s, 1, "build_settlement", node=16)
    assert s.road_len == [4, 5, 5] and s.lr == -1 and s.vp == [1, 1, 0]
    s = play(s, 1, "end_turn")
    s = play(next_roll(s, 5), 2, "roll")
    s = play(s, 2, "build_road", edge=edge(26, 32))
    assert s.road_len[2] == 6 and s.lr == 2


def test_points_gained_on_another_turn_win_when_that_players_turn_begins():
    s = position(3, settlements={0: [0], 2: [2, 29, 36, 44]}, cities={2: [29, 36, 44]},
                 roads={0: path(LEFT, 10), 1: [(22, 16)], 2: path(RIGHT, 7)},
                 hands={1: ROADS}, cur=1)
    assert H.victory_points(s, 2) == 7
    s = play(s, 1, "build_settlement", node=16)     # Cy takes Longest Road on Bo's turn
    assert s.lr == 2 and H.victory_points(s, 2) == 9
    s.vp[2] += 1                                     # (one more point, also not on Cy's turn)
    assert not H.is_over(s)
    s = play(s, 1, "end_turn")
    assert s.phase == OVER and s.winner == 2 and s.cur == 2


def test_engine_matches_brute_force_on_tricky_shapes():
    shapes = [
        [(8, 13), (13, 18), (18, 23), (23, 17), (17, 12), (12, 8), (12, 7), (18, 24)],
        [(8, 13), (13, 9), (9, 14), (14, 19), (19, 24), (24, 18), (18, 13), (24, 30)],
        [(0, 4), (4, 8), (8, 12), (12, 7), (7, 3), (3, 0), (4, 1), (1, 5), (5, 9), (9, 13),
         (13, 8)],
    ]
    for roads in shapes:
        for blocker in (None, 13, 8, 24):
            s = position(3, settlements={1: [blocker]} if blocker is not None else {},
                         roads={0: roads})
            got = longest_road(s.road, s.bld, 0)
            assert got == brute_longest_road(s.road, s.bld, 0), (roads, blocker)
            assert s.road_len[0] == got
