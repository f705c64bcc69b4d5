"""Hextremadura figures: the solver (par) over seeded shuffles, the view-only hint player, a
random player on the same shuffles, and the engine's time per placement on an 18-tile map.

    .venv/bin/python benchmarks/hextremadura_solver.py [--games N] [--hint-games N] [--width W]

``--games 1000`` gives the full figure (about 5 s a game on one core at the default width).

    .venv/bin/python benchmarks/hextremadura_solver.py --par --games 1000 --budget 60 \
        --beam-games 100 --hint-games 20 --workers 2

prints the par table of ``docs/hextremadura.md``: the new solver (``engine/solver.py``) on
every shuffle, the old beam and the hint player on the first ones, in the same run."""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.hextremadura.engine as hx  # noqa: E402
from games.hextremadura.engine import ai, rules  # noqa: E402
from games.hextremadura.engine.tiles import BACK, TERRAIN_TILE_IDS  # noqa: E402


def _summary(scores: list[int]) -> str:
    perfect = sum(1 for s in scores if s == rules.MAX_SCORE)
    return (f"mean {statistics.mean(scores):.2f}, perfect {perfect}/{len(scores)} "
            f"({100 * perfect / len(scores):.1f}%), min {min(scores)}, max {max(scores)}")


def bench_solver(games: int, width: int) -> None:
    scores, placements, elapsed = [], 0, 0.0
    for seed in range(games):
        started = time.perf_counter()
        score, moves = ai.solve({}, seed, width=width)
        elapsed += time.perf_counter() - started
        assert hx.result(hx.replay({}, seed, moves))["score"] == score
        scores.append(score)
        placements += len(moves)
    print(f"solver (par, width {width}, full knowledge) over {games} seeded shuffles: {_summary(scores)}")
    print(f"  time per move {1000 * elapsed / placements:.0f} ms ({placements / games:.1f} placements a game)")


def bench_hints(games: int) -> None:
    scores, times = [], []
    for seed in range(games):
        state = hx.new_state({}, seed)
        while not hx.is_over(state):
            view = hx.view(state)
            started = time.perf_counter()
            move = ai.hint(view)
            times.append(time.perf_counter() - started)
            state = hx.apply(state, 0, move)
        scores.append(hx.result(state)["score"])
    print(f"hint player (view only) over {games} seeded shuffles: {_summary(scores)}")
    print(f"  time per move: mean {1000 * statistics.mean(times):.0f} ms, max {1000 * max(times):.0f} ms")


def bench_random(games: int) -> None:
    scores = []
    for seed in range(games):
        rng = random.Random(seed)
        state = hx.new_state({}, seed)
        while not hx.is_over(state):
            state = hx.apply(state, 0, rng.choice(hx.legal_moves(state, 0)))
        scores.append(hx.result(state)["score"])
    print(f"random player over the same {games} shuffles: {_summary(scores)}")


def _eighteen_tile_map(seed: int) -> rules.State:
    """17 tiles on the map, about half back up, no removal on the way; one tile left."""
    rng = random.Random(seed)
    state = hx.new_state({}, seed)
    for tid in TERRAIN_TILE_IDS:
        if rng.random() < 0.5:
            state.faces_up[tid] = BACK
    while len(state.board) < 17:
        legal = hx.legal_moves(state, 0)
        rng.shuffle(legal)
        for move in legal:
            nxt = hx.apply(state, 0, move)
            if not nxt.last_removed:
                state = nxt
                break
        else:
            raise RuntimeError("no placement without a removal")
    return state


def bench_engine() -> None:
    times, status = [], []
    for seed in range(5):
        state = _eighteen_tile_map(seed)
        for move in hx.legal_moves(state, 0):
            started = time.perf_counter()
            after = hx.apply(state, 0, move)  # place, check and make removals, end the round
            times.append(time.perf_counter() - started)
            started = time.perf_counter()
            analysis = after.board.analysis()
            rules.score(after.board, analysis)  # every objective's status
            status.append(time.perf_counter() - started)
    view_started = time.perf_counter()
    hx.view(state)
    view_time = time.perf_counter() - view_started
    print(f"engine, 18th tile onto a 17-tile map ({len(times)} placements): "
          f"apply {1e6 * statistics.mean(times):.0f} us (max {1e6 * max(times):.0f} us), "
          f"objective status {1e6 * statistics.mean(status):.0f} us, view {1000 * view_time:.1f} ms")


def _pct(values, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _row(name: str, n: int, scores, proved, times) -> str:
    found = sum(1 for x in scores if x == rules.MAX_SCORE)
    proved_txt = f"{100 * sum(proved) / n:5.1f}%" if proved is not None else "    -"
    return (f"{name:<28} {n:>5}  {100 * found / n:5.1f}%  {proved_txt}  {statistics.mean(scores):5.2f}  "
            f"{_pct(scores, 0.10):>3}  {_pct(times, 0.50):7.2f}s  {_pct(times, 0.95):7.2f}s")


def _par_job(args) -> dict:
    """One shuffle for the table: the new solver, and where asked the old beam and the hint
    player. Times are CPU seconds of this process."""
    seed, budget, old_beam, hint_player, hint_budget = args
    from games.hextremadura.engine import solver

    out: dict = {"seed": seed}
    par = solver.solve(seed, budget)
    final = hx.replay({}, seed, par.moves)
    assert hx.result(final)["score"] == par.score  # a legal game reaching its score
    out.update(score=par.score, proved=par.proved, bound=par.bound, seconds=par.seconds,
               quests=rules.quests(final.board))
    if old_beam:
        started = time.process_time()
        score, _ = ai.solve({}, seed)
        out.update(beam_score=score, beam_seconds=time.process_time() - started)
    if hint_player:
        state = hx.new_state({}, seed)
        slowest = 0.0
        while not hx.is_over(state):
            started = time.process_time()
            move = ai.hint(hx.view(state), budget_s=hint_budget)
            slowest = max(slowest, time.process_time() - started)
            state = hx.apply(state, 0, move)
        out.update(hint_score=hx.result(state)["score"], hint_slowest=slowest, hint_moves=state.turn)
    return out


def bench_par(games: int, budget: float, beam_games: int, hint_games: int, hint_budget: float, workers: int,
              out_path: str | None, first: int = 0) -> None:
    """The table of the issue: the new solver on every shuffle, the old beam and the hint
    player on the first ones, in the same run."""
    import json
    import multiprocessing
    import os

    jobs = [(seed, budget, seed < beam_games, seed < hint_games, hint_budget) for seed in range(first, first + games)]
    started = time.perf_counter()
    load_before = os.getloadavg()
    rows = []
    partial = open(out_path + ".partial", "w") if out_path else None
    with multiprocessing.Pool(workers) as pool:
        for i, row in enumerate(pool.imap_unordered(_par_job, jobs)):
            rows.append(row)
            if partial:
                partial.write(json.dumps(row) + "\n")
                partial.flush()
            if (i + 1) % 50 == 0:
                print(f"  ... {i + 1}/{games} shuffles, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    rows.sort(key=lambda r: r["seed"])
    if out_path:
        Path(out_path).write_text(json.dumps(rows))
    print(f"par table: shuffles {first}..{first + games - 1}, CPU budget {budget:g} s a shuffle (one core per process, "
          f"{workers} processes), load average {load_before[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, "
          f"{time.perf_counter() - started:.0f} s wall")
    par_table(rows, budget, hint_budget)


def par_table(rows: list[dict], budget: float, hint_budget: float) -> None:
    seeds = [r["seed"] for r in rows]
    print(f"{len(rows)} shuffles ({min(seeds)}..{max(seeds)}{'' if len(set(seeds)) == max(seeds) - min(seeds) + 1 else ', with gaps'})")
    print(f"{'':<28} {'games':>5}  {'15 found':>6} {'proved':>6}  {'mean':>5}  {'p10':>3}  {'time p50':>8}  {'time p95':>8}")
    print(_row(f"new solver (budget {budget:g} s)", len(rows), [r["score"] for r in rows], [r["proved"] for r in rows],
               [r["seconds"] for r in rows]))
    beam = [r for r in rows if "beam_score" in r]
    if beam:
        print(_row(f"old beam (width {ai.PAR_WIDTH})", len(beam), [r["beam_score"] for r in beam], None,
                   [r["beam_seconds"] for r in beam]))
        print(_row("new solver, same shuffles", len(beam), [r["score"] for r in beam], [r["proved"] for r in beam],
                   [r["seconds"] for r in beam]))
    hints = [r for r in rows if "hint_score" in r]
    if hints:
        scores = [r["hint_score"] for r in hints]
        print(f"hint player (view only, {hint_budget:g} s budget a hint) over shuffles 0..{len(hints) - 1}: "
              f"mean {statistics.mean(scores):.2f}, 15 on {100 * sum(1 for x in scores if x == 15) / len(scores):.1f}%, "
              f"slowest hint {max(r['hint_slowest'] for r in hints):.2f} s CPU; new solver's par on the same: "
              f"mean {statistics.mean(r['score'] for r in hints):.2f}")
    bounded = [r for r in rows if not r["proved"]]
    if bounded:
        print(f"unproved shuffles: {len(bounded)}, their bound: "
              + ", ".join(f"{b}: {sum(1 for r in bounded if r['bound'] == b)}" for b in sorted({r['bound'] for r in bounded})))
    print("discover quests met by the new solver's game (share of shuffles): " + ", ".join(
        f"{rules.QUEST_NAMES[q]} {100 * sum(1 for r in rows if r['quests'][q]) / len(rows):.1f}%" for q in rules.QUESTS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="seeded shuffles for the solver and the random player")
    parser.add_argument("--hint-games", type=int, default=4, help="shuffles for the hint player")
    parser.add_argument("--width", type=int, default=ai.PAR_WIDTH, help="the old solver's beam width")
    parser.add_argument("--par", action="store_true", help="the par table: new solver, old beam, hint player")
    parser.add_argument("--budget", type=float, default=60.0, help="the new solver's CPU seconds a shuffle (--par)")
    parser.add_argument("--beam-games", type=int, default=None, help="shuffles for the old beam (--par; default all)")
    parser.add_argument("--hint-budget", type=float, default=0.8, help="the hint player's seconds a hint (--par)")
    parser.add_argument("--workers", type=int, default=1, help="processes (--par)")
    parser.add_argument("--out", default=None, help="write each shuffle's figures as JSON (--par)")
    parser.add_argument("--first", type=int, default=0, help="the first shuffle (--par)")
    parser.add_argument("--summarize", nargs="*", default=None,
                        help="print the par table from the JSON lines of earlier runs (their .partial files)")
    args = parser.parse_args()
    if args.summarize is not None:
        import json

        rows = {}
        for path in args.summarize:
            for line in Path(path).read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    rows.setdefault(row["seed"], {}).update(row)
        par_table(sorted(rows.values(), key=lambda r: r["seed"]), args.budget, args.hint_budget)
        return
    if args.par:
        bench_par(args.games, args.budget, args.games if args.beam_games is None else args.beam_games,
                  args.hint_games, args.hint_budget, args.workers, args.out, args.first)
        return
    bench_engine()
    bench_random(args.games)
    bench_solver(args.games, args.width)
    if args.hint_games:
        bench_hints(args.hint_games)


if __name__ == "__main__":
    main()
