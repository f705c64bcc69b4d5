"""Learn the second value (``weights_v2.npz``: the ``value.py`` tables plus the extension
table of ``search.py``) by TD(0) self-play with temporal-coherence step sizes, compiled with
Numba, on one CPU core.

    nice -n 10 python -m games.hextension.engine.train_v2 --games 1000000 \\
        --init games/hextension/engine/weights.npz --out games/hextension/engine/weights_v2.npz

Games are played one at a time, one tile per round, greedily on points + value (no search),
in chunks of ``--chunk`` games; chunk ``i`` draws its decks from ``--seed`` + i, so a given
command always gives the same weights (on one build of NumPy and Numba). After each chunk it
prints the mean score of that chunk's games (the learning curve) and writes a checkpoint
(float64 weights and step-size sums, games done); ``--resume CHECKPOINT`` continues a run
exactly where it stopped. ``--init`` starts from weights of ``value.py`` alone (the extension
table starts at zero); without it, from zero.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from . import search as S
from . import value as V

V2_FILE = Path(__file__).with_name("weights_v2.npz")


def train(
    games: int,
    *,
    seed: int = 1000,
    alpha: float = 0.5,
    chunk: int = 20000,
    init: Path | None = None,
    resume: Path | None = None,
    checkpoint: Path | None = None,
    out: Path = V2_FILE,
    log=print,
) -> list[tuple[int, float]]:
    """Train until ``games`` games are done; return the curve [(games done, chunk mean)]."""
    if resume is not None:
        with np.load(resume) as data:
            w, e_sum, a_sum = data["w"].copy(), data["e"].copy(), data["a"].copy()
            done = int(data["done"])
            curve = [tuple(row) for row in data["curve"].tolist()]
    else:
        w = np.zeros(S.N_WEIGHTS_X)
        if init is not None:
            w[:V.N_WEIGHTS] = V.load_weights(init)
        e_sum = np.zeros(S.N_WEIGHTS_X)
        a_sum = np.zeros(S.N_WEIGHTS_X)
        done, curve = 0, []
    scores = np.zeros(chunk, dtype=np.int64)
    start = time.monotonic()
    while done < games:
        n = min(chunk, games - done)
        S.td_games(w, e_sum, a_sum, n, seed + done // chunk, alpha, scores[:n])
        w[V.NULL] = 0.0
        done += n
        curve.append((done, float(scores[:n].mean())))
        log(f"{(time.monotonic() - start) / 60:7.1f} min  {done:9d} games  mean {curve[-1][1]:6.2f}")
        if checkpoint is not None:
            np.savez(checkpoint, w=w, e=e_sum, a=a_sum, done=done, curve=np.array(curve))
    np.savez_compressed(out, w=w.astype(np.float32))
    return curve


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, required=True, help="train until this many games are done")
    p.add_argument("--seed", type=int, default=1000, help="chunk i draws its decks from seed + i")
    p.add_argument("--alpha", type=float, default=0.5, help="step size (temporal coherence scales it per entry)")
    p.add_argument("--chunk", type=int, default=20000, help="games between progress lines and checkpoints")
    p.add_argument("--init", type=Path, default=None, help="start from these value.py weights (weights.npz)")
    p.add_argument("--resume", type=Path, default=None, help="continue from this checkpoint")
    p.add_argument("--checkpoint", type=Path, default=None, help="write a checkpoint here after each chunk")
    p.add_argument("--out", type=Path, default=V2_FILE)
    args = p.parse_args(argv)
    train(args.games, seed=args.seed, alpha=args.alpha, chunk=args.chunk, init=args.init,
          resume=args.resume, checkpoint=args.checkpoint, out=args.out,
          log=lambda line: print(line, flush=True))
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
