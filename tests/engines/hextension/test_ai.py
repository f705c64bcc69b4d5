"""The Hextension placement AI, its training script and the hindsight optimum."""
from __future__ import annotations

import random
import statistics

import numpy as np
import pytest

from games.hextension import engine as hx
from games.hextension.engine import ai, train
from games.hextension.engine import value as V
from games.hextension.engine.board import TILES

from .test_engine import BOARD_307


def play_game(level: str, seed: int, players: int = 1, per_round: int = 1) -> list[int]:
    """Every seat played by ``level`` from its view, through ``apply``."""
    state = hx.new_state({"players": players, "tiles_per_round": per_round}, seed)
    rng = random.Random(seed)
    while not hx.is_over(state):
        for seat in sorted(hx.actors(state)):
            v = hx.view(state, seat)
            move = ai.place(v["seats"][seat]["board"], v["drawn"], level, seen=v["earlier"], rng=rng)
            state = hx.apply(state, seat, {"type": "place", "placements": move})
    return hx.result(state)["scores"]


@pytest.mark.parametrize("level", ai.LEVELS)
@pytest.mark.parametrize("count", [1, 2, 3])
def test_place_puts_every_tile_on_its_own_empty_cell(level, count):
    rng = random.Random(count)
    tiles = rng.sample(TILES, 7 + count)
    board = dict(zip(rng.sample(hx.CELLS, 7), tiles[:7]))
    move = ai.place(board, tiles[7:], level, seen=tiles[:7], rng=rng)
    assert set(move) == set(tiles[7:])
    assert len(set(move.values())) == count
    assert not set(move.values()) & set(board)


def test_place_refuses_nonsense():
    with pytest.raises(ValueError):
        ai.place({}, ["174"], "brilliant")
    with pytest.raises(ValueError):
        ai.place({"A1": "174"}, ["174"], "greedy")
    with pytest.raises(ValueError):
        ai.place({}, ["174", "174"], "strong")


def test_strong_is_deterministic_and_finishes_a_line_it_can():
    board = {"A1": "923", "A2": "973"}
    assert ai.place(board, ["924"], "strong") == {"924": "A3"}
    tiles = ["528", "963"]
    assert ai.place(board, tiles, "strong", seen=["923", "973"]) == ai.place(board, tiles, "strong", seen=["923", "973"])


def test_ai_seats_play_whole_games_from_their_views():
    # Two tiles a round, three seats: the default play-by-mail game.
    for level in ai.LEVELS:
        scores = play_game(level, 3, players=3, per_round=2)
        assert len(scores) == 3 and all(0 <= s <= 307 for s in scores)


def test_levels_are_ordered():
    seeds = range(12)
    mean = {level: statistics.fmean(play_game(level, s)[0] for s in seeds) for level in ai.LEVELS}
    assert mean["random"] < 40 < mean["greedy"] < mean["strong"]


def test_weights_ship_small_and_fit_the_value_function():
    assert V.WEIGHTS_FILE.stat().st_size < 3 * 2**20
    w = V.load_weights()
    assert w.shape == (V.N_WEIGHTS,) and w[V.NULL] == 0 and np.isfinite(w).all()


def test_training_runs_and_writes_loadable_weights(tmp_path):
    out = tmp_path / "w.npz"
    train.main(["--games", "64", "--batch", "32", "--out", str(out), "--minutes", "1"])
    assert V.load_weights(out).shape == (V.N_WEIGHTS,)


def test_value_scores_match_the_board_scores():
    rng = np.random.default_rng(0)
    rows = np.array([rng.permutation(27)[:19] for _ in range(100)])
    boards = [{hx.CELLS[i]: TILES[t] for i, t in enumerate(row)} for row in rows]
    assert V.scores(rows).tolist() == [hx.score_board(b) for b in boards]


# --- the hindsight optimum -----------------------------------------------------------------------


def test_best_possible_finds_307_and_a_board_for_it():
    score, board = ai.best_possible(BOARD_307.values())
    assert score == 307 and hx.score_board(board) == 307
    assert sorted(board.values()) == sorted(BOARD_307.values()) and set(board) == set(hx.CELLS)


def test_best_possible_from_all_27_tiles_is_307():
    score, board = ai.best_possible(TILES)
    assert score == 307 and hx.score_board(board) == 307 and len(board) == 19


@pytest.mark.parametrize("seed", range(4))
def test_best_possible_beats_every_placement_tried(seed):
    rng = random.Random(seed)
    tiles = rng.sample(TILES, 19)
    score, board = ai.best_possible(tiles)
    assert hx.score_board(board) == score
    assert sorted(board.values()) == sorted(tiles) and set(board) == set(hx.CELLS)
    # No swap of two tiles improves it, and no AI placement of the same draw beats it.
    cells = list(board)
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            swapped = dict(board, **{a: board[b], b: board[a]})
            assert hx.score_board(swapped) <= score
    for level in ("greedy", "strong"):
        played: dict[str, str] = {}
        for k, tile in enumerate(tiles):
            move = ai.place(played, [tile], level, seen=tiles[:k])
            played[move[tile]] = tile
        assert hx.score_board(played) <= score


def test_best_possible_refuses_too_few_tiles():
    with pytest.raises(ValueError):
        ai.best_possible(TILES[:18])
