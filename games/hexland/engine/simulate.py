"""Play bot games and print win rates, average turns and games per second.

    python -m games.hexland.engine.simulate --games 200 --bots random,weighted,random,weighted

The number of bots is the number of players (2-4).  Seats are rotated between games, and
the turn order inside a game is the engine's own random one.
"""
from __future__ import annotations

import argparse
import random
import time

from games.hexland import engine as hexland
from games.hexland.engine import ai

MAX_TURNS = 2000


def next_actor(state) -> int:
    """The seat to ask next: answers and discards before the active player."""
    acts = hexland.actors(state)
    others = acts - {state.cur}
    return min(others) if others else state.cur


def play(levels: list, seed, rng: random.Random, max_turns: int = MAX_TURNS):
    """One game between bots of ``levels`` (by seat); returns (final state, decisions)."""
    state = hexland.new_state({"players": len(levels)}, seed)
    decisions = 0
    while not hexland.is_over(state) and state.turn <= max_turns:
        seat = next_actor(state)
        move = ai.decide(hexland.view(state, seat, log_tail=0), levels[seat], rng)
        state = hexland.apply(state, seat, move)
        decisions += 1
    return state, decisions


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--bots", default="random,random,random,random",
                    help="comma-separated levels, one per player: " + ", ".join(ai.LEVELS))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    bots = args.bots.split(",")
    if not 2 <= len(bots) <= 4 or any(b not in ai.LEVELS for b in bots):
        ap.error(f"--bots takes 2 to 4 of: {', '.join(ai.LEVELS)}")
    rng = random.Random(args.seed)
    wins = [0] * len(bots)          # by bot position in --bots
    unfinished = turns = decisions = 0
    start = time.perf_counter()
    for i in range(args.games):
        shift = i % len(bots)       # rotate seats so no bot always sits in seat 0
        levels = bots[shift:] + bots[:shift]
        state, d = play(levels, f"sim-{args.seed}-{i}", rng)
        decisions += d
        turns += state.turn
        if hexland.is_over(state):
            wins[(state.winner + shift) % len(bots)] += 1
        else:
            unfinished += 1
    elapsed = time.perf_counter() - start
    print(f"{args.games} games, {len(bots)} players, {elapsed:.1f} s")
    for k, bot in enumerate(bots):
        print(f"  bot {k + 1} ({bot:8s}): {wins[k]:5d} wins  {100 * wins[k] / args.games:5.1f}%")
    if unfinished:
        print(f"  unfinished after {MAX_TURNS} turns: {unfinished}")
    print(f"average turns: {turns / args.games:.1f}")
    print(f"games per second: {args.games / elapsed:.2f}  "
          f"(decisions per second: {decisions / elapsed:.0f})")


if __name__ == "__main__":
    main()
