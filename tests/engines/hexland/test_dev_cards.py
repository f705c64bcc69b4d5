"""Development cards: buying, timing, and all five cards; Largest Army; winning."""
import pytest

from games.hexland import engine as H
from games.hexland.engine.state import DEV_INDEX, FREE_ROADS, MAIN, OVER, ROBBER, ROLL

from .helpers import edge, hand, next_roll, play, position


def with_top_card(s, name):
    s.deck = s.deck[:]
    s.deck.remove(DEV_INDEX[name])
    s.deck.append(DEV_INDEX[name])
    return s


def test_a_card_waits_until_a_later_turn_and_one_per_turn():
    s = position(3, hands={0: {"sheep": 2, "wheat": 2, "ore": 2}}, devs={0: {"monopoly": 1}})
    s = play(with_top_card(s, "knight"), 0, "buy_dev")
    assert s.new_dev[DEV_INDEX["knight"]] == 1
    with pytest.raises(H.IllegalMove, match="the turn it was bought"):
        play(s, 0, "play_dev", card="knight")
    assert [m["card"] for m in H.legal_moves(s, 0) if m["type"] == "play_dev"] == ["monopoly"] * 5
    s = play(s, 0, "play_dev", card="monopoly", resource="ore")
    with pytest.raises(H.IllegalMove, match="already played"):
        play(s, 0, "play_dev", card="knight")
    s = play(s, 0, "end_turn")
    for seat in (1, 2):
        s = play(play(next_roll(s, 5), seat, "roll"), seat, "end_turn")
    assert s.cur == 0 and s.phase == ROLL
    s = play(s, 0, "play_dev", card="knight")                # before rolling, a later turn
    assert s.phase == ROBBER and s.knights[0] == 1


def test_view_shows_own_new_cards_only_to_the_owner():
    s = position(3, hands={0: {"sheep": 1, "wheat": 1, "ore": 1}})
    s = play(with_top_card(s, "victory_point"), 0, "buy_dev")
    assert H.view(s, 0)["you"]["new_dev_cards"]["victory_point"] == 1
    assert H.view(s, 0)["log"][-1] == "Ana bought a development card (Victory Point)"
    assert H.view(s, 1)["log"][-1] == "Ana bought a development card"
    assert H.view(s, 1)["players"][0]["dev_cards"] == 1
    assert "victory_point" not in str(H.view(s, 1)["players"])


def test_knight_moves_the_robber_without_discards_and_builds_largest_army():
    s = position(3, settlements={1: [8]}, hands={0: {"wood": 9}, 1: {"ore": 2}},
                 devs={0: {"knight": 3}, 1: {"knight": 4}})
    for h, victim in [(3, None), (4, 1), (7, None)]:          # Bo's settlement is on hex 4
        s = play(s, 0, "play_dev", card="knight")
        assert s.phase == ROBBER and s.need == [0, 0, 0]           # no discards
        s = play(s, 0, "move_robber", hex=h, victim=victim)
        s.dev_played = False                                       # next turn, in short
    assert sum(s.hand[0:5]) == 10 and sum(s.hand[5:10]) == 1
    assert s.knights[0] == 3 and s.la == 0 and s.vp[0] == 2
    s.cur = 1
    for k in range(3):
        s.dev_played = False
        s = play(s, 1, "play_dev", card="knight")
        s = play(s, 1, "move_robber", hex=[10, 11, 12][k], victim=None)
    assert s.knights[1] == 3 and s.la == 0                         # a tie does not take it
    s.dev_played = False
    s = play(s, 1, "play_dev", card="knight")
    assert s.la == 1 and s.vp == [0, 3, 0]
    assert "Bo takes Largest Army from Ana (4 knights)" in H.view(s)["log"]


def test_road_building_places_two_free_roads():
    s = position(3, settlements={0: [8]}, devs={0: {"road_building": 1}}, rolled=False)
    s = play(s, 0, "play_dev", card="road_building")
    assert s.phase == FREE_ROADS and s.free_roads == 2
    assert {m["type"] for m in H.legal_moves(s, 0)} == {"build_road"}
    with pytest.raises(H.IllegalMove, match="free roads first"):
        play(s, 0, "roll")
    s = play(s, 0, "build_road", edge=edge(8, 12))
    s = play(s, 0, "build_road", edge=edge(12, 7))
    assert s.phase == ROLL and s.pieces[2] == 13 and sum(s.hand[0:5]) == 0


def test_road_building_with_one_road_left():
    s = position(3, settlements={0: [8]}, devs={0: {"road_building": 1}})
    s.pieces[2] = 1
    s = play(s, 0, "play_dev", card="road_building")
    assert s.free_roads == 1
    s = play(s, 0, "build_road", edge=edge(8, 12))
    assert s.phase == MAIN and s.pieces[2] == 0 and s.free_roads == 0
    t = position(3, settlements={0: [8]}, devs={0: {"road_building": 1}})
    t.pieces[2] = 0
    with pytest.raises(H.IllegalMove, match="no road you could place"):
        play(t, 0, "play_dev", card="road_building")
    assert not [m for m in H.legal_moves(t, 0) if m["type"] == "play_dev"]


def test_year_of_plenty_takes_what_the_bank_has():
    s = position(3, devs={0: {"year_of_plenty": 1}}, hands={1: {"wood": 18}})
    s2 = play(s, 0, "play_dev", card="year_of_plenty", resources=["wood", "wood"])
    assert hand(s2, 0) == {"wood": 1} and s2.bank[0] == 0
    s3 = play(s, 0, "play_dev", card="year_of_plenty", resources=["ore", "brick"])
    assert hand(s3, 0) == {"ore": 1, "brick": 1}
    with pytest.raises(H.IllegalMove, match="name two resources"):
        play(s, 0, "play_dev", card="year_of_plenty", resources=["ore"])
    t = position(3, devs={0: {"year_of_plenty": 1}}, hands={1: {"wood": 19, "ore": 19}})
    with pytest.raises(H.IllegalMove, match="bank has none"):
        play(t, 0, "play_dev", card="year_of_plenty", resources=["wood", "ore"])
    picks = [m["resources"] for m in H.legal_moves(t, 0) if m["type"] == "play_dev"]
    assert ["wood", "ore"] not in picks and ["wood", "brick"] in picks and len(picks) == 12


def test_monopoly_takes_every_card_of_that_kind():
    s = position(4, devs={0: {"monopoly": 1}},
                 hands={0: {"wheat": 1}, 1: {"wheat": 2, "ore": 1}, 3: {"wheat": 3}})
    s = play(s, 0, "play_dev", card="monopoly", resource="wheat")
    assert hand(s, 0) == {"wheat": 6} and hand(s, 1) == {"ore": 1} and hand(s, 3) == {}
    assert H.view(s)["log"][-1] == "Ana played Monopoly on wheat and took 5"


def test_monopoly_with_nobody_holding_any():
    s = position(3, devs={0: {"monopoly": 1}}, hands={1: {"ore": 2}})
    s = play(s, 0, "play_dev", card="monopoly", resource="wood")
    assert hand(s, 0) == {} and hand(s, 1) == {"ore": 2} and s.dev[0:5] == [0] * 5
    assert s.dev_played and H.view(s)["log"][-1].endswith("took 0")


def test_victory_point_cards_are_not_played():
    s = position(3, devs={0: {"victory_point": 1}})
    with pytest.raises(H.IllegalMove, match="'card' must be"):
        play(s, 0, "play_dev", card="victory_point")


def test_a_hidden_victory_point_card_wins_at_once():
    s = position(3, settlements={0: [0, 2, 20, 29, 36]}, cities={0: [0, 2, 20]},
                 devs={0: {"victory_point": 1}}, hands={0: {"sheep": 1, "wheat": 1, "ore": 1}})
    assert H.victory_points(s, 0) == 9 and H.view(s, 1)["players"][0]["vp"] == 8
    s = play(with_top_card(s, "victory_point"), 0, "buy_dev")
    assert s.phase == OVER and s.winner == 0 and H.is_over(s)
    assert H.result(s)["scores"] == [10, 0, 0]
    v = H.view(s, 1)
    assert v["players"][0]["vp_cards"] == 2 and v["players"][0]["total_vp"] == 10


def test_building_to_the_target_wins_and_ends_the_game():
    s = position(3, settlements={0: [0, 2, 20, 29, 36], 1: [8]}, cities={0: [0, 2, 20, 29]},
                 roads={0: [(43, 47)]}, hands={0: {"wood": 1, "brick": 1, "sheep": 1,
                                                   "wheat": 1}})
    assert H.victory_points(s, 0) == 9
    s = play(s, 0, "build_settlement", node=47)
    assert H.is_over(s) and H.result(s) == {"winner": 0, "scores": [10, 1, 0],
                                            "ranks": [1, 2, 3], "turns": 1}
    assert H.actors(s) == set() and H.legal_moves(s, 0) == []
    with pytest.raises(H.IllegalMove, match="game is over"):
        play(s, 0, "end_turn")
    with pytest.raises(H.IllegalMove):
        H.timeout_move(s, 0)
    assert H.view(s)["log"][-1] == "Ana wins with 10 victory points!"
