"""Learn the afterstate value tables of ``value.py`` by TD(0) self-play, on the CPU.

    nice -n 10 python -m games.hextension.engine.train --minutes 40 --out hextension/engine/weights.npz

Many games are played side by side with NumPy (one tile per round, the AI's hardest case):
each step every game draws a tile, every empty cell is tried, the placement with the best
immediate points + value is taken, and the value of the previous afterstate moves toward
that. Progress (mean score of the latest games, greedy on the value, no search) is printed.

The shipped weights: 4.6 minutes (102,400 games) on a first version of ``value.py`` without
the spare-supply table, then those weights, padded with zeros for that table, ``--resume``d
for 32 minutes (1,181,440 games, ``--alpha 0.02 --seed 2``), on a 2-core machine shared with
other work; the last progress lines read 163–164 points without search.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from . import value as V


def play_batch(w: np.ndarray, batch: int, rng: np.random.Generator, alpha: float, learn: bool = True) -> np.ndarray:
    """Play ``batch`` games greedily on ``w`` (learning from them when ``learn``); their scores."""
    rows = np.arange(batch)
    boards = np.full((batch, V.N_CELLS), V.EMPTY, dtype=np.int64)
    pools = np.ones((batch, V.N_TILES), dtype=bool)
    decks = np.argsort(rng.random((batch, V.N_TILES)), axis=1)[:, :V.N_CELLS]
    score = np.zeros(batch)
    prev_feat = prev_val = None
    for step in range(V.N_CELLS):
        tiles = decks[:, step]
        pools[rows, tiles] = False
        n_empty = V.N_CELLS - step
        empty = np.nonzero(boards == V.EMPTY)[1].reshape(batch, n_empty)
        cand = np.repeat(boards[:, None, :], n_empty, axis=1)
        cand[rows[:, None], np.arange(n_empty)[None, :], empty] = tiles[:, None]
        flat = cand.reshape(batch * n_empty, V.N_CELLS)
        counts = V.line_counts(flat)
        after = V.scores(flat, counts).reshape(batch, n_empty)
        if n_empty > 1:
            feats = V.features(flat, np.repeat(pools, n_empty, axis=0), counts)
            vals = w[feats].sum(1).reshape(batch, n_empty)
        else:
            feats, vals = None, np.zeros((batch, 1))
        total = after - score[:, None] + vals
        choice = total.argmax(1)
        if learn and prev_feat is not None:
            delta = total[rows, choice] - prev_val
            idx = prev_feat.ravel()
            total_delta = np.bincount(idx, weights=np.repeat(delta, prev_feat.shape[1]), minlength=V.N_WEIGHTS)
            hits = np.bincount(idx, minlength=V.N_WEIGHTS)
            # Each entry moves by alpha times the mean error of the games that used it.
            w += alpha * total_delta / np.maximum(hits, 1)
            w[V.NULL] = 0.0
        if feats is not None:
            prev_feat = feats.reshape(batch, n_empty, -1)[rows, choice]
            prev_val = vals[rows, choice]
        boards = cand[rows, choice]
        score = after[rows, choice]
    return score


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=40.0, help="wall-time budget")
    p.add_argument("--games", type=int, default=0, help="stop after this many games (0: no limit)")
    p.add_argument("--batch", type=int, default=256, help="games played side by side")
    p.add_argument("--alpha", type=float, default=0.03, help="step size per table entry at the start")
    p.add_argument("--alpha-end", type=float, default=0.002, help="step size at the end of the budget")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--resume", type=Path, default=None, help="start from these weights")
    p.add_argument("--out", type=Path, default=V.WEIGHTS_FILE)
    p.add_argument("--report", type=int, default=20, help="print every this many batches")
    args = p.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    w = V.load_weights(args.resume) if args.resume else np.zeros(V.N_WEIGHTS)
    start = time.monotonic()
    budget = args.minutes * 60
    games, recent, batches = 0, [], 0
    while True:
        elapsed = time.monotonic() - start
        if elapsed >= budget or (args.games and games >= args.games):
            break
        frac = min(1.0, elapsed / budget)
        alpha = args.alpha * (args.alpha_end / args.alpha) ** frac
        recent.append(play_batch(w, args.batch, rng, alpha).mean())
        games += args.batch
        batches += 1
        if batches % args.report == 0:
            print(f"{elapsed / 60:6.1f} min  {games:9d} games  alpha {alpha:.5f}  mean {np.mean(recent):6.1f}", flush=True)
            recent = []
            np.savez_compressed(args.out, w=w.astype(np.float32))
    np.savez_compressed(args.out, w=w.astype(np.float32))
    print(f"saved {args.out} after {games} games in {(time.monotonic() - start) / 60:.1f} min")


if __name__ == "__main__":
    main()
