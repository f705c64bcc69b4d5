"""Strength and speed of the Hexland bots (easy / medium / hard).

    nice -n 10 .venv/bin/python benchmarks/hexland_ai.py [--games 40] [--only hard-vs-weighted,...]

Every pairing plays the same seeds 0..N-1 (the seed fixes board, seat order, deck and
dice); the bot under test sits in seat 0, the seat order is the seed's.  Win rates with 95%
Wilson intervals; decision times (mean, 99th percentile) per level over all games played.

Opponents: ``cat-weighted`` is Catanatron's own WeightedRandomPlayer seated in our engine
through benchmarks/catanatron_bridge.py.  Catanatron's ValueFunctionPlayer (F) and
AlphaBetaPlayer are not in the PyPI release installed here (catanatron 3.2.1 ships only
RandomPlayer, WeightedRandomPlayer and VictoryPointPlayer; the search players live in the
unpublished catanatron_experimental), so those lines are reported as unavailable and a
stand-in is measured instead: ``greedy1``, a one-ply greedy player over a value function
(the idea of F), built from our own evaluation at depth 1 with medium weights.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.hexland import engine as hexland  # noqa: E402
from games.hexland.engine import ai, planner  # noqa: E402

MAX_TURNS = 600


def _greedy1():
    """F stand-in: greedy one move ahead over a value function, no opponents' term."""
    planner.LEVELS.setdefault("greedy1", planner.Level(planner.MEDIUM, 1, 0.3, False, False))
    return "greedy1"


def make_seat(kind: str, seed: int):
    if kind == "cat-weighted":
        from catanatron.players.weighted_random import WeightedRandomPlayer

        from benchmarks.catanatron_bridge import CatanatronSeat
        seat = CatanatronSeat(WeightedRandomPlayer, seed)
        return kind, seat.decide
    rng = random.Random(seed * 7919 + len(kind))
    level = _greedy1() if kind == "greedy1" else kind
    return kind, (lambda view: ai.decide(view, level, rng))


def play(kinds, seed: int, times: dict) -> int | None:
    """One game; returns the winning seat (None past MAX_TURNS)."""
    s = hexland.new_state({"players": len(kinds)}, seed)
    seats = [make_seat(k, seed * 10 + i) for i, k in enumerate(kinds)]
    while not hexland.is_over(s) and s.turn <= MAX_TURNS:
        q = sorted(hexland.actors(s), key=lambda x: x == s.cur)[0]   # answers first
        kind, decide = seats[q]
        v = hexland.view(s, q)
        t = time.perf_counter()
        move = decide(v)
        times.setdefault(kind, []).append(time.perf_counter() - t)
        s = hexland.apply(s, q, move)
    return hexland.result(s)["winner"] if hexland.is_over(s) else None


def wilson(k: int, n: int, z: float = 1.96) -> tuple:
    if n == 0:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


PAIRINGS = {
    "hard-vs-weighted": ("hard", "cat-weighted", "cat-weighted", "cat-weighted"),
    "medium-vs-weighted": ("medium", "cat-weighted", "cat-weighted", "cat-weighted"),
    "easy-vs-weighted": ("easy", "cat-weighted", "cat-weighted", "cat-weighted"),
    "hard-vs-medium": ("hard", "medium"),
    "medium-vs-easy": ("medium", "easy"),
    "hard-vs-F-standin": ("hard", "greedy1"),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    names = [n for n in PAIRINGS if not args.only or n in args.only.split(",")]
    times: dict = {}
    for name in names:
        kinds = PAIRINGS[name]
        wins = unfinished = 0
        start = time.perf_counter()
        for seed in range(args.games):
            w = play(kinds, seed, times)
            wins += w == 0
            unfinished += w is None
        lo, hi = wilson(wins, args.games)
        print(f"{name:20s} {'-'.join(kinds)}: seat 0 won {wins}/{args.games} = "
              f"{100 * wins / args.games:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%), "
              f"unfinished {unfinished}, {time.perf_counter() - start:.0f} s", flush=True)
    for kind in ("hard-vs-F", "hard-vs-AlphaBeta"):
        if not args.only:
            print(f"{kind:20s} unavailable: Catanatron's F / AlphaBeta players are not in the "
                  f"installed PyPI release (catanatron 3.2.1)")
    for kind in ("easy", "medium", "hard", "greedy1", "cat-weighted"):
        ts = sorted(times.get(kind, []))
        if ts:
            print(f"decision time {kind:12s} n={len(ts)} mean {1000 * sum(ts) / len(ts):.2f} ms,"
                  f" p99 {1000 * ts[int(len(ts) * 0.99)]:.2f} ms, max {1000 * ts[-1]:.1f} ms")


if __name__ == "__main__":
    main()
