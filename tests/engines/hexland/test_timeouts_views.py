"""timeout_move for every pending decision (rules: "Timers"), and what each seat may see."""
import json

import pytest

from games.hexland import engine as H
from games.hexland.engine.state import DISCARD, OVER, ROLL, TRADE

from .helpers import hand, next_roll, play, position


def big_hands(**kw):
    return position(3, settlements={0: [8], 1: [44], 2: [18]},
                    hands={0: {"wood": 5, "ore": 4}, 1: {"sheep": 8}, 2: {"wheat": 3}},
                    rolled=False, **kw)


def test_timer_kinds():
    s = H.new_state({"players": 2}, 1)
    assert H.timer_kind(s) == "setup" and H.view(s)["timer"] == "setup"
    assert H.view(s)["timer_seconds"] == {"setup": 60, "turn": 120, "discard": 30}
    s = play(next_roll(big_hands(), 7), 0, "roll")
    assert H.timer_kind(s) == "discard"
    assert H.timer_kind(position(3)) == "turn"


def test_discard_timeout_discards_at_random():
    s = play(next_roll(big_hands(), 7), 0, "roll")
    assert s.phase == DISCARD and H.actors(s) == {0, 1}
    t = H.timeout_move(s, 1)
    assert hand(t, 1) == {"sheep": 4} and H.actors(t) == {0}
    t = H.timeout_move(t, 0)
    assert sum(t.hand[0:5]) == 5 and t.bank[0] + t.bank[4] == 19 - 5 + 19 - 4 + 4
    assert t.phase != DISCARD and H.actors(t) == {0}
    assert "Ana's discard time ran out" in H.view(t)["log"]


def test_turn_timeout_before_rolling_rolls_and_ends_the_turn():
    s = next_roll(big_hands(), 6)
    t = H.timeout_move(s, 0)
    assert sum(t.dice) == 6 and hand(t, 0)["brick"] == 1       # production happened
    assert (t.cur, t.phase, t.turn) == (1, ROLL, 2)
    log = H.view(t)["log"]
    assert log[-3:] == ["Ana's turn time ran out", "Ana rolled 6 — Ana +1 brick, Bo +1 wheat, "
                        "Cy +1 brick", "Ana ended their turn"]


def test_turn_timeout_rolling_seven_waits_for_discards_then_ends():
    s = next_roll(big_hands(), 7)
    t = H.timeout_move(s, 0)
    assert t.phase == DISCARD and H.actors(t) == {1}             # Ana discarded at random
    assert sum(t.hand[0:5]) == 5
    t = play(t, 1, "discard", cards={"sheep": 4})
    assert (t.cur, t.phase, t.robber) == (1, ROLL, s.robber)     # robber stayed
    s = next_roll(position(3, rolled=False), 7)
    t = H.timeout_move(s, 0)
    assert (t.cur, t.phase, t.robber) == (1, ROLL, s.robber)


def test_pending_robber_stays_on_timeout():
    s = position(3, settlements={1: [8]}, hands={1: {"ore": 1}}, devs={0: {"knight": 1}})
    s = play(s, 0, "play_dev", card="knight")
    t = H.timeout_move(s, 0)
    assert t.robber == s.robber and hand(t, 1) == {"ore": 1} and t.cur == 1
    s = position(3, devs={0: {"knight": 1}}, rolled=False)        # knight before the roll
    s = next_roll(play(s, 0, "play_dev", card="knight"), 5)
    t = H.timeout_move(s, 0)
    assert t.robber == s.robber and sum(t.dice) == 5 and t.cur == 1 and t.knights[0] == 1


def test_trade_timeouts():
    s = position(3, hands={0: {"wood": 1}, 1: {"ore": 1}})
    s = play(s, 0, "offer", give={"wood": 1}, get={"ore": 1})
    t = H.timeout_move(s, 1)
    assert t.answers[1] == 2 and t.phase == TRADE
    t = H.timeout_move(s, 0)
    assert t.offer is None and t.cur == 1 and hand(t, 0) == {"wood": 1}


def test_road_building_timeout_loses_the_free_roads():
    s = position(3, settlements={0: [8]}, devs={0: {"road_building": 1}})
    s = play(s, 0, "play_dev", card="road_building")
    t = H.timeout_move(s, 0)
    assert t.cur == 1 and t.free_roads == 0 and t.pieces[2] == 15


def test_main_phase_timeout_ends_the_turn_and_others_cannot_time_out():
    s = position(3)
    assert H.timeout_move(s, 0).cur == 1
    with pytest.raises(H.IllegalMove, match="nothing pending"):
        H.timeout_move(s, 1)


# -- views ----------------------------------------------------------------------------------
def test_views_hide_other_hands_and_the_deck():
    s = position(3, settlements={0: [8]}, hands={0: {"wood": 2, "ore": 1}, 1: {"sheep": 3}},
                 devs={0: {"knight": 1}, 1: {"monopoly": 1}})
    v = H.view(s, 1)
    json.dumps(v)
    assert v["you"]["hand"]["sheep"] == 3 and v["you"]["dev_cards"]["monopoly"] == 1
    assert v["players"][0]["hand_size"] == 3 and v["players"][0]["dev_cards"] == 1
    assert "hand" not in v["players"][0] and v["deck_size"] == 23
    assert v["legal_moves"] == []                                # not Bo's turn
    spectator = H.view(s)
    assert "you" not in spectator and spectator["legal_moves"] == []
    assert H.view(s, 0)["legal_moves"] == H.legal_moves(s, 0)
    with pytest.raises(ValueError):
        H.view(s, 7)


def hidden_variant(s, seat):
    """The same position as ``seat`` may know it: the other seats' cards pooled and dealt
    again in another order (same hand sizes, same bank), their development cards swapped
    (same counts), the deck reshuffled, another random stream."""
    t = s.copy()
    others = [q for q in range(s.g.n) if q != seat]
    pool = [r for q in others for r in range(5) for _ in range(s.hand[q * 5 + r])]
    pool.reverse()
    for q in others:
        k = sum(s.hand[q * 5:q * 5 + 5])
        t.hand[q * 5:q * 5 + 5] = [0] * 5
        for r in pool[:k]:
            t.hand[q * 5 + r] += 1
        del pool[:k]
        held = sum(t.dev[q * 5:q * 5 + 5])
        if s.phase == OVER:       # victory point cards are shown at the end
            vp = t.dev[q * 5 + 4]
            t.dev[q * 5:q * 5 + 5] = [held - vp, 0, 0, 0, vp]
        else:
            t.dev[q * 5:q * 5 + 5] = [0, 0, 0, 0, held]
        if q == s.cur:
            t.new_dev = [0, 0, 0, 0, 0]
    t.deck = list(reversed(s.deck))
    t.rng = s.rng ^ 0xDEADBEEF
    return t


def test_a_view_does_not_change_with_what_that_seat_cannot_know():
    s = position(3, settlements={0: [8], 1: [44]}, hands={0: {"wood": 2, "ore": 1},
                                                           1: {"sheep": 3, "ore": 2}},
                 devs={1: {"knight": 2}})
    for seat in (0, None):
        assert H.view(s, seat) == H.view(hidden_variant(s, seat if seat is not None else -1),
                                          seat)
    assert H.view(s, 1) != H.view(hidden_variant(s, 0), 1)        # Bo's own cards differ


def test_log_shows_a_steal_to_thief_and_victim_only():
    s = position(3, settlements={1: [8]}, hands={1: {"ore": 1}}, devs={0: {"knight": 1}})
    s = play(play(s, 0, "play_dev", card="knight"), 0, "move_robber", hex=1, victim=1)
    assert H.view(s, 0)["log"][-1].endswith("stole 1 ore from Bo")
    assert H.view(s, 1)["log"][-1].endswith("stole 1 ore from Bo")
    assert H.view(s, 2)["log"][-1].endswith("stole a card from Bo")
    assert "ore" not in H.view(s, 2)["log"][-1] and "ore" not in H.view(s)["log"][-1]


def test_log_tail_and_length():
    s = position(3)
    s = play(s, 0, "end_turn")
    v = H.view(s, 0, log_tail=1)
    assert v["log"] == ["Ana ended their turn"] and v["log_length"] == 1
    assert H.view(s, 0, log_tail=0)["log"] == []
