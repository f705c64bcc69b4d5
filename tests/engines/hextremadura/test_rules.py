"""Hextremadura: requirements, objectives, quests and the flow of a game, on hand-built positions."""
from __future__ import annotations

import json

import pytest

import games.hextremadura.engine as hx
from games.protocol import IllegalMove
from games.hextremadura.engine import rules
from games.hextremadura.engine.board import Board
from games.hextremadura.engine.tiles import BACK, FOREST, FRONT, TILES, CROPS, WATER
from tests.engines.hextremadura.helpers import back, flood_terrains, obj, put, terrain_tile


# -- basic requirements ------------------------------------------------------------------
def test_own_terrain_across_several_tiles():
    b = Board()
    a = put(b, (0, 0), "FFFWWW", reqs=[("F", 7, 1)])
    assert b.requirement_met(a, FOREST, 3, 1)
    assert not b.requirement_met(a, FOREST, 4, 1)
    put(b, (1, -1), "CCCFFF")  # NE of A: its forest 3-5 meets A's space 1 across side 1
    assert b.requirement_met(a, FOREST, 6, 1)
    assert not b.requirement_met(a, FOREST, 7, 1)
    assert b.completed_fronts() == []  # A's only requirement asks 7
    put(b, (1, 0), "CCFCCC")  # E of A and SE of B: its forest space 2 joins B's space 5
    assert b.requirement_met(a, FOREST, 7, 1)
    assert b.completed_fronts() == [a]


def test_requirement_met_by_the_neighbours_terrain():
    b = Board()
    a = put(b, (0, 0), "FFFWWW", reqs=[("C", 4, 4)])  # own space 4 is water
    assert not b.requirement_met(a, CROPS, 4, 4)  # nothing across side 4
    put(b, (-1, 1), "CCCWWW")  # SW neighbour: crops 0-2, space 1 across A's side 4
    assert not b.requirement_met(a, CROPS, 4, 4)  # three crops only
    assert b.requirement_met(a, CROPS, 3, 4)
    put(b, (-2, 1), "CCCCCC")  # W of the neighbour: joins its crops through space 3? no: space 3 is W
    assert not b.requirement_met(a, CROPS, 4, 4)
    put(b, (-1, 0), "CCCCCC")  # NW of the neighbour, touching its crops space 2
    assert b.requirement_met(a, CROPS, 4, 4)


def test_a_terrain_of_the_kind_elsewhere_on_the_tile_does_not_count():
    b = Board()
    a = put(b, (0, 0), "FFFCCC", reqs=[("C", 3, 1)])  # crops on 3-5, the side is forest
    assert not b.requirement_met(a, CROPS, 3, 1)
    assert b.requirement_met(a, CROPS, 3, 4)


def test_rotated_tile_turns_its_spaces_and_bubbles():
    b = Board()
    # "FFFWWW" turned by 2: spaces W W F F F W, requirement (C, 4, side 4) points at side 0
    a = put(b, (0, 0), "FFFWWW", rotation=2, reqs=[("C", 4, 4), ("F", 3, 1)])
    reqs = b.slots[a].oriented.requirements
    assert [(r.kind, r.n, r.side) for r in reqs] == [(CROPS, 4, 0), (FOREST, 3, 3)]
    assert [b.kind[a * 6 + i] for i in range(6)] == [WATER, WATER, FOREST, FOREST, FOREST, WATER]
    put(b, (-1, 1), "CCCCCC")  # where the unturned bubble would point: no longer counts
    assert not b.requirement_met(a, CROPS, 4, 0)
    put(b, (1, 0), "WWCCCC")  # east: its space 3 (crops, 4 spaces) across side 0
    assert b.requirement_met(a, CROPS, 4, 0)
    assert b.completed_fronts() == [a]


def test_two_terrains_touch_a_side_either_may_meet_it():
    b = Board()
    a = put(b, (0, 0), "WFFFFF", reqs=[("W", 5, 0)])  # own water space 0 alone
    put(b, (1, 0), "CCCFCC")  # east: space 3 is forest, not water
    assert not b.requirement_met(a, WATER, 2, 0)
    b2 = Board()
    a2 = put(b2, (0, 0), "WFFFFF", reqs=[("W", 5, 0)])
    put(b2, (1, 0), "WWWWCC")  # east: space 3 water, joined with own space 0 -> 5 water
    assert b2.requirement_met(a2, WATER, 5, 0)
    assert not b2.requirement_met(a2, WATER, 6, 0)


def test_union_find_matches_a_flood_fill_after_removals():
    b = Board()
    put(b, (0, 0), "FFWWCC")
    put(b, (1, 0), "WWFFCC", rotation=3)
    put(b, (0, 1), "CCCFFF", rotation=1)
    put(b, (-1, 1), "FWFWFW")
    put(b, (1, -1), "WWWWWW")
    for _ in range(2):
        sizes = flood_terrains(b)
        for node, size in sizes.items():
            assert b.size[b.find(node)] == size
        b.remove([(1, 0)])


# -- objectives --------------------------------------------------------------------------
def met(board, *spec):
    return board.analysis().objective_met(obj(*spec))


def test_trio_across_two_tiles_and_broken_by_a_rotation():
    b = Board()
    back(b, (0, 0), "FFWWWW", {0: "A", 1: "S"})
    back(b, (1, 0), "WWWFWW", {3: "M"})  # its forest space 3 meets space 0 of the first
    assert met(b, "trio", "F")
    assert not met(b, "trio", "W")
    b2 = Board()
    back(b2, (0, 0), "FFWWWW", {0: "A", 1: "S"})
    back(b2, (1, 0), "WWWFWW", {3: "M"}, rotation=1)  # forest now on space 4, facing away
    assert not met(b2, "trio", "F")


def test_trio_of_one_tile_needs_joined_spaces():
    b = Board()
    back(b, (0, 0), "FFCFFC", {0: "A", 1: "S", 4: "M"})  # 0-1 and 3-4 are two forests
    assert not met(b, "trio", "F")
    b2 = Board()
    back(b2, (0, 0), "FFFFFC", {0: "A", 1: "S", 4: "M"})
    assert met(b2, "trio", "F")


def test_triad_pairwise_adjacent():
    b = Board()
    back(b, (0, 0), "FFWWCC", {0: "A", 2: "A"})
    back(b, (0, 1), "CCCCCC", {2: "A"})  # SE: its space 2 joins crops space 5
    assert met(b, "triad", "A")
    assert not met(b, "triad", "S")
    b2 = Board()
    back(b2, (0, 0), "FFWWCC", {0: "A", 2: "A"})
    back(b2, (0, 1), "CCCCCC", {2: "S"})  # the crops hold a stork, not an acorn
    assert not met(b2, "triad", "A")


def test_triad_not_met_when_two_of_them_do_not_touch():
    b = Board()
    back(b, (0, 0), "WWWWWW", {0: "M"})
    back(b, (1, 0), "FFFFFF", {0: "M"})  # east of the water
    back(b, (-1, 0), "CCCCCC", {0: "M"})  # west: touches the water, not the forest
    assert not met(b, "triad", "M")
    b.remove([(-1, 0)])
    back(b, (0, 1), "CCCCCC", {3: "M"}, rotation=2)  # SE: touches both
    assert met(b, "triad", "M")


def test_scatter_needs_three_different_terrains():
    b = Board()
    back(b, (0, 0), "FFFFFF", {0: "A"})
    back(b, (1, 0), "CCCCCC")
    back(b, (2, 0), "FFFFFF", {3: "A"}, rotation=4)
    back(b, (3, 0), "CCCCCC")
    back(b, (4, 0), "FFFFFF", {5: "A"})
    assert met(b, "scatter", "F", "A")
    assert not met(b, "scatter", "F", "S")
    b.remove([(3, 0)])
    back(b, (3, 0), "FFFFFF")  # joins the second and third forests
    assert not met(b, "scatter", "F", "A")


def test_pair_adjacent_terrains():
    b = Board()
    back(b, (0, 0), "FFFWWW", {0: "A", 3: "S"})
    assert met(b, "pair", "A", "S")
    assert met(b, "pair", "S", "A")
    assert not met(b, "pair", "A", "M")
    b2 = Board()
    back(b2, (0, 0), "FFFFFF", {0: "A", 3: "S"})  # one terrain holding both
    assert not met(b2, "pair", "A", "S")
    b3 = Board()
    back(b3, (0, 0), "FFFFFF", {0: "A"})
    back(b3, (1, 0), "CCCCCC")
    back(b3, (2, 0), "WWWWWW", {2: "S"})
    assert not met(b3, "pair", "A", "S")
    b3.remove([(1, 0)])
    back(b3, (1, 0), "WWWWWW", rotation=1)  # the water now reaches the forest
    assert met(b3, "pair", "A", "S")


# -- quests ------------------------------------------------------------------------------
def test_garganta_terrain():
    b = Board()
    for cell in [(0, 0), (1, 0), (2, 0), (0, 1)]:
        back(b, cell, "WWWWWW")
    assert not b.analysis().garganta_terrain()  # 24 water
    back(b, (1, 1), "WWWWCC")
    assert b.analysis().garganta_terrain()  # 28


def test_barruecos_terrain():
    b = Board()
    back(b, (0, 0), "FFWWWW", {0: "A", 1: "S", 3: "M"})
    back(b, (1, 0), "WWWFWW", {3: "M", 0: "S"})
    assert not b.analysis().barruecos_terrain()  # the forest touches the map's edge (side 1)
    back(b, (1, -1), "WWWWWW", {0: "A"})  # NE of the first: closes side 1
    back(b, (0, 1), "WWWWWW")  # SE of the first: joins the two tiles' water
    a = b.analysis()
    assert a.barruecos_terrain()
    # a crops space touching the forest breaks it
    b.remove([(1, -1)])
    back(b, (1, -1), "WWWWCW", {0: "A"})
    assert not b.analysis().barruecos_terrain()


def test_monfrague_terrain():
    b = Board()
    # a one-space-wide water: spaces 1-2 of a tile, continued across side 1 and side 2
    back(b, (0, 0), "CWWCFF", {1: "S", 2: "A"})
    back(b, (1, -1), "FFFFWF", {4: "S"})  # NE: water space 4 continues space 1
    back(b, (0, -1), "FFFFFW", {5: "A"})  # NW: water space 5 continues space 2
    a = b.analysis()
    assert not a.monfrague_terrain()  # no icons around yet
    back(b, (-1, 0), "CCCCCC", {0: "S", 1: "S"})  # W: crops joining space 3, 2 storks
    back(b, (1, 0), "FFFFFF", {3: "S", 4: "A"})  # E: joins the forest 4-5, a stork and an acorn
    back(b, (2, -1), "FFFFFF", {0: "A"})  # joins the NE forest, which touches the water
    a = b.analysis()
    assert a.monfrague_terrain()
    b.remove([(0, -1)])
    back(b, (0, -1), "WFFFWW", {5: "A"})  # the water gets thick: its space 5 touches three
    assert not b.analysis().monfrague_terrain()


# -- the flow of a game ------------------------------------------------------------------
@pytest.fixture
def made_up_tiles(monkeypatch):
    """X1, X2: forests asking 18 forest spaces on two sides; X3 asks 30 (never met)."""
    big = [("F", 18, 0), ("F", 18, 3)]
    tiles = {
        "X1": terrain_tile("X1", "FFFFFF", big, "FFWWCC", {0: "A"}, obj("pair", "A", "S")),
        "X2": terrain_tile("X2", "FFFFFF", big, "WWWWWW", {0: "S"}, obj("pair", "A", "S")),
        "X3": terrain_tile("X3", "FFFFFF", [("F", 30, 0), ("F", 30, 3)]),
    }
    for tid, t in tiles.items():
        monkeypatch.setitem(TILES, tid, t)
    return tiles


def made_up_state(queue):
    state = rules.new_state("x")
    state.queue = list(queue)
    state.faces_up = {t: FRONT for t in queue}
    return state


def place(state, tile, q, r, rotation=0, **extra):
    return hx.apply(state, 0, {"type": "place", "tile": tile, "q": q, "r": r, "rotation": rotation, **extra})


def test_removals_are_checked_together_and_one_may_break_another(made_up_tiles):
    s = made_up_state(["X3", "X1", "X2"])
    s = place(s, "X3", 0, 0)
    s = place(s, "X1", 1, 0)
    assert [p.tile for p in s.board.slots] == ["X3", "X1"]  # 12 forest: not yet
    s = place(s, "X2", 2, 0)
    # 18 forest met both X1 and X2; taking X1 away breaks X2's, yet both go, in placement order
    assert [p["tile"] for p in hx.view(s)["last_removed"]] == ["X1", "X2"]
    assert [p.tile for p in s.board.slots] == ["X3"]


def test_round_flip_and_end_of_the_game(made_up_tiles):
    s = made_up_state(["X3", "X1", "X2"])
    for tile, q in (("X3", 0), ("X1", 1), ("X2", 2)):
        s = place(s, tile, q, 0)
    # the discovery pile ran out: the explored pile is flipped into a new round
    assert s.round == 2 and not s.over
    assert s.queue == ["X1", "X2"]  # the first tile explored is on top: the display
    assert s.faces_up["X1"] == BACK and s.explored == []
    v = hx.view(s)
    assert [a["tile"] for a in v["available"]] == ["X1", "X2"]
    assert v["available"][0]["face"] == "back"
    assert v["discovery"] == {"size": 1, "below_top": []}
    s = place(s, "X2", 1, 0)  # the pile's top: the display stays
    assert s.available == ["X1"]
    with pytest.raises(IllegalMove):
        place(s, "X1", 1, 0)  # occupied
    with pytest.raises(IllegalMove):
        place(s, "X1", 5, 5)  # not touching the map
    s = place(s, "X1", 2, 0, 2)
    # round 2 explored nothing: the game ends
    assert s.over and hx.is_over(s)
    assert hx.actors(s) == set() and hx.legal_moves(s, 0) == []
    with pytest.raises(IllegalMove):
        place(s, "X1", 3, 0)
    res = hx.result(s)
    # X1's forest acorn (back "FFWWCC" turned by 2) touches X2's water stork: both pairs met
    assert res["score"] == 2 and res["rounds"] == 2 and res["placements"] == 5
    assert hx.view(s)["final"]["score"] == 2
    assert [o["met"] for o in hx.view(s)["objectives"]] == [True, True]


def test_a_front_tile_met_in_a_later_round_comes_back_after_it(monkeypatch):
    tiles = {
        "Y4": terrain_tile("Y4", "FFFFFF", [("F", 18, 0), ("F", 18, 3)]),
        "Y1": terrain_tile("Y1", "CCCCCC", [("C", 12, 0), ("C", 12, 3)], "FFFFFF", {0: "A"}),
        "Y2": terrain_tile("Y2", "CCCCCC", [("C", 12, 0), ("C", 12, 3)], "FFFFFF", {0: "S"}),
    }
    for tid, t in tiles.items():
        monkeypatch.setitem(TILES, tid, t)
    s = made_up_state(["Y4", "Y1", "Y2"])
    for tile, q in (("Y4", 0), ("Y1", 1), ("Y2", 2)):
        s = place(s, tile, q, 0)
    assert s.round == 2 and [p.tile for p in s.board.slots] == ["Y4"]
    s = place(s, "Y1", 1, 0)  # back up, all forest: 12 with Y4
    assert [p.tile for p in s.board.slots] == ["Y4", "Y1"]
    s = place(s, "Y2", -1, 0)  # 18: Y4, still front up, is met in round 2
    assert [p["tile"] for p in hx.view(s)["last_removed"]] == ["Y4"]
    assert s.round == 3 and s.queue == ["Y4"] and s.faces_up["Y4"] == BACK
    s = place(s, "Y4", 0, 0)
    assert s.over and hx.result(s)["rounds"] == 3


def test_display_and_pile_top():
    s = hx.new_state({}, 7)
    d, top, nxt = s.queue[:3]
    v = hx.view(s)
    assert [a["tile"] for a in v["available"]] == [d, top]
    assert [a["slot"] for a in v["available"]] == ["display", "pile"]
    assert v["discovery"]["size"] == 17 and v["discovery"]["below_top"] is None
    s2 = place(s, d, 4, -9, face="a") if TILES[d].river else place(s, d, 4, -9)  # any cell on an empty map
    assert s2.available == [top, nxt]  # the top moved into the display
    s3 = place(s, top, 0, 0, face="b") if TILES[top].river else place(s, top, 0, 0)
    assert s3.available == [d, nxt]
    assert s.queue[:3] == [d, top, nxt]  # apply never changes its input


def test_illegal_moves_read_well():
    s = hx.new_state({}, 3)
    d = s.queue[0]
    not_available = s.queue[5]
    for move, words in [
        ({"type": "pass"}, "a move is"),
        ({"type": "place", "tile": not_available, "q": 0, "r": 0}, "not one of the available"),
        ({"type": "place", "tile": d, "q": 0, "r": "x"}, "whole number"),
        ({"type": "place", "tile": d, "q": 0, "r": 0, "rotation": 6}, "rotation"),
    ]:
        with pytest.raises(IllegalMove, match=words):
            hx.apply(s, 0, move)
    with pytest.raises(IllegalMove):
        hx.apply(s, 1, {"type": "place", "tile": d, "q": 0, "r": 0})


def test_river_tiles_take_either_face_and_terrain_tiles_only_theirs():
    order = ["R1", "T1"] + [t for t in TILES if t not in ("R1", "T1")]
    s = rules.new_state(0, order=order)
    s = place(s, "R1", 0, 0, face="b")
    assert s.board.slots[0].face == "b"
    with pytest.raises(IllegalMove, match="front"):
        place(s, "T1", 1, 0, face="back")
    with pytest.raises(IllegalMove, match="face"):
        place(rules.new_state(0, order=order), "R1", 0, 0, face="c")


def test_protocol():
    assert hx.KIND == "hextremadura"
    assert hx.seat_count({}) == 1 and hx.seat_count({"players": 1}) == 1
    with pytest.raises(ValueError):
        hx.new_state({"players": 2}, 1)
    s = hx.new_state({}, 11)
    assert hx.actors(s) == {0}
    assert not hx.is_over(s) and hx.result(s) is None
    moves = hx.legal_moves(s, 0)
    assert len(moves) == sum(12 if TILES[t].river else 6 for t in s.available)
    s2 = hx.timeout_move(s, 0)
    assert s2.turn == 1
    json.dumps(hx.view(s2))


def test_same_seed_same_shuffle_and_the_view_hides_it():
    a, b = hx.new_state({}, "day-1"), hx.new_state({}, "day-1")
    assert a.queue == b.queue and a.faces_up == b.faces_up
    assert hx.new_state({}, "day-2").queue != a.queue
    hidden = set(a.queue[2:])
    assert not hidden & _tile_ids(hx.view(a))


def _tile_ids(node) -> set:
    out = set()
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "tile" and isinstance(v, str):
                out.add(v)
            out |= _tile_ids(v)
    elif isinstance(node, list):
        for v in node:
            out |= _tile_ids(v)
    return out


def test_the_tile_set():
    terrain = [t for t in TILES.values() if not t.river and t.id.startswith("T")]
    rivers = [t for t in TILES.values() if t.river]
    assert len(terrain) == 15 and len(rivers) == 3
    families = {}
    for t in terrain:
        front, back_face = t.faces["front"], t.faces["back"]
        assert len(front.requirements) == 2
        assert all(2 <= r.n <= 10 for r in front.requirements)
        assert 1 <= len(back_face.icons) <= 2
        families[back_face.objective.family] = families.get(back_face.objective.family, 0) + 1
    assert set(families) == {"trio", "triad", "scatter", "pair"}
    for t in rivers:
        for f in t.faces.values():
            assert f.spaces.count(WATER) >= 4  # mostly water
