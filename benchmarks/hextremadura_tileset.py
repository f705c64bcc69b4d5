"""Shows that the Hextremadura tile set is fair: the solver, searching a shuffle with full
knowledge, finds a perfect game (15) and a game meeting each discover quest.

    .venv/bin/python benchmarks/hextremadura_tileset.py [--seeds N | --seed S] [--width W]
                                                        [--only TARGET] [--moves] [--write]

For each target it tries seeds 0, 1, ... (at most N), or the one shuffle S, and prints the
first game found; the moves replay through the engine. ``--moves`` prints them, ``--write``
stores them in the engine's ``witnesses.json``, which the tests replay."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.hextremadura.engine as hx  # noqa: E402
from games.hextremadura.engine import ai  # noqa: E402

TARGETS = ("perfect", "garganta", "monfrague", "barruecos")


def find(target: str, seeds, width: int) -> dict | None:
    quest = None if target == "perfect" else target
    for seed in seeds:
        started = time.perf_counter()
        score, moves = ai.solve({}, seed, width=width, quest=quest)
        result = hx.result(hx.replay({}, seed, moves))  # the engine's word, not the solver's
        ok = result["perfect"] if quest is None else result["quests"][quest]
        print(f"  {target}: seed {seed}: score {result['score']}, quest met {ok if quest else '-'}, "
              f"{time.perf_counter() - started:.1f} s", flush=True)
        if ok:
            return {"seed": seed, "score": result["score"], "moves": moves}
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=12, help="seeds to try per target")
    parser.add_argument("--seed", type=int, help="search this one shuffle only")
    parser.add_argument("--moves", action="store_true", help="print the moves of the games found")
    parser.add_argument("--width", type=int, default=ai.PAR_WIDTH, help="beam width")
    parser.add_argument("--only", choices=TARGETS, action="append", help="targets (default: all)")
    parser.add_argument("--write", action="store_true", help="store the games in witnesses.json")
    args = parser.parse_args()
    found = {}
    seeds = [args.seed] if args.seed is not None else range(args.seeds)
    for target in args.only or TARGETS:
        witness = find(target, seeds, args.width)
        if witness is None:
            print(f"{target}: none found in {len(seeds)} seed(s)")
        else:
            found[target] = witness
            print(f"{target}: seed {witness['seed']}, score {witness['score']}, {len(witness['moves'])} placements")
            if args.moves:
                for move in witness["moves"]:
                    print("   ", json.dumps(move))
    if args.write and found:
        path = Path(ai.__file__).with_name("witnesses.json")
        stored = json.loads(path.read_text()) if path.exists() else {}
        stored.update(found)
        path.write_text(json.dumps(stored, indent=1) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
