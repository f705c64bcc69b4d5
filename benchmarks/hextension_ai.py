"""Hextension AI figures: every level plays the same seeded games, and the hindsight optimum.

    python benchmarks/hextension_ai.py                 # the default run (a long one: see below)
    python benchmarks/hextension_ai.py --per-round 1 --levels strong --games 2000
    python benchmarks/hextension_ai.py --per-round 1,2,3 --games 2000 --slow-games 500

Games are one-player engine games with 1, 2 or 3 tiles per round (``--per-round``; 19 tiles),
seeds 0, 1, 2, …; every level sees the same draws. For each setting and level it prints the
games, the mean score and its standard error, the median, the 10th and 90th percentiles, and
the milliseconds per move (one ``ai.place`` call placing the round's tiles, time inside it
only): mean and 99th percentile. ``strong-v1`` is the strong level before the search and
second value (kept for old replays); ``--slow-games`` caps its games and greedy's at 3 tiles
(each of them slow there). Then the hindsight optimum's mean over the first draws and its time
per game. ``--jobs`` spreads the games over processes.
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


def play(level: str, seed: int, per_round: int = 1) -> tuple[int, list[float], list[str]]:
    """One game: (score, seconds of each ``ai.place`` call, tiles drawn)."""
    state = engine.new_state({"players": 1, "tiles_per_round": per_round}, seed)
    rng = random.Random(seed)
    times = []
    while not engine.is_over(state):
        v = engine.view(state, 0)
        start = time.perf_counter()
        move = ai.place(v["seats"][0]["board"], v["drawn"], level, seen=v["earlier"], rng=rng)
        times.append(time.perf_counter() - start)
        state = engine.apply(state, 0, {"type": "place", "placements": move})
    final = engine.view(state, 0)
    return final["seats"][0]["score"], times, final["earlier"]


def _play_range(level: str, seeds: range, per_round: int) -> list[tuple[int, list[float], list[str]]]:
    ai.place({}, ["174"], level, rng=random.Random(0))  # compile and load outside the timing
    return [play(level, s, per_round) for s in seeds]


def _optimum(tiles: list[str]) -> tuple[int, float]:
    start = time.perf_counter()
    score, _ = ai.best_possible(tiles)
    return score, time.perf_counter() - start


def percentile(sorted_values: list[float], p: float) -> float:
    k = (len(sorted_values) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def run_level(level: str, games: int, jobs: int, per_round: int) -> list[tuple[int, list[float], list[str]]]:
    chunks = [range(i, min(i + 50, games)) for i in range(0, games, 50)]
    if jobs <= 1:
        return [g for c in chunks for g in _play_range(level, c, per_round)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(_play_range, [level] * len(chunks), chunks, [per_round] * len(chunks))
        return [g for part in parts for g in part]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000, help="games per level and setting")
    p.add_argument("--slow-games", type=int, default=500, help="games for strong-v1, and greedy at 3 tiles")
    p.add_argument("--per-round", default="1,2,3", help="tiles per round settings")
    p.add_argument("--optimum-draws", type=int, default=200, help="draws for the hindsight optimum")
    p.add_argument("--levels", default="random,greedy,strong-v1,strong")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    args = p.parse_args()

    for per_round in [int(x) for x in args.per_round.split(",")]:
        print(f"\n{per_round} tile{'s' if per_round > 1 else ''} per round")
        print(f"{'level':9} {'games':>6} {'mean':>7} {'s.e.':>5} {'median':>7} {'p10':>6} {'p90':>6} "
              f"{'ms/move':>8} {'p99 ms':>7}")
        for level in args.levels.split(","):
            slow = level == "strong-v1" or (level == "greedy" and per_round == 3)
            n = min(args.games, args.slow_games) if slow else args.games
            t0 = time.perf_counter()
            results = run_level(level, n, args.jobs, per_round)
            scores = sorted(r[0] for r in results)
            times = sorted(1000 * t for r in results for t in r[1])
            mean = statistics.fmean(scores)
            se = statistics.stdev(scores) / len(scores) ** 0.5
            print(
                f"{level:9} {len(scores):6d} {mean:7.1f} {se:5.2f} {statistics.median(scores):7.1f} "
                f"{percentile(scores, 10):6.1f} {percentile(scores, 90):6.1f} "
                f"{statistics.fmean(times):8.2f} {percentile(times, 99):7.1f}"
                f"   ({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )

    if args.optimum_draws:
        draws = [play("random", s)[2] for s in range(args.optimum_draws)]
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
