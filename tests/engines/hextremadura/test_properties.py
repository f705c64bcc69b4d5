"""Hextremadura property tests: random legal play always ends, places only on empty cells next
to the map, keeps its terrains right, and replays to the same state."""
from __future__ import annotations

import json
import pickle

from hypothesis import given, settings, strategies as st

import games.hextremadura.engine as hx
from games.hextremadura.engine.geometry import neighbours
from games.hextremadura.engine.rules import MAX_SCORE
from tests.engines.hextremadura.helpers import flood_terrains

# 18 placements in round 1, and each terrain tile can come back once, back up
MAX_PLACEMENTS = 18 + 15


def _key(state):
    return (
        [(p.tile, p.q, p.r, p.rotation, p.face, p.seq) for p in state.board.slots],
        state.queue, state.explored, state.faces_up, state.round, state.turn, state.over,
    )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), picks=st.lists(st.integers(0, 10**6), min_size=MAX_PLACEMENTS, max_size=MAX_PLACEMENTS))
def test_random_play_ends_legally_and_replays(seed, picks):
    state = hx.new_state({}, seed)
    moves = []
    for pick in picks:
        if hx.is_over(state):
            break
        legal = hx.legal_moves(state, 0)
        move = legal[pick % len(legal)]
        cell = (move["q"], move["r"])
        board = state.board
        assert cell not in board.cells
        assert board.is_empty() or any(n in board.cells for n in neighbours(cell))
        before = _key(state)
        state2 = hx.apply(state, 0, move)
        assert _key(state) == before  # apply leaves its input alone
        # the union-find agrees with a flood fill, after every placement and its removals
        sizes = flood_terrains(state2.board)
        assert all(state2.board.size[state2.board.find(n)] == s for n, s in sizes.items())
        # no front-up tile stays on the map with both requirements met
        assert state2.board.completed_fronts() == []
        state = state2
        moves.append(move)
    assert hx.is_over(state), "a game ends within 33 placements"
    result = hx.result(state)
    assert 0 <= result["score"] <= MAX_SCORE and result["scores"] == [result["score"]]
    assert _key(hx.replay({}, seed, moves)) == _key(state)
    assert hx.view(hx.replay({}, seed, moves)) == hx.view(state)
    json.dumps(hx.view(state))
    assert _key(pickle.loads(pickle.dumps(state))) == _key(state)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=17))
def test_round_one_views_never_show_the_pile(seed, picks):
    state = hx.new_state({}, seed)
    for pick in picks:
        legal = hx.legal_moves(state, 0)
        state = hx.apply(state, 0, legal[pick % len(legal)])
    assert state.round == 1
    text = json.dumps(hx.view(state))
    for tile in state.queue[2:]:
        assert f'"{tile}"' not in text
