"""Dice, production with the bank's limits, the 7 (discards, robber, steal)."""
import pytest

from games.hexland import engine as H
from games.hexland.engine.board import RESOURCES
from games.hexland.engine.state import DISCARD, MAIN, ROBBER, ROLL

from .helpers import give, hand, next_roll, play, position, snapshot

# hex 4 = brick 6 (corners 8 12 13 17 18 23), hex 17 = wheat 6 (40 44 45 48 49 52)


def producing(players=3, **kw):
    return position(players, settlements={0: [8], 1: [44], 2: [18]}, cities={1: [44]},
                    cur=0, rolled=False, **kw)


def test_roll_produces_for_settlements_and_cities():
    s = next_roll(producing(), 6)
    s = play(s, 0, "roll")
    assert s.phase == MAIN and sum(s.dice) == 6
    assert hand(s, 0) == {"brick": 1} and hand(s, 1) == {"wheat": 2} and hand(s, 2) == {"brick": 1}
    assert s.bank == [19, 17, 19, 17, 19]
    assert H.view(s)["log"][-1] == "Ana rolled 6 — Ana +1 brick, Bo +2 wheat, Cy +1 brick"


def test_robber_blocks_its_hex():
    s = producing()
    s.robber = 4
    s = play(next_roll(s, 6), 0, "roll")
    assert hand(s, 0) == {} and hand(s, 2) == {} and hand(s, 1) == {"wheat": 2}


def test_bank_short_for_two_players_pays_nobody_that_resource():
    s = producing(4, hands={3: {"brick": 18}})              # one brick left in the bank
    s = play(next_roll(s, 6), 0, "roll")
    assert hand(s, 0) == {} and hand(s, 2) == {} and s.bank[1] == 1
    assert hand(s, 1) == {"wheat": 2}                      # other resources still pay
    assert "ran short of brick" in H.view(s)["log"][-1]


def test_bank_short_for_one_player_pays_what_is_left():
    s = position(3, settlements={0: [8]}, cities={0: [8]}, hands={2: {"brick": 18}},
                 rolled=False)
    s = play(next_roll(s, 6), 0, "roll")
    assert hand(s, 0) == {"brick": 1} and s.bank[1] == 0


def test_roll_only_once_and_only_by_the_active_player():
    s = producing()
    with pytest.raises(H.IllegalMove, match="not your turn"):
        play(s, 1, "roll")
    s = play(next_roll(s, 5), 0, "roll")
    with pytest.raises(H.IllegalMove):
        play(s, 0, "roll")
    with pytest.raises(H.IllegalMove, match="roll the dice first"):
        play(producing(), 0, "end_turn")


def seven(**kw):
    s = position(3, settlements={0: [8], 1: [44], 2: [18]},
                 hands={0: {"wood": 5, "ore": 4}, 1: {"sheep": 8}, 2: {"wheat": 7}},
                 cur=2, rolled=False, **kw)
    return play(next_roll(s, 7), 2, "roll")


def test_seven_makes_every_big_hand_discard_half_at_once():
    s = seven()
    assert s.phase == DISCARD and H.actors(s) == {0, 1}
    assert H.view(s)["discards"] == [4, 4, 0]
    assert {m["cards"].popitem()[0] for m in H.legal_moves(s, 0)} == {"wood", "ore"}
    assert H.legal_moves(s, 2) == []
    with pytest.raises(H.IllegalMove, match="only have to discard 4"):
        play(s, 0, "discard", cards={"wood": 5})
    with pytest.raises(H.IllegalMove, match="do not hold"):
        play(s, 0, "discard", cards={"sheep": 1})
    with pytest.raises(H.IllegalMove, match="nothing to discard"):
        play(s, 2, "discard", cards={"wheat": 1})
    with pytest.raises(H.IllegalMove, match="wait until everyone"):
        play(s, 2, "move_robber", hex=0)
    s = play(s, 1, "discard", cards={"sheep": 4})          # any order between seats
    s = play(s, 0, "discard", cards={"wood": 2})           # in parts
    assert H.actors(s) == {0} and s.need == [2, 0, 0]
    s = play(s, 0, "discard", cards={"ore": 2})
    assert s.phase == ROBBER and H.actors(s) == {2}
    assert hand(s, 0) == {"wood": 3, "ore": 2} and hand(s, 1) == {"sheep": 4}
    assert hand(s, 2) == {"wheat": 7}
    assert s.bank[0] == 16 and s.bank[2] == 15


def test_seven_without_big_hands_goes_to_the_robber():
    s = position(3, settlements={0: [8]}, hands={0: {"wood": 7}}, rolled=False)
    s = play(next_roll(s, 7), 0, "roll")
    assert s.phase == ROBBER and hand(s, 0) == {"wood": 7}


def test_robber_moves_and_steals_from_a_chosen_victim():
    s = seven()
    s = play(play(s, 0, "discard", cards={"wood": 4}), 1, "discard", cards={"sheep": 4})
    assert s.robber == 9
    with pytest.raises(H.IllegalMove, match="another hex"):
        play(s, 2, "move_robber", hex=9, victim=None)
    with pytest.raises(H.IllegalMove, match="choose whom to steal from: Ana"):
        play(s, 2, "move_robber", hex=4)       # Ana (8) and Cy himself (18) touch hex 4
    moves = [m for m in H.legal_moves(s, 2) if m["hex"] == 4]
    assert moves == [{"type": "move_robber", "hex": 4, "victim": 0}]
    before = snapshot(s)
    s2 = play(s, 2, "move_robber", hex=4, victim=0)
    assert snapshot(s) == before
    assert s2.robber == 4 and s2.phase == MAIN
    assert sum(s2.hand[0:5]) == 4 and sum(s2.hand[10:15]) == 8
    stolen = next(r for r in range(5) if s2.hand[10 + r] != s.hand[10 + r])
    line = H.view(s2, 2)["log"][-1]
    assert line.startswith("Cy moved the robber to the 6 brick and stole 1 ")
    assert H.view(s2, 0)["log"][-1] == line
    assert H.view(s2, 1)["log"][-1] == ("Cy moved the robber to the 6 brick and stole a card "
                                        "from Ana")
    assert H.view(s2)["log"][-1].endswith("stole a card from Ana")
    assert line.endswith(f"stole 1 {RESOURCES[stolen]} from Ana")


def test_no_victim_without_cards_or_buildings():
    s = position(3, settlements={0: [8], 1: [12]}, hands={0: {"wood": 1}}, rolled=True)
    s.phase = ROBBER
    moves = [m for m in H.legal_moves(s, 0) if m["hex"] == 0]
    assert moves == [{"type": "move_robber", "hex": 0, "victim": None}]   # Bo holds nothing
    with pytest.raises(H.IllegalMove, match="nobody there"):
        play(s, 0, "move_robber", hex=0, victim=1)
    s = play(s, 0, "move_robber", hex=0, victim=None)
    assert s.robber == 0 and s.phase == MAIN


def test_robber_before_the_roll_returns_to_rolling():
    s = position(3, settlements={0: [8]}, devs={0: {"knight": 1}}, rolled=False)
    s = play(s, 0, "play_dev", card="knight")
    s = play(s, 0, "move_robber", hex=0, victim=None)
    assert s.phase == ROLL and s.knights[0] == 1


def test_end_turn_passes_in_seat_order():
    s = H.new_state({"players": 3, "layout": "fixed", "board_seed": 3, "order": [1, 2, 0]}, 1)
    s = s.copy()
    s.phase, s.turn, s.step, s.cur, s.rolled = MAIN, 1, 6, 2, True
    s = play(s, 2, "end_turn")
    assert (s.cur, s.phase, s.turn, s.rolled) == (0, ROLL, 2, False)


def test_give_helper_conserves_cards():
    s = give(position(3), 0, wood=3)
    assert s.bank[0] == 16 and hand(s, 0) == {"wood": 3}
