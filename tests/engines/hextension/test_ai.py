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


def test_strong_is_deterministic_and_finishes_a_line_when_no_other_tile_could():
    board = {"A1": "923", "A2": "973"}
    # Every other tile with a vertical 9 is gone: 924 is line A's last chance.
    gone = ["923", "973", "928", "963", "964", "968", "974", "978"]
    assert ai.place(board, ["924"], "strong", seen=gone) == {"924": "A3"}
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


# --- the compiled value and search (search.py), the strong value (train_strong.py) ----------------


def _random_positions(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Boards (any number of tiles placed) and pools (tiles that may still come)."""
    rng = np.random.default_rng(seed)
    boards = np.full((count, V.N_CELLS), V.EMPTY, dtype=np.int64)
    pools = np.zeros((count, V.N_TILES), dtype=bool)
    for b in range(count):
        k = int(rng.integers(0, 20))
        order = rng.permutation(V.N_TILES)
        boards[b, rng.permutation(V.N_CELLS)[:k]] = order[:k]
        pools[b, order[k:]] = rng.random(V.N_TILES - k) < 0.8
    return boards, pools


def test_compiled_value_equals_the_numpy_value():
    from games.hextension.engine import search as S

    boards, pools = _random_positions(400, 1)
    w = V.load_weights()
    expected = np.array([ai._evaluate(boards[b:b + 1], pools[b])[0] for b in range(len(boards))])
    got = np.array([S.board_value(boards[b], *S.pool_stats(pools[b]), w) for b in range(len(boards))])
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)
    assert [S.board_score(b) for b in boards] == V.scores(boards).tolist()


def test_the_extension_table_adds_one_entry_per_cell_and_nothing_when_zero():
    from games.hextension.engine import search as S

    boards, pools = _random_positions(200, 2)
    base = V.load_weights()
    w = np.concatenate([base, np.zeros(S.N_F6)])
    assert w.shape == (S.N_WEIGHTS_X,)
    out = np.empty(S.N_FEATURES, dtype=np.int64)
    for board, pool in zip(boards, pools):
        stats = S.pool_stats(pool)
        assert S.board_value(board, *stats, w) == pytest.approx(S.board_value(board, *stats, base), abs=1e-9)
        score, n = S.board_features(board, *stats, out, True)
        if (board == V.EMPTY).any():
            # Per line twice, per direction and value, per empty cell, per direction, per cell.
            assert n == 2 * V.N_LINES + 9 + (board == V.EMPTY).sum() + 3 + V.N_CELLS
            ext = out[:n][out[:n] >= S.OFF_F6]
            assert len(ext) == V.N_CELLS and (ext < S.N_WEIGHTS_X).all()
        else:
            assert n == 0 and score == S.board_score(board)


def test_strong_v1_places_as_it_always_did():
    """``strong-v1`` replays old timeout events: its placements must never change."""
    state = hx.new_state({"players": 1, "tiles_per_round": 2}, "golden")
    expected = [
        {"978": "A1", "523": "D4"}, {"578": "D3", "924": "A3"}, {"563": "D1", "124": "C5"},
        {"173": "C4", "963": "A2"}, {"528": "E3", "974": "B4"}, {"178": "C3", "923": "B3"},
        {"168": "B2", "123": "C1"}, {"968": "C2", "574": "E2"}, {"964": "B1", "164": "D2"},
        {"928": "E1"},
    ]
    for move in expected:
        v = hx.view(state, 0)
        assert ai.place(v["seats"][0]["board"], v["drawn"], "strong-v1", seen=v["earlier"]) == move
        state = hx.apply(state, 0, {"type": "place", "placements": move})
    assert hx.result(state)["scores"] == [149]


def test_an_old_empty_timeout_event_replays_with_strong_v1_and_a_new_one_stores_strong():
    from games.protocol import Engine

    engine = Engine(hx)
    state = hx.new_state({"players": 2, "tiles_per_round": 2}, 5)
    for _ in range(3):  # a few rounds in, where the levels can differ
        for seat in (0, 1):
            v = hx.view(state, seat)
            move = ai.place(v["seats"][seat]["board"], v["drawn"], "greedy", seen=v["earlier"])
            state = hx.apply(state, seat, {"type": "place", "placements": move})
    v = hx.view(state, 1)
    old = ai.place(v["seats"][1]["board"], v["drawn"], "strong-v1", seen=v["earlier"])
    new = ai.place(v["seats"][1]["board"], v["drawn"], "strong", seen=v["earlier"])
    replayed_old = engine.apply_timeout(state, 1, {})  # how an event stored empty replays
    assert replayed_old.pending[1] == old and replayed_old == hx.legacy_timeout_move(state, 1)
    resolution = engine.resolve_timeout(state, 1)
    assert resolution == {"placements": new}
    assert engine.apply_timeout(state, 1, resolution) == hx.timeout_move(state, 1)


def test_td_training_is_repeatable_and_learns(tmp_path):
    from games.hextension.engine import train_strong

    quiet = {"chunk": 200, "log": lambda _: None}
    wa, a = train_strong.train(600, seed=7, out=tmp_path / "a.npz", **quiet)
    wb, b = train_strong.train(600, seed=7, **quiet)
    assert a == b and np.array_equal(wa, wb) and np.abs(wa).sum() > 0
    assert a[-1][1] > a[0][1]  # the mean score climbs from the untrained start
    assert np.array_equal(np.load(tmp_path / "a.npz")["w"], wa.astype(np.float32))
    # A run stopped at a checkpoint and resumed ends with the same weights.
    train_strong.train(400, seed=7, checkpoint=tmp_path / "ck.npz", **quiet)
    wc, c = train_strong.train(600, seed=7, resume=tmp_path / "ck.npz", **quiet)
    assert c == a and np.array_equal(wc, wa)
    # Another seed learns another value; the extension table joins at zero when asked.
    wd, _ = train_strong.train(400, seed=8, extension_from=200, **quiet)
    assert wd.shape == (train_strong.S.N_WEIGHTS_X,) and not np.array_equal(wd[:V.N_WEIGHTS], wa)


def test_exploration_places_at_random_and_zero_keeps_greedy_training():
    from games.hextension.engine import search as S
    from games.hextension.engine import train_strong

    quiet = {"chunk": 200, "log": lambda _: None}
    greedy, g = train_strong.train(400, seed=7, explore=0.0, **quiet)
    explored, _ = train_strong.train(400, seed=7, explore=0.3, **quiet)
    assert not np.array_equal(greedy, explored)
    # explore=0 trains as before exploration existed (no extra random draws): these sums of
    # the first two chunks' scores are those of the loop at commit 57a172b.
    assert [round(mean * 200) for _, mean in g] == [5607, 8937]
    # Every placement at random plays like the random level (about 11 points).
    w, e, a = np.zeros(V.N_WEIGHTS), np.zeros(V.N_WEIGHTS), np.zeros(V.N_WEIGHTS)
    scores = np.zeros(200, dtype=np.int64)
    S.td_games(w, e, a, 200, 7, 1.0, scores, 1.0)
    assert scores.mean() < 40 < g[-1][1]


def test_the_shipped_value_is_the_mean_of_its_seeds_and_a_rerun_continues_from_checkpoints(tmp_path):
    from games.hextension.engine import train_strong

    quiet = {"chunk": 200, "log": lambda _: None}
    w7, _ = train_strong.train(400, seed=7, **quiet)
    w8, _ = train_strong.train(400, seed=8, **quiet)
    mean = train_strong.train_ensemble(400, [7, 8], out=tmp_path / "v.npz", checkpoint_dir=tmp_path / "ck",
                                       jobs=1, chunk=200, alpha=1.0)
    np.testing.assert_array_equal(mean, (w7 + w8) / 2)
    assert np.array_equal(np.load(tmp_path / "v.npz")["w"], mean.astype(np.float32))
    # The same command, longer: each seed continues from its checkpoint to the new length.
    longer = train_strong.train_ensemble(600, [7, 8], out=tmp_path / "v.npz", checkpoint_dir=tmp_path / "ck",
                                         jobs=1, chunk=200, alpha=1.0)
    w7_600, _ = train_strong.train(600, seed=7, **quiet)
    w8_600, _ = train_strong.train(600, seed=8, **quiet)
    np.testing.assert_array_equal(longer, (w7_600 + w8_600) / 2)


def test_strong_ships_its_own_weights_beside_the_first():
    from games.hextension.engine import search as S

    assert ai.WEIGHTS_STRONG.stat().st_size < 3 * 2**20 and ai.WEIGHTS_STRONG != V.WEIGHTS_FILE
    w = ai._weights_strong()
    assert w.shape in {(V.N_WEIGHTS,), (S.N_WEIGHTS_X,)} and w[V.NULL] == 0 and np.isfinite(w).all()
