"""Hexland engine speed, and the same measure for Catanatron in the same process and run.

    .venv/bin/python benchmarks/hexland_engine.py [--games 100] [--seed 1]

Each side plays 4-player games of random legal moves (no player-to-player offers).  A decision
is: list the legal moves, pick one at random, apply it.  Ours uses the engine protocol
(``legal_moves`` + ``apply``, which copies the state: the input is never mutated); Catanatron
runs its own loop (``Game.play_tick`` with ``RandomPlayer``: the playable actions it keeps up
to date, a random pick, ``execute``, which validates and mutates in place).

The ``weighted`` bot line measures the bots' full path: ``view`` for the acting seat (with its
legal moves, no log), ``ai.decide``, ``apply``.

Catanatron is needed only here:  .venv/bin/pip install catanatron
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.hexland import engine as hexland  # noqa: E402
from games.hexland.engine import ai  # noqa: E402
from games.hexland.engine.simulate import next_actor  # noqa: E402

MAX_TURNS = 1000     # Catanatron's own TURNS_LIMIT; games past it count as unfinished


def ours_random(seeds, rng: random.Random):
    legal_moves, apply, is_over = hexland.legal_moves, hexland.apply, hexland.is_over
    decisions = unfinished = 0
    start = time.perf_counter()
    for seed in seeds:
        s = hexland.new_state({"players": 4}, seed)
        while not is_over(s) and s.turn <= MAX_TURNS:
            seat = next_actor(s)
            s = apply(s, seat, rng.choice(legal_moves(s, seat, offers=False)))
            decisions += 1
        unfinished += not is_over(s)
    return time.perf_counter() - start, decisions, unfinished


def ours_weighted(seeds, rng: random.Random):
    decisions = unfinished = 0
    start = time.perf_counter()
    for seed in seeds:
        s = hexland.new_state({"players": 4}, seed)
        while not hexland.is_over(s) and s.turn <= MAX_TURNS:
            seat = next_actor(s)
            move = ai.decide(hexland.view(s, seat, log_tail=0), "weighted", rng)
            s = hexland.apply(s, seat, move)
            decisions += 1
        unfinished += not hexland.is_over(s)
    return time.perf_counter() - start, decisions, unfinished


def catanatron_games(seeds, weighted: bool = False):
    from catanatron.game import Game
    from catanatron.models.player import Color, RandomPlayer
    from catanatron.players.weighted_random import WeightedRandomPlayer

    player = WeightedRandomPlayer if weighted else RandomPlayer
    colors = [Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE]
    decisions = unfinished = 0
    start = time.perf_counter()
    for seed in seeds:
        game = Game([player(c) for c in colors], seed=seed + 1)
        while game.winning_color() is None and game.state.num_turns < MAX_TURNS:
            game.play_tick()
            decisions += 1
        unfinished += game.winning_color() is None
    return time.perf_counter() - start, decisions, unfinished


def report(name: str, games: int, totals) -> float:
    elapsed, decisions, unfinished = totals
    rate = decisions / elapsed
    note = f"  ({unfinished} unfinished)" if unfinished else ""
    print(f"{name:28s} {games / elapsed:9.1f} games/s  {decisions / games:8.0f} decisions/game"
          f"  {rate:10.0f} decisions/s{note}")
    return rate


def main() -> None:
    ap = argparse.ArgumentParser(description="Hexland engine vs Catanatron: random games")
    ap.add_argument("--games", type=int, default=100, help="games per engine and player kind")
    ap.add_argument("--rounds", type=int, default=10,
                    help="the engines take turns in this many rounds, so that a busy machine "
                         "slows both alike")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    try:
        import catanatron  # noqa: F401
        have_peer = True
    except ImportError:
        have_peer = False
    rng = random.Random(args.seed)
    runs = {"hexland random": lambda seeds: ours_random(seeds, rng),
            "hexland weighted bot (view)": lambda seeds: ours_weighted(seeds, rng)}
    if have_peer:
        runs["catanatron random"] = catanatron_games
        runs["catanatron weighted"] = lambda seeds: catanatron_games(seeds, weighted=True)
    totals = {name: [0.0, 0, 0] for name in runs}
    rounds = max(1, min(args.rounds, args.games))
    for r in range(rounds):
        seeds = range(args.seed * 100_000 + r * args.games // rounds,
                      args.seed * 100_000 + (r + 1) * args.games // rounds)
        for name, run in runs.items():
            for i, v in enumerate(run(seeds)):
                totals[name][i] += v
    print(f"{args.games} four-player games each, random legal moves, no player offers "
          f"({rounds} interleaved rounds)")
    rates = {name: report(name, args.games, t) for name, t in totals.items()}
    if not have_peer:
        print("catanatron is not installed: .venv/bin/pip install catanatron  "
              "(only our figures above)")
        return
    print(f"ratio random:   hexland / catanatron = "
          f"{rates['hexland random'] / rates['catanatron random']:.2f}x decisions per second")
    print(f"ratio weighted: hexland / catanatron = "
          f"{rates['hexland weighted bot (view)'] / rates['catanatron weighted']:.2f}x "
          "decisions per second")


if __name__ == "__main__":
    main()
