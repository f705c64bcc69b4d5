"""Hexland property checks over thousands of random games (the test suite plays 200).

    .venv/bin/python benchmarks/hexland_soak.py [--games 2000] [--first 1000]

Each game is the test suite's random game (uniform legal moves, offers, timeouts, illegal
tries) with its invariant checks after every move: cards conserved, pieces within limits,
distance rule, points, every actor has a move; deep checks (Longest Road against brute force,
frontier, views hiding what a seat may not know) on some positions of every tenth game; the
end has one winner on their own turn.  Seeds start past the suite's.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.hexland import engine as hexland  # noqa: E402
from tests.engines.hexland.test_properties import play_random_game  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--first", type=int, default=1000, help="first seed")
    args = ap.parse_args()
    start = time.perf_counter()
    turns = 0
    for seed in range(args.first, args.first + args.games):
        _, s, _ = play_random_game(seed, deep=seed % 10 == 0)
        assert hexland.is_over(s), f"seed {seed}: unfinished"
        assert s.winner == s.cur and hexland.victory_points(s, s.winner) >= s.g.vp_to_win
        turns += s.turn
    elapsed = time.perf_counter() - start
    print(f"{args.games} checked games, all finished with one winner on their own turn; "
          f"{turns / args.games:.0f} turns on average; {elapsed:.0f} s")


if __name__ == "__main__":
    main()
