"""Hextension AI figures: every level plays the same seeded games, and the hindsight optimum.

    python benchmarks/hextension_ai.py                 # the default run (a few minutes)
    python benchmarks/hextension_ai.py --games 5000 --strong-games 5000 --optimum-draws 500

Games are one-player engine games with one tile per round (19 tiles, the live game), seeds
0, 1, 2, …; every level sees the same draws. For each level it prints the games, the mean
score and its standard error, the median, the 10th and 90th percentiles and the milliseconds
per placement (time inside ``ai.place`` only). Then the hindsight optimum's mean over the
first draws and its time per game. ``--jobs`` spreads the games over processes.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.hextension import engine  # noqa: E402
from games.hextension.engine import ai  # noqa: E402


def play(level: str, seed: int) -> tuple[int, float, int, list[str]]:
    """One game: (score, seconds spent placing, placements, tiles drawn)."""
    state = engine.new_state({"players": 1, "tiles_per_round": 1}, seed)
    rng = random.Random(seed)
    spent, placements = 0.0, 0
    while not engine.is_over(state):
        v = engine.view(state, 0)
        start = time.perf_counter()
        move = ai.place(v["seats"][0]["board"], v["drawn"], level, seen=v["earlier"], rng=rng)
        spent += time.perf_counter() - start
        placements += len(move)
        state = engine.apply(state, 0, {"type": "place", "placements": move})
    final = engine.view(state, 0)
    return final["seats"][0]["score"], spent, placements, final["earlier"]


def _play_range(level: str, seeds: range) -> list[tuple[int, float, int, list[str]]]:
    return [play(level, s) for s in seeds]


def _optimum(tiles: list[str]) -> tuple[int, float]:
    start = time.perf_counter()
    score, _ = ai.best_possible(tiles)
    return score, time.perf_counter() - start


def percentile(sorted_values: list[float], p: float) -> float:
    k = (len(sorted_values) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def run_level(level: str, games: int, jobs: int) -> list[tuple[int, float, int, list[str]]]:
    chunks = [range(i, min(i + 50, games)) for i in range(0, games, 50)]
    if jobs <= 1:
        return [g for c in chunks for g in _play_range(level, c)]
    with ProcessPoolExecutor(jobs) as pool:
        return [g for part in pool.map(_play_range, [level] * len(chunks), chunks) for g in part]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000, help="games for random and greedy")
    p.add_argument("--strong-games", type=int, default=2000, help="games for strong")
    p.add_argument("--optimum-draws", type=int, default=200, help="draws for the hindsight optimum")
    p.add_argument("--levels", default="random,greedy,strong")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    args = p.parse_args()

    print(f"{'level':8} {'games':>6} {'mean':>7} {'s.e.':>5} {'median':>7} {'p10':>6} {'p90':>6} {'ms/placement':>13}")
    for level in args.levels.split(","):
        n = args.strong_games if level == "strong" else args.games
        t0 = time.perf_counter()
        results = run_level(level, n, args.jobs)
        scores = sorted(r[0] for r in results)
        ms = 1000 * sum(r[1] for r in results) / sum(r[2] for r in results)
        mean = statistics.fmean(scores)
        se = statistics.stdev(scores) / len(scores) ** 0.5
        print(
            f"{level:8} {len(scores):6d} {mean:7.1f} {se:5.2f} {statistics.median(scores):7.1f} "
            f"{percentile(scores, 10):6.1f} {percentile(scores, 90):6.1f} {ms:13.2f}"
            f"   ({time.perf_counter() - t0:.0f} s)",
            flush=True,
        )

    if args.optimum_draws:
        draws = [play("random", s)[3] for s in range(args.optimum_draws)]
        with ProcessPoolExecutor(args.jobs) as pool:
            found = list(pool.map(_optimum, draws))
        scores = [s for s, _ in found]
        times = sorted(t for _, t in found)
        print(
            f"hindsight optimum over {len(draws)} draws: mean {statistics.fmean(scores):.1f} "
            f"(s.e. {statistics.stdev(scores) / len(scores) ** 0.5:.2f}), "
            f"{statistics.fmean(times):.2f} s per game (max {times[-1]:.2f} s)"
        )


if __name__ == "__main__":
    main()
