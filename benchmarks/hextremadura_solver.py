"""Hextremadura figures: the solver (par) over seeded shuffles, the view-only hint player, a
random player on the same shuffles, and the engine's time per placement on an 18-tile map.

    .venv/bin/python benchmarks/hextremadura_solver.py [--games N] [--hint-games N] [--width W]

``--games 1000`` gives the full figure (about 5 s a game on one core at the default width)."""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.hextremadura.engine as hx  # noqa: E402
from games.hextremadura.engine import ai, rules  # noqa: E402
from games.hextremadura.engine.tiles import BACK, TERRAIN_TILE_IDS  # noqa: E402


def _summary(scores: list[int]) -> str:
    perfect = sum(1 for s in scores if s == rules.MAX_SCORE)
    return (f"mean {statistics.mean(scores):.2f}, perfect {perfect}/{len(scores)} "
            f"({100 * perfect / len(scores):.1f}%), min {min(scores)}, max {max(scores)}")


def bench_solver(games: int, width: int) -> None:
    scores, placements, elapsed = [], 0, 0.0
    for seed in range(games):
        started = time.perf_counter()
        score, moves = ai.solve({}, seed, width=width)
        elapsed += time.perf_counter() - started
        assert hx.result(hx.replay({}, seed, moves))["score"] == score
        scores.append(score)
        placements += len(moves)
    print(f"solver (par, width {width}, full knowledge) over {games} seeded shuffles: {_summary(scores)}")
    print(f"  time per move {1000 * elapsed / placements:.0f} ms ({placements / games:.1f} placements a game)")


def bench_hints(games: int) -> None:
    scores, times = [], []
    for seed in range(games):
        state = hx.new_state({}, seed)
        while not hx.is_over(state):
            view = hx.view(state)
            started = time.perf_counter()
            move = ai.hint(view)
            times.append(time.perf_counter() - started)
            state = hx.apply(state, 0, move)
        scores.append(hx.result(state)["score"])
    print(f"hint player (view only) over {games} seeded shuffles: {_summary(scores)}")
    print(f"  time per move: mean {1000 * statistics.mean(times):.0f} ms, max {1000 * max(times):.0f} ms")


def bench_random(games: int) -> None:
    scores = []
    for seed in range(games):
        rng = random.Random(seed)
        state = hx.new_state({}, seed)
        while not hx.is_over(state):
            state = hx.apply(state, 0, rng.choice(hx.legal_moves(state, 0)))
        scores.append(hx.result(state)["score"])
    print(f"random player over the same {games} shuffles: {_summary(scores)}")


def _eighteen_tile_map(seed: int) -> rules.State:
    """17 tiles on the map, about half back up, no removal on the way; one tile left."""
    rng = random.Random(seed)
    state = hx.new_state({}, seed)
    for tid in TERRAIN_TILE_IDS:
        if rng.random() < 0.5:
            state.faces_up[tid] = BACK
    while len(state.board) < 17:
        legal = hx.legal_moves(state, 0)
        rng.shuffle(legal)
        for move in legal:
            nxt = hx.apply(state, 0, move)
            if not nxt.last_removed:
                state = nxt
                break
        else:
            raise RuntimeError("no placement without a removal")
    return state


def bench_engine() -> None:
    times, status = [], []
    for seed in range(5):
        state = _eighteen_tile_map(seed)
        for move in hx.legal_moves(state, 0):
            started = time.perf_counter()
            after = hx.apply(state, 0, move)  # place, check and make removals, end the round
            times.append(time.perf_counter() - started)
            started = time.perf_counter()
            analysis = after.board.analysis()
            rules.score(after.board, analysis)  # every objective's status
            status.append(time.perf_counter() - started)
    view_started = time.perf_counter()
    hx.view(state)
    view_time = time.perf_counter() - view_started
    print(f"engine, 18th tile onto a 17-tile map ({len(times)} placements): "
          f"apply {1e6 * statistics.mean(times):.0f} us (max {1e6 * max(times):.0f} us), "
          f"objective status {1e6 * statistics.mean(status):.0f} us, view {1000 * view_time:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="seeded shuffles for the solver and the random player")
    parser.add_argument("--hint-games", type=int, default=4, help="shuffles for the hint player")
    parser.add_argument("--width", type=int, default=ai.PAR_WIDTH, help="the solver's beam width")
    args = parser.parse_args()
    bench_engine()
    bench_random(args.games)
    bench_solver(args.games, args.width)
    if args.hint_games:
        bench_hints(args.hint_games)


if __name__ == "__main__":
    main()
