"""Compare learned values for Hextension's strong level, paired on the same draws.

    python benchmarks/hextension_values.py FILE [FILE ...]
    python benchmarks/hextension_values.py games/hextension/engine/weights_v5.npz var/ts/w-21000.npz \\
        --greedy-games 100000 --greedy-seed 600000 --search-games 3000 --search-start 100000

Each file holds ``w`` (a weight vector, as ``train_strong.py`` writes its output and its
checkpoints). Two readings, each against the first file on the same draws:

* **0-ply**: ``--greedy-games`` one-tile games played greedily on points + value, no search
  (``search.td_games`` with step size 0), decks from ``--greedy-seed``. Cheap and precise
  (100,000 games: s.e. of a paired difference about 0.06), so it ranks values;
* **searched**: ``--search-games`` one-tile games with the strong level's search
  (``ai.SEARCH``), decks ``numpy.random.default_rng(seed)`` for seeds from ``--search-start``:
  what the site plays, but a pair of games parts ways early, so 3,000 games still leave a
  paired s.e. of about 0.3.

Draw sets other than the site benchmark's (``hextension_ai.py``, seeds 0–1999) keep a value
from being chosen on the draws it is then measured on. ``--jobs`` spreads searched games over
processes.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.hextension.engine import ai  # noqa: E402
from games.hextension.engine import search as S  # noqa: E402


def load(path: str) -> np.ndarray:
    with np.load(path) as data:
        return data["w"].astype(np.float64)


def greedy_scores(w: np.ndarray, games: int, seed: int) -> np.ndarray:
    scores = np.zeros(games, dtype=np.int64)
    S.td_games(w.copy(), np.zeros_like(w), np.zeros_like(w), games, seed, 0.0, scores, 0.0)
    return scores


def searched_game(w: np.ndarray, seed: int) -> int:
    deck = np.random.default_rng(seed).permutation(S.N_TILES)
    board = np.full(S.N_CELLS, S.EMPTY, dtype=np.int64)
    pool = np.ones(S.N_TILES, dtype=np.bool_)
    p = ai.SEARCH
    for step in range(S.N_CELLS):
        tile = int(deck[step])
        pool[tile] = False
        perms = np.nonzero(board == S.EMPTY)[0].reshape(-1, 1).astype(np.int64)
        best, _ = S.best_placement(board, pool, np.array([tile], dtype=np.int64), perms, w,
                                   p["width1"], p["width2"], p["deep_from"], p["inner"])
        board[perms[best, 0]] = tile
    return int(S.board_score(board))


def _searched_range(path: str, seeds: range) -> list[int]:
    w = load(path)
    return [searched_game(w, s) for s in seeds]


def searched_scores(path: str, games: int, start: int, jobs: int) -> np.ndarray:
    chunks = [range(i, min(i + 100, start + games)) for i in range(start, start + games, 100)]
    if jobs <= 1:
        return np.array([x for c in chunks for x in _searched_range(path, c)])
    with ProcessPoolExecutor(jobs) as pool:
        return np.array([x for part in pool.map(_searched_range, [path] * len(chunks), chunks) for x in part])


def report(name: str, path: str, scores: np.ndarray, base: np.ndarray | None, seconds: float) -> None:
    n = len(scores)
    line = f"{name:9} {path}: mean {scores.mean():.3f} ± {scores.std(ddof=1) / n ** 0.5:.3f}"
    if base is not None:
        d = scores - base
        line += f"   paired against the first {d.mean():+.3f} ± {d.std(ddof=1) / n ** 0.5:.3f}"
    print(f"{line}   ({seconds:.0f} s)", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="+", help="weight files (.npz with w); the first is the reference")
    p.add_argument("--greedy-games", type=int, default=100000, help="0-ply games per value (0: skip)")
    p.add_argument("--greedy-seed", type=int, default=600000)
    p.add_argument("--search-games", type=int, default=0, help="searched games per value (0: skip)")
    p.add_argument("--search-start", type=int, default=100000, help="seed of the first searched draw")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    args = p.parse_args()

    if args.greedy_games:
        base = None
        for path in args.files:
            t0 = time.perf_counter()
            scores = greedy_scores(load(path), args.greedy_games, args.greedy_seed)
            report("0-ply", path, scores, base, time.perf_counter() - t0)
            base = scores if base is None else base
    if args.search_games:
        base = None
        for path in args.files:
            t0 = time.perf_counter()
            scores = searched_scores(path, args.search_games, args.search_start, args.jobs)
            report("searched", path, scores, base, time.perf_counter() - t0)
            base = scores if base is None else base


if __name__ == "__main__":
    main()
