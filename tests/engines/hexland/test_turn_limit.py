"""A game that cannot end stops at the room's turn limit, ranked by points."""
import random

from games.hexland import engine as H


def play_until_over(config: dict, seed: int, limit: int = 20000):
    state, rng = H.new_state(config, seed), random.Random(seed)
    for _ in range(limit):
        if H.is_over(state):
            return state
        seat = sorted(H.actors(state))[0]
        moves = [m for m in H.legal_moves(state, seat, offers=False)]
        state = H.apply(state, seat, rng.choice(moves))
    raise AssertionError("the game did not end")


def test_the_turn_limit_ends_the_game_with_ranks_by_points():
    for seed in range(6):
        state = play_until_over({"players": 3, "max_turns": 4, "layout": "fixed"}, seed)
        result = H.result(state)
        scores, ranks = result["scores"], result["ranks"]
        assert result["turns"] == 5  # the game stops as turn 5 would begin
        best = max(scores)
        if scores.count(best) == 1:
            assert result["winner"] == scores.index(best) and ranks[result["winner"]] == 1
        else:
            assert result["winner"] is None
        assert ranks == [1 + sum(o > s for o in scores) for s in scores]
        assert "turn limit" in H.view(state, None)["log"][-1]


def test_without_a_limit_set_the_default_is_two_hundred_turns():
    from games.hexland.engine.rules import MAX_TURNS

    assert MAX_TURNS == 200
