"""Hextremadura's par solver: its bound is a true upper bound, its games are legal and score
what it says, and a found 15 is proved."""
from __future__ import annotations

import functools
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import games.hextremadura.engine as hx
from games.hextremadura.engine import ai, solver
from games.hextremadura.engine.rules import MAX_SCORE, score
from games.hextremadura.engine.tiles import BACK, FRONT

QUICK_SEEDS = (1, 3, 5)  # shuffles where the first, narrowest beam finds a 15


class _TooBig(Exception):
    pass


def exhaustive_best(state, cap: int = 40) -> int:
    """The best final score from ``state`` over every distinct placement (no bound used)."""
    nodes = [0]

    def best(s) -> int:
        if s.over:
            return score(s.board)
        nodes[0] += 1
        if nodes[0] > cap:
            raise _TooBig
        return max(best(ai.child(s, m)) for m in ai.candidate_moves(s))

    return best(state)


@functools.lru_cache(maxsize=None)
def solver_game(seed: int) -> tuple:
    par = solver.solve(seed, budget_s=30)
    return par.score, tuple(tuple(sorted(m.items())) for m in par.moves)


def _moves(seed):
    return [dict(m) for m in solver_game(seed)[1]]


@pytest.mark.parametrize("seed", QUICK_SEEDS)
def test_a_found_15_is_a_legal_game_that_replays_to_15_and_is_proved(seed):
    par = solver.solve(seed, budget_s=30)
    assert par.score == MAX_SCORE and par.proved and par.bound == MAX_SCORE
    state = hx.replay({}, seed, par.moves)  # the engine refuses any illegal placement
    assert hx.is_over(state)
    result = hx.result(state)
    assert result["score"] == MAX_SCORE and result["perfect"]
    assert par.to_json()["moves"] == par.moves


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.sampled_from(QUICK_SEEDS), back=st.integers(1, 3), picks=st.lists(st.integers(0, 10**6), max_size=2),
       data=st.data())
def test_the_bound_is_at_least_the_best_any_continuation_reaches(seed, back, picks, data):
    """Small random positions: near the end of a solver's game, after a few other placements;
    every position on the way there is bounded by at least the exhaustive best of the last."""
    moves = _moves(seed)
    state = hx.new_state({}, seed)
    path = [state]
    for m in moves[: len(moves) - back]:
        state = hx.apply(state, 0, m)
        path.append(state)
    for pick in picks:
        if state.over:
            break
        options = ai.candidate_moves(state)
        state = ai.child(state, options[pick % len(options)])
        path.append(state)
    try:
        best = exhaustive_best(state)
    except _TooBig:
        assume(False)
    assert solver.upper_bound(state) >= best
    for earlier in data.draw(st.lists(st.sampled_from(path), max_size=4)):
        assert solver.upper_bound(earlier) >= best


def test_the_bound_is_exact_at_the_end_and_15_along_a_perfect_game():
    seed = QUICK_SEEDS[0]
    state = hx.new_state({}, seed)
    assert solver.upper_bound(state) == MAX_SCORE
    for m in _moves(seed):
        state = hx.apply(state, 0, m)
        assert solver.upper_bound(state) == MAX_SCORE  # the game goes on to 15
    assert hx.is_over(state) and solver.upper_bound(state) == score(state.board) == MAX_SCORE


def test_a_requirement_that_can_never_be_met_lowers_the_bound():
    """T1 asks for 4 crops on its side 4, where its own space is water; a river tile showing
    only water lies across that side and never leaves: T1 can never be explored, so its
    objective can never score; and its back holds one of the only three forest acorns, so
    T2's scatter (three forest terrains with an acorn) can never be met either."""
    from games.hextremadura.engine.board import placed

    def position(with_river: bool):
        state = hx.new_state({}, 0)
        state.board.place(placed("T1", (0, 0), 0, FRONT, 0))
        gone = {"T1"}
        if with_river:
            state.board.place(placed("R1", (-1, 1), 0, "a", 1))  # across T1's side 4 (SW)
            gone.add("R1")
        state.queue = [t for t in state.queue if t not in gone]
        return state

    assert solver.upper_bound(position(with_river=True)) == MAX_SCORE - 2
    assert solver.upper_bound(position(with_river=False)) == MAX_SCORE


def test_prove_settles_a_small_position_exactly():
    seed = QUICK_SEEDS[1]
    moves = _moves(seed)
    state = hx.replay({}, seed, moves[:-1])
    options = ai.candidate_moves(state)
    worse = ai.child(state, options[len(options) // 2])  # some other last placement: the game ends
    assert worse.over
    before = hx.replay({}, seed, moves[:-1])
    best = exhaustive_best(before)
    complete, found, line = solver.prove(before, -1, [], budget_s=60)
    assert complete and found == best == MAX_SCORE
    assert score(ai.child(before, line[0]).board) == best


def test_solve_keeps_to_its_budget_and_says_whether_it_proved():
    par = solver.solve(0, budget_s=1.0)
    assert 0 <= par.score <= par.bound <= MAX_SCORE
    assert par.proved == (par.score == par.bound)
    assert hx.result(hx.replay({}, 0, par.moves))["score"] == par.score
    assert par.seconds < 1.0 + 5.0  # the first, narrowest pass always ends; no wider one starts late


def test_a_front_that_can_never_leave_blocks_its_neighbours_for_good():
    """With T1 stuck (as above), a front whose requirement faces T1 across a space of another
    kind, its own space there being of another kind too, can never be explored either."""
    from games.hextremadura.engine.board import placed
    from games.hextremadura.engine.geometry import DIRECTIONS
    from games.hextremadura.engine.tiles import TILES

    t1 = TILES["T1"].faces[FRONT].oriented[0]
    found = None
    for tid in ("T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T10", "T11", "T12", "T13", "T14", "T15"):
        for rot in range(6):
            o = TILES[tid].faces[FRONT].oriented[rot]
            for req in o.requirements:
                dq, dr = DIRECTIONS[req.side]
                cell = (-dq, -dr)  # T1 at (0, 0) lies across this side
                if cell == (-1, 1):
                    continue  # the river's cell
                if o.spaces[req.side] != req.kind and t1.spaces[(req.side + 3) % 6] != req.kind:
                    found = (tid, rot, cell)
    assert found is not None
    tid, rot, cell = found

    def position(with_river: bool):
        state = hx.new_state({}, 0)
        state.board.place(placed("T1", (0, 0), 0, FRONT, 0))
        state.board.place(placed(tid, cell, rot, FRONT, 1))
        gone = {"T1", tid}
        if with_river:
            state.board.place(placed("R1", (-1, 1), 0, "a", 2))
            gone.add("R1")
        state.queue = [t for t in state.queue if t not in gone]
        return state

    assert solver.upper_bound(position(with_river=False)) == MAX_SCORE
    live, _ = solver.live_tiles(position(with_river=True))
    assert "T1" not in live and tid not in live
    assert solver.upper_bound(position(with_river=True)) <= MAX_SCORE - 3
