"""Learn the strong level's value (``weights_v5.npz``) by TD(0) self-play with
temporal-coherence step sizes and a share of random placements, compiled with Numba.

    nice python -m games.hextension.engine.train_strong --games 24000000 --seeds 1000 \\
        --checkpoint-dir var/train-strong --out games/hextension/engine/weights_v5.npz

Each seed trains one value from zero (``value.py``'s tables), on one CPU core of its own
(``--jobs``, default one per seed), and ``--out`` gets their mean. Use one seed to ship: the
mean of different seeds' values plays worse than either (docs/hextension.md, "Training");
several seeds in one command try them in parallel, each value then being its checkpoint in
``--checkpoint-dir``.

A value plays games one at a time, one tile per round, greedily on points + value (no
search) except for a share ``--explore`` (default 0.1) of placements made at random, in
chunks of ``--chunk`` games; chunk ``i`` draws its decks and random placements from its
seed + i, so a command always gives the same weights (on one build of NumPy and Numba).
After each chunk it prints the mean score of that chunk's games (the learning curve; the
random placements keep it far below the value's greedy play, about 141 against 166) and, with
``--checkpoint-dir``, writes a checkpoint there (float64 weights and step-size sums, games
done); the same command run again continues from the checkpoints.

``--extension-from N`` adds ``search.py``'s extension table (at zero) after N games;
``--init`` starts from ``value.py`` weights instead of zero. The values no longer shipped were:
the second (``weights_v2.npz``) ``--init weights.npz --extension-from 0 --alpha 0.5 --explore 0``
for 920,000 games; the third (``weights_v3.npz``) ``--games 2000000 --explore 0 --chunk 20000``;
the fourth (``weights_v4.npz``) ``--games 3000000 --chunk 20000``.
"""
from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from . import search as S
from . import value as V

STRONG_FILE = Path(__file__).with_name("weights_v5.npz")
# The share of training placements made at random (``search.td_games``).
EXPLORE = 0.1


def train(
    games: int,
    *,
    seed: int = 1000,
    alpha: float = 1.0,
    explore: float = EXPLORE,
    chunk: int = 100000,
    init: Path | None = None,
    extension_from: int | None = None,
    resume: Path | None = None,
    checkpoint: Path | None = None,
    out: Path | None = None,
    log=print,
) -> tuple[np.ndarray, list[tuple[int, float]]]:
    """Train one value until ``games`` games are done; return its weights and the curve
    [(games done, chunk mean)]. ``resume`` continues from a checkpoint; ``out`` saves the
    weights (float32)."""
    if resume is not None:
        with np.load(resume) as data:
            w, e_sum, a_sum = data["w"].copy(), data["e"].copy(), data["a"].copy()
            done = int(data["done"])
            curve = [tuple(row) for row in data["curve"].tolist()]
    else:
        w = np.zeros(V.N_WEIGHTS)
        if init is not None:
            w[:] = V.load_weights(init)
        e_sum = np.zeros(V.N_WEIGHTS)
        a_sum = np.zeros(V.N_WEIGHTS)
        done, curve = 0, []
    scores = np.zeros(chunk, dtype=np.int64)
    start = time.monotonic()
    while done < games:
        if extension_from is not None and done >= extension_from and w.shape[0] < S.N_WEIGHTS_X:
            w, e_sum, a_sum = (np.concatenate([x, np.zeros(S.N_WEIGHTS_X - x.shape[0])]) for x in (w, e_sum, a_sum))
        until = games if extension_from is None or done >= extension_from else min(games, extension_from)
        n = min(chunk, until - done)
        S.td_games(w, e_sum, a_sum, n, seed + done // chunk, alpha, scores[:n], explore)
        w[V.NULL] = 0.0
        done += n
        curve.append((done, float(scores[:n].mean())))
        log(f"{(time.monotonic() - start) / 60:7.1f} min  {done:9d} games  mean {curve[-1][1]:6.2f}")
        if checkpoint is not None:
            np.savez(checkpoint, w=w, e=e_sum, a=a_sum, done=done, curve=np.array(curve))
    if out is not None:
        np.savez_compressed(out, w=w.astype(np.float32))
    return w, curve


def _train_seed(games: int, seed: int, options: dict, checkpoint_dir: Path | None) -> np.ndarray:
    checkpoint = None if checkpoint_dir is None else checkpoint_dir / f"seed-{seed}.npz"
    resume = checkpoint if checkpoint is not None and checkpoint.exists() else None
    w, _ = train(games, seed=seed, checkpoint=checkpoint, resume=resume,
                 log=lambda line: print(f"seed {seed}: {line}", flush=True), **options)
    return w


def train_ensemble(
    games: int,
    seeds: list[int],
    *,
    out: Path = STRONG_FILE,
    checkpoint_dir: Path | None = None,
    jobs: int | None = None,
    **options,
) -> np.ndarray:
    """Train one value per seed (in ``jobs`` processes) and save their mean to ``out``."""
    if checkpoint_dir is not None:
        checkpoint_dir.mkdir(parents=True, exist_ok=True)
    args = [(games, s, options, checkpoint_dir) for s in seeds]
    if (jobs or len(seeds)) <= 1:
        values = [_train_seed(*a) for a in args]
    else:
        with ProcessPoolExecutor(jobs or len(seeds)) as pool:
            values = list(pool.map(_train_seed, *zip(*args)))
    if len({v.shape for v in values}) != 1:
        raise ValueError("the values hold different tables; give them the same --extension-from")
    mean = np.mean(values, axis=0)
    np.savez_compressed(out, w=mean.astype(np.float32))
    return mean


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, required=True, help="train each value until this many games are done")
    p.add_argument("--seeds", default="1000", help="comma-separated: one value per seed, chunk i drawn from seed + i")
    p.add_argument("--alpha", type=float, default=1.0, help="step size (temporal coherence scales it per entry)")
    p.add_argument("--explore", type=float, default=EXPLORE,
                   help="share of training placements made at random (0: always the best)")
    p.add_argument("--chunk", type=int, default=100000, help="games between progress lines and checkpoints")
    p.add_argument("--init", type=Path, default=None, help="start from these value.py weights (weights.npz)")
    p.add_argument("--extension-from", type=int, default=None,
                   help="add the extension table (at zero) after this many games (default: never)")
    p.add_argument("--checkpoint-dir", type=Path, default=None,
                   help="write a checkpoint per seed here after each chunk, and continue from them")
    p.add_argument("--jobs", type=int, default=None, help="processes (default: one per seed)")
    p.add_argument("--out", type=Path, default=STRONG_FILE)
    args = p.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    start = time.monotonic()
    train_ensemble(args.games, seeds, out=args.out, checkpoint_dir=args.checkpoint_dir, jobs=args.jobs,
                   alpha=args.alpha, explore=args.explore, chunk=args.chunk, init=args.init, extension_from=args.extension_from)
    print(f"saved {args.out} (mean of {len(seeds)} values) after {(time.monotonic() - start) / 60:.1f} min")


if __name__ == "__main__":
    main()
