"""Hextremadura's solver and hints."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import games.hextremadura.engine as hx
from games.hextremadura.engine import ai
from games.hextremadura.engine.rules import MAX_SCORE

WITNESSES = Path(ai.__file__).with_name("witnesses.json")


def test_solve_returns_a_game_that_replays_to_its_score():
    score, moves = ai.solve({}, 5, width=2)
    state = hx.replay({}, 5, moves)
    assert hx.is_over(state)
    assert hx.result(state)["score"] == score
    assert score >= 8  # far above random play (about 1)


def _play_random(state, n, rng):
    for _ in range(n):
        state = hx.apply(state, 0, rng.choice(hx.legal_moves(state, 0)))
    return state


def test_hint_is_legal_and_ignores_the_hidden_order():
    state = _play_random(hx.new_state({}, 21), 4, random.Random(1))
    view = hx.view(state)
    move = ai.hint(view, budget_s=0.3)
    hx.apply(state, 0, move)  # legal
    # the same view over a differently ordered pile gives the same hint
    other = state.copy()
    rest = other.queue[2:]
    random.Random(9).shuffle(rest)
    other.queue = other.queue[:2] + rest
    assert hx.view(other) == view
    assert ai.hint(hx.view(other), budget_s=0.3) == move


def test_hint_in_a_later_round_and_until_the_end():
    state = hx.new_state({}, 4)
    while state.round == 1:
        state = hx.apply(state, 0, ai.hint(hx.view(state), budget_s=0.2))
    while not hx.is_over(state):
        state = hx.apply(state, 0, ai.hint(hx.view(state), budget_s=0.2))
    assert hx.result(state)["score"] >= 8


def test_hint_refuses_a_finished_game():
    state = hx.new_state({}, 4)
    rng = random.Random(3)
    while not hx.is_over(state):
        state = hx.apply(state, 0, rng.choice(hx.legal_moves(state, 0)))
    with pytest.raises(ValueError):
        ai.hint(hx.view(state))


@pytest.mark.parametrize("name", ["perfect", "garganta", "monfrague", "barruecos"])
def test_the_tile_set_allows_a_perfect_game_and_every_quest(name):
    """Games found by ``benchmarks/hextremadura_tileset.py``, replayed through the engine."""
    witness = json.loads(WITNESSES.read_text())[name]
    state = hx.replay({}, witness["seed"], witness["moves"])
    result = hx.result(state)
    assert result["score"] == witness["score"]
    if name == "perfect":
        assert result["score"] == MAX_SCORE and result["perfect"]
    else:
        assert result["quests"][name]
