"""Capacity against a floor (issue 48): the site's cost and capacity per core, each figure beside
the same figure for a bare request measured in the same run.

    make capacity                               (sets everything up; under 10 minutes)
    .venv/bin/python -m hexsite.localservices -- .venv/bin/python benchmarks/capacity.py [options]

The site runs as `make load` starts it (benchmarks/load.py's ``Site``: gunicorn pages, Daphne
sockets, Celery workers, beat; a throw-away database, a Redis of the harness's own, DEBUG off),
with ``HEXSITE_CAPACITY_FLOOR=1``, which mounts the floor (hexsite/capacity_floor.py): a bare
view behind the same server, middleware and database role that inserts one row, commits and
answers a few bytes. The floor is driven the same way as the moves (a signed-in POST with its
CSRF token), in the same phases.

The moves are Hextension submissions in ``--games`` games of ``--seats`` players, every player's
game page open (its socket connected and read). Each game prepares its round's moves (the
harness reads its state) and hands them to the phase that sends them; once the round closes it
prepares the next one. No page is read while moves or floor requests are measured.

Phases, each printed with its floor:

1. page cpu: each page kind of benchmarks/page_costs.py read one after another through the
   server; CPU per page (all the measured processes) beside the floor's CPU per request read
   the same way. ``page cpu: median N ms; floor F ms; ratio R``.
2. idle move: one move at a time (a pause between) in games whose pages are open, then the
   floor the same way. ``idle move: p50 N ms, p95 M ms; floor p50 F ms; ratio R``.
3. the curves: moves offered open-loop at each rate of ``--rates`` for ``--seconds`` each, then
   the floor likewise: achieved rate, p50/p95 and, for moves, every version shown p95 (each
   version's commit to the first frame or answer showing it, on every page of its game); a
   curve stops after a rate that fails by far. The knee is the highest rate with >= 99 %
   achieved, p95 <= 100 ms and every version shown p95 <= 250 ms.
   ``knee: N moves/s; floor F requests/s; ratio R``.
4. cpu per committed move: from the curves' step at ``--cpu-rate``: the CPU of every serving
   process, the Celery workers and beat, the site's PostgreSQL backends and Redis over the step
   (from /proc/<pid>/stat, children included) divided by the moves committed in it, beside the
   floor's per row committed; the split by process; the harness's own CPU beside, not in it.
   ``cpu per committed move: N ms; floor F ms; ratio R``.

Python's longest collector pause per process comes from the processes' own log lines
(hexsite/collector.py, ``HEXSITE_GC_LOG=1``, which the site's environment sets here as in `make load`).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

os.environ["HEXSITE_CAPACITY_FLOOR"] = "1"  # the site's processes inherit it: the floor's URL is mounted
import load  # noqa: E402  (sets DEBUG=0, plain connections for the harness, and the path to _django)
from _django import benchmark_database, percentile  # noqa: E402

ROOT = load.ROOT
MOVE_P95_LIMIT = 0.100  # the knee's limits (issue 48)
SHOWN_P95_LIMIT = 0.250
ACHIEVED_SHARE = 0.99
DRAIN_SECONDS = 15.0  # a step's requests still unanswered this long after its last send are given up
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# --- the figures (pure: tested in tests/platform/test_capacity_measures.py) -------------------


@dataclass
class Step:
    """One rate of a curve: what was offered and what came back."""

    rate: float
    offered: int
    ok: int = 0
    failed: int = 0
    seconds: float = 0.0  # first send to last answer
    latencies: list[float] = field(default_factory=list)
    shown: list[float] | None = None  # every version shown (moves only)
    late_sends: int = 0  # sends the harness started over 50 ms late (it had no move ready, or no CPU)
    committed: int = 0
    cpu: dict[str, float] = field(default_factory=dict)  # seconds of one core, by process
    harness_cpu: float = 0.0
    wall_start: float = 0.0  # epoch seconds: the commits counted are those between the two
    wall_end: float = 0.0

    @property
    def achieved(self) -> float:
        return self.ok / self.seconds if self.seconds > 0 else 0.0

    def p(self, q: float, values: list[float] | None = None) -> float:
        values = self.latencies if values is None else values
        return percentile(values, q) if values else float("nan")

    def holds(self) -> bool:
        """Within the knee's limits: the rate achieved, the answers and the pages in time."""
        return (self.achieved >= ACHIEVED_SHARE * self.rate and self.p(95) <= MOVE_P95_LIMIT
                and (self.shown is None or (bool(self.shown) and self.p(95, self.shown) <= SHOWN_P95_LIMIT)))

    def far_off(self) -> bool:
        """So far past the knee that higher rates need not be tried."""
        return self.achieved < 0.9 * self.rate or not self.latencies or self.p(95) > 1.0


def knee(steps: list[Step]) -> float:
    """The highest rate whose step holds the limits; 0 when none does."""
    return max((step.rate for step in steps if step.holds()), default=0.0)


def ratio(value: float, floor: float) -> str:
    return f"{value / floor:.2f}" if floor > 0 and value == value else "n/a"


def headline_cpu(move_ms: float, floor_ms: float) -> str:
    return f"cpu per committed move: {move_ms:.1f} ms; floor {floor_ms:.1f} ms; ratio {ratio(move_ms, floor_ms)}"


def headline_idle(moves: list[float], floors: list[float]) -> str:
    p50, p95, f50 = (percentile(moves, 50) * 1000, percentile(moves, 95) * 1000, percentile(floors, 50) * 1000)
    return f"idle move: p50 {p50:.1f} ms, p95 {p95:.1f} ms; floor p50 {f50:.1f} ms; ratio {ratio(p50, f50)}"


def headline_knee(moves: float, floor: float) -> str:
    return f"knee: {moves:.0f} moves/s; floor {floor:.0f} requests/s; ratio {ratio(moves, floor)}"


def headline_pages(page_ms: list[float], floor_ms: float) -> str:
    median = statistics.median(page_ms)
    return f"page cpu: median {median:.1f} ms; floor {floor_ms:.1f} ms; ratio {ratio(median, floor_ms)}"


def proc_ticks(pid: int) -> int | None:
    """CPU a process used so far, its waited-for children's included, in clock ticks."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
    except OSError:
        return None
    return sum(int(n) for n in fields[11:15])  # utime, stime, cutime, cstime


# --- measuring CPU by process ---------------------------------------------------------------


class CpuMeter:
    """The measured processes' CPU from /proc: each serving process, worker and beat (with their
    children), the site's PostgreSQL backends, the harness's Redis. A thread keeps each one's last
    reading (a process that ends keeps it); ``reading()`` is every one's now."""

    def __init__(self, site: load.Site, database: str, redis_pid: int):
        self.site, self.database, self.redis_pid = site, database, redis_pid
        self.names: dict[int, str] = {}
        self.last: dict[int, int] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _find(self, connection) -> None:
        # load.Site names every serving process "daphne ..."; the pages' are gunicorn's workers here.
        names = {process.pid: name.replace("daphne web-", "gunicorn web-")
                 for name, processes in self.site.groups().items() for process in processes}
        rows = connection.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
                                  [self.database, load.PGAPPNAME]).fetchall()
        names |= {pid: "postgres (site backends)" for (pid,) in rows}
        names[self.redis_pid] = "redis-server"
        with self._lock:
            self.names.update(names)

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as connection:
            self._find(connection)
            beat = 0
            while not self._stop.wait(0.5):
                beat += 1
                if beat % 4 == 0:  # new backends, pool processes
                    self._find(connection)
                self.reading()

    def reading(self) -> dict[int, int]:
        with self._lock:
            for pid in list(self.names):
                ticks = proc_ticks(pid)
                if ticks is not None:
                    self.last[pid] = ticks
            return dict(self.last)

    def used(self, before: dict[int, int], after: dict[int, int]) -> dict[str, float]:
        """Seconds of one core by process name between two readings (a process first seen after
        ``before`` counts from its start)."""
        by_name: dict[str, float] = defaultdict(float)
        for pid, ticks in after.items():
            by_name[self.names.get(pid, str(pid))] += (ticks - before.get(pid, 0)) / CLOCK_TICKS
        return dict(by_name)

    def __enter__(self):
        self._thread.start()
        time.sleep(0.2)
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def harness_seconds() -> float:
    times = os.times()
    return times.user + times.system


class Measured:
    """CPU of the measured processes and of the harness over a block."""

    def __init__(self, meter: CpuMeter):
        self.meter = meter

    def __enter__(self):
        self.before, self.harness_before = self.meter.reading(), harness_seconds()
        return self

    def __exit__(self, *exc):
        self.cpu = self.meter.used(self.before, self.meter.reading())
        self.harness = harness_seconds() - self.harness_before


# --- the moves and the floor as requests ----------------------------------------------------


def prepare_round(game_id: int) -> tuple[list[tuple[int, dict, int]], bool]:
    """The moves of the seats the game awaits in its round (each a legal placement), and whether
    the game still plays."""
    from games import state_store
    from games.hextension import engine
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.ACTIVE or not game.awaiting:
        return [], False
    state = state_store.load(game)
    moves = []
    for seat in game.awaiting:
        view = engine.view(state, seat)
        free = [cell for cell in engine.CELLS if cell not in view["seats"][seat]["board"]]
        rng = random.Random(game_id * 1000 + seat * 10 + game.version)
        moves.append((seat, {"type": "place", "placements": dict(zip(view["drawn"], rng.sample(free, len(view["drawn"]))))},
                      game.version))
    return moves, True


class MovePool:
    """Moves ready to send, from every game: each game prepares its round's moves once the last
    round closed (a lane per game), so the sender never waits on the harness's reads unless every
    game is waiting for its round to close."""

    def __init__(self, http, site: load.Site, games: dict[int, list[load.Player]]):
        self.http, self.site, self.games = http, site, games
        self.ready: list[tuple[int, int, dict, int]] = []
        self.available = asyncio.Event()
        self.pending: dict[int, int] = {}
        self.round_done: dict[int, asyncio.Event] = {g: asyncio.Event() for g in games}
        self.refused: dict[int, bool] = {}
        self.finished: set[int] = set()
        self.lanes = [asyncio.create_task(self._lane(g)) for g in games]

    async def _lane(self, game_id: int) -> None:
        while True:
            moves, playing = await asyncio.to_thread(prepare_round, game_id)
            if not playing or not moves:
                self.finished.add(game_id)
                return
            self.pending[game_id], self.refused[game_id] = len(moves), False
            self.round_done[game_id].clear()
            self.ready += [(game_id, seat, move, version) for seat, move, version in moves]
            self.available.set()
            await self.round_done[game_id].wait()
            if self.refused[game_id]:  # a refusal (none expected): this game sits the rest out
                self.finished.add(game_id)
                return

    async def primed(self) -> None:
        """Until every game has its first round's moves ready (the reads are not measured)."""
        while len(self.pending) + len(self.finished) < len(self.games):
            await asyncio.sleep(0.1)

    async def take(self) -> tuple[int, int, dict, int] | None:
        """A ready move from a game chosen at random; None when every game has finished."""
        while not self.ready:
            if len(self.finished) == len(self.games):
                return None
            self.available.clear()
            try:
                await asyncio.wait_for(self.available.wait(), 1.0)
            except asyncio.TimeoutError:
                pass
        index = random.randrange(len(self.ready))
        self.ready[index], self.ready[-1] = self.ready[-1], self.ready[index]
        return self.ready.pop()

    async def send(self, chosen: tuple[int, int, dict, int], stats: load.Stats) -> tuple[bool, float, float]:
        game_id, seat, move, version = chosen
        start = time.perf_counter()
        status = await load.post_move(self.http, self.site.base, self.games[game_id][seat], game_id, move, version,
                                      stats, "hextension")
        done = time.perf_counter()
        self.pending[game_id] -= 1
        self.refused[game_id] |= status != 200
        if self.pending[game_id] == 0:
            self.round_done[game_id].set()
        return status == 200, done - start, done

    def close(self) -> None:
        for lane in self.lanes:
            lane.cancel()


async def post_floor(http, site: load.Site, player: load.Player, stats: load.Stats) -> tuple[bool, float, float]:
    """The floor, sent as a move is: a signed-in POST with its CSRF token."""
    start = time.perf_counter()
    status = 0
    try:
        async with http.post(f"{site.base}/{_floor_path()}", data={"n": "1"},
                             headers={**player.headers, "X-CSRFToken": player.csrf, "HX-Request": "true"}) as answer:
            await answer.read()
            status = answer.status
        if status != 200:
            stats.error(f"floor: HTTP {status}")
    except Exception as error:
        stats.error(f"floor: {type(error).__name__}: {error}")
    done = time.perf_counter()
    return status == 200, done - start, done


def _floor_path() -> str:
    from hexsite import capacity_floor

    return capacity_floor.PATH


# --- phases ------------------------------------------------------------------------------------


async def open_loop(rate: float, seconds: float, next_send, meter: CpuMeter) -> Step:
    """Requests started on schedule (``rate`` a second for ``seconds``), whatever the answers do:
    ``next_send()`` gives the coroutine of the next request (None: nothing left to send)."""
    step = Step(rate=rate, offered=int(rate * seconds))
    tasks = []
    with Measured(meter) as measured:
        start = time.perf_counter()
        step.wall_start = time.time()
        for i in range(step.offered):
            due = start + i / rate
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            request = await next_send()
            if request is None:
                break
            if time.perf_counter() - due > 0.05:
                step.late_sends += 1
            tasks.append(asyncio.create_task(request))
        done, pending = await asyncio.wait(tasks, timeout=DRAIN_SECONDS) if tasks else (set(), set())
        for task in pending:
            task.cancel()
        step.wall_end = time.time()
    step.cpu, step.harness_cpu = measured.cpu, measured.harness
    last = start
    for task in done:
        ok, latency, finished = task.result()
        step.latencies.append(latency)
        step.ok += ok
        step.failed += not ok
        last = max(last, finished)
    step.failed += len(pending) + step.offered - len(tasks)
    step.seconds = max(last - start, 1e-9)
    return step


async def closed_loop(count: int, pause: float, next_send, meter: CpuMeter) -> tuple[list[float], int, Measured]:
    """``count`` requests one after another (``pause`` seconds between): latencies, answers that
    failed, and the CPU over them."""
    latencies, failed = [], 0
    with Measured(meter) as measured:
        for _ in range(count):
            request = await next_send()
            if request is None:
                break
            ok, latency, _done = await request
            latencies.append(latency)
            failed += not ok
            if pause:
                await asyncio.sleep(pause)
    return latencies, failed, measured


def committed_moves(game_ids: list[int], start: float, end: float) -> int:
    return load.committed_between(game_ids, start, end)


def committed_rows(start: float, end: float) -> int:
    from datetime import datetime, timezone

    from django.db import connection

    from hexsite import capacity_floor

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {capacity_floor.TABLE} WHERE at >= %s AND at < %s",  # noqa: S608
                       [datetime.fromtimestamp(start, timezone.utc), datetime.fromtimestamp(end, timezone.utc)])
        return cursor.fetchone()[0]


def shown_in(sockets: list[load.Socket], start: float, end: float, game_ids: list[int]) -> list[float]:
    """Every version committed in [start, end): its commit to the first frame or answer showing
    it, on every page of its game (load.every_version_shown)."""
    committed = {key: value for key, value in load.commit_times(game_ids).items() if start <= value[0] < end}
    shown = [(s.game_id, s.opened_at, {**s.arrivals, **{v: min(t, s.arrivals.get(v, t)) for v, t in s.answered.items()}})
             for s in sockets]
    return [v for values in load.every_version_shown(shown, committed, dict.fromkeys(game_ids, "hextension")).values()
            for v in values]


async def quiet(meter: "CpuMeter", share: float = 0.1, seconds: float = 120.0) -> None:
    """Until the measured processes use less than ``share`` of a core over a second (or
    ``seconds`` pass)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with Measured(meter) as measured:
            await asyncio.sleep(1.0)
        if sum(measured.cpu.values()) < share:
            return


async def settle(sockets: list[load.Socket], game_ids: list[int], seconds: float = 10.0) -> None:
    """Until every page shows its game's version (or ``seconds`` pass)."""
    versions = await asyncio.to_thread(load.db_versions, game_ids)
    await asyncio.gather(*(s.wait_version(versions[s.game_id], seconds) for s in sockets))


# --- the run ----------------------------------------------------------------------------------


def scenario(args) -> dict:
    from django.db import connection

    from games import services
    from hexsite import capacity_floor, dbroles

    with dbroles.as_owner(connection) as app_role, connection.cursor() as cursor:
        for statement in capacity_floor.create_table_sql(app_role):
            cursor.execute(statement)
    players = load.make_players(args.games * args.seats, "cp")
    games = load.hextension_games(players, args.seats)
    for game in games:
        services.start_game(game_id=game.pk)
    humans = load.make_players(2, "hl")
    # Correspondence timers (a Hexland room's clock is its preset's): the room waits for its
    # humans. With "fast" ones they timed out after 30 s, AI stand-ins took their seats and the
    # room played itself on the play workers all through the curves (1.7 ms per move counted).
    room = services.create_game(kind="hexland", config={"players": 4, "layout": "fixed", "timers": "correspondence"},
                                created_by=humans[0].user, players=[h.user for h in humans],
                                ai_seats={2: "easy", 3: "easy"}, turn_seconds=3 * 86400, join=False)
    services.start_game(game_id=room.pk)
    league = load.a_league(players[:30])
    connection.close()
    return {
        "games": {g.pk: players[i * args.seats:(i + 1) * args.seats] for i, g in enumerate(games)},
        "readers": players[:9],
        # The page kinds of benchmarks/page_costs.py (the pages `make load` reads).
        "pages": [("dashboard /games/", "/games/"), ("lobby /games/hextension/", "/games/hextension/"),
                  ("lobby /games/hexland/", "/games/hexland/"), ("hextension game page", f"/games/{games[0].pk}/"),
                  ("hexland room page", f"/games/{room.pk}/"), ("league standings", f"/games/leagues/{league.pk}/")],
    }


async def drive(args, site: load.Site, data: dict, meter: CpuMeter, errors: load.Stats) -> dict:
    import aiohttp

    report: dict = {}
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=60)) as http:
        game_ids = list(data["games"])
        stamps = await asyncio.to_thread(load.page_stamps, game_ids)
        sockets = [load.Socket(http, site.base, site.socket_base, player, game_id, errors, stamp=stamps.get(game_id))
                   for game_id, players in data["games"].items() for player in players]
        for i in range(0, len(sockets), 20):
            for result in await asyncio.gather(*(s.open() for s in sockets[i:i + 20]), return_exceptions=True):
                if isinstance(result, Exception):
                    errors.error(f"socket open: {type(result).__name__}: {result}")
        report["sockets"] = len(sockets)
        await asyncio.sleep(1.0)
        readers = data["readers"]
        floor_sender = _floor_sender(http, site, readers, errors)

        # The set-up's queued work (the games' first e-mails, the league's games) done first: it
        # would be counted as the background's and the pages'.
        await quiet(meter)
        # The background: what the measured processes use with nothing sent (beat, the workers'
        # polls, the open sockets), part of every figure below.
        with Measured(meter) as measured:
            await asyncio.sleep(3.0)
        report["background"] = {name: value / 3.0 for name, value in measured.cpu.items()}

        # 1. Pages, one after another, beside the floor read the same way.
        print("capacity: pages", flush=True)
        report["pages"] = {}
        for name, path in data["pages"]:
            for reader in readers[:2]:  # warm: templates, caches, the worker's first request
                await load.get_page(http, site.base, name, path, reader, errors)
            page_stats = load.Stats()
            turn = iter(range(10**6))

            async def page(name=name, path=path, page_stats=page_stats, turn=turn):
                start = time.perf_counter()
                took = await load.get_page(http, site.base, name, path, readers[next(turn) % len(readers)], page_stats)
                return took is not None, time.perf_counter() - start, time.perf_counter()

            latencies, failed, measured = await closed_loop(args.page_reads, 0.0, lambda page=page: _ready(page()), meter)
            errors.errors += page_stats.errors
            report["pages"][name] = (sum(measured.cpu.values()) / max(1, len(latencies)), latencies, failed,
                                     measured.cpu)
        latencies, failed, measured = await closed_loop(args.page_reads * 2, 0.0, floor_sender, meter)
        report["pages floor"] = (sum(measured.cpu.values()) / max(1, len(latencies)), latencies, failed, measured.cpu)

        # 2. Idle: one move at a time, then the floor.
        print("capacity: idle moves", flush=True)
        pool = MovePool(http, site, data["games"])
        await pool.primed()
        idle_stats = load.Stats()

        async def one_move(stats=idle_stats):
            chosen = await pool.take()
            return None if chosen is None else pool.send(chosen, stats)

        moves, failed, measured = await closed_loop(args.idle, args.pause, one_move, meter)
        report["idle moves"] = (moves, failed, measured.cpu)
        errors.errors += idle_stats.errors
        floors, failed, measured = await closed_loop(args.idle, args.pause, floor_sender, meter)
        report["idle floor"] = (floors, failed, measured.cpu)
        await settle(sockets, game_ids)

        # 3. The curves: the floor's, then the moves'.
        report["floor curve"], report["move curve"] = [], []
        for rate in args.rates:
            print(f"capacity: floor at {rate:.0f}/s", flush=True)
            step = await open_loop(rate, args.seconds, floor_sender, meter)
            step.committed = await asyncio.to_thread(committed_rows, step.wall_start, step.wall_end)
            report["floor curve"].append(step)
            await asyncio.sleep(1.0)
            if step.far_off():
                break
        for rate in args.rates:
            print(f"capacity: moves at {rate:.0f}/s", flush=True)
            step_stats = load.Stats()

            async def next_move(step_stats=step_stats):
                chosen = await pool.take()
                return None if chosen is None else pool.send(chosen, step_stats)

            step = await open_loop(rate, args.seconds, next_move, meter)
            errors.errors += step_stats.errors
            await settle(sockets, game_ids)
            step.committed = await asyncio.to_thread(committed_moves, game_ids, step.wall_start, step.wall_end)
            step.shown = await asyncio.to_thread(shown_in, sockets, step.wall_start, step.wall_end, game_ids)
            report["move curve"].append(step)
            await asyncio.sleep(1.0)
            if step.far_off() or len(pool.finished) == len(pool.games):
                break
        report["games left"] = len(pool.games) - len(pool.finished)
        pool.close()
        await asyncio.gather(*(sock.close() for sock in sockets), return_exceptions=True)
    return report


async def _ready(coroutine):
    return coroutine


def _floor_sender(http, site, readers: list[load.Player], errors: load.Stats):
    turn = iter(range(10**9))

    async def next_send():
        return post_floor(http, site, readers[next(turn) % len(readers)], errors)

    return next_send


def print_report(args, report: dict, meter: CpuMeter, load_before: str, setup: float, started: float,
                 errors: load.Stats) -> None:
    def ms(values, q):
        return f"{percentile(values, q) * 1000:7.1f}" if values else "      -"

    def split(cpu: dict[str, float], count: int) -> str:
        return ", ".join(f"{name} {1000 * value / count:.1f}" for name, value in
                         sorted(cpu.items(), key=lambda item: -item[1]) if value * 1000 / count >= 0.05)

    print()
    print(f"hexsite capacity against a floor: {args.web} gunicorn workers for the pages, 1 Daphne for the sockets, "
          f"{args.workers} Celery play workers; {os.cpu_count()} CPUs; load average before {load_before}")
    print(f"  moves: Hextension submissions in {args.games} games x {args.seats} players, {report['sockets']} pages' "
          f"sockets open; floor: POST /{_floor_path()} (insert one row, commit, a few bytes)")
    background = report["background"]
    print(f"background, nothing sent (in every figure below): {100 * sum(background.values()):.1f} % of a core: "
          + ", ".join(f"{name} {100 * value:.1f}" for name, value in sorted(background.items(), key=lambda item: -item[1])
                      if value >= 0.001))
    print()
    print("pages, read one after another through the server (CPU ms per page: every measured process):")
    page_cpu = {}
    for name, (cpu, latencies, failed, by_process) in report["pages"].items():
        page_cpu[name] = cpu * 1000
        print(f"  {name:26} cpu {cpu * 1000:6.1f} ms  wall p50 {ms(latencies, 50)} ms ({len(latencies)} reads"
              f"{f', {failed} failed' if failed else ''}): {split(by_process, max(1, len(latencies)))}")
    floor_cpu, floor_lat, _failed, floor_split = report["pages floor"]
    print(f"  {'floor':26} cpu {floor_cpu * 1000:6.1f} ms  wall p50 {ms(floor_lat, 50)} ms ({len(floor_lat)} requests): "
          f"{split(floor_split, max(1, len(floor_lat)))}")
    dearest = max(page_cpu.items(), key=lambda item: item[1])
    print(f"  dearest page: {dearest[0]} {dearest[1]:.1f} ms = {ratio(dearest[1], floor_cpu * 1000)} x the floor")
    print()
    moves, moves_failed, moves_cpu = report["idle moves"]
    floors, floors_failed, floors_cpu = report["idle floor"]
    print(f"idle, one request at a time ({args.pause * 1000:.0f} ms apart): moves p50 {ms(moves, 50)} ms  p95 {ms(moves, 95)} ms "
          f"({len(moves)}, {moves_failed} failed; cpu {1000 * sum(moves_cpu.values()) / max(1, len(moves)):.1f} ms each "
          f"with the pauses); floor p50 {ms(floors, 50)} ms  p95 {ms(floors, 95)} ms ({len(floors)}, {floors_failed} failed; "
          f"cpu {1000 * sum(floors_cpu.values()) / max(1, len(floors)):.1f} ms each)")
    print()
    for title, curve in (("moves", report["move curve"]), ("floor", report["floor curve"])):
        print(f"{title} offered open-loop, {args.seconds:.0f} s a rate (achieved; p50/p95 of the answers"
              f"{'; every version shown p95' if title == 'moves' else ''}; CPU ms per commit, the harness's beside):")
        for step in curve:
            cpu_each = 1000 * sum(step.cpu.values()) / max(1, step.committed)
            shown = f"  shown p95 {ms(step.shown, 95)} ms" if step.shown is not None else ""
            print(f"  {step.rate:5.0f}/s: achieved {step.achieved:6.1f}/s ({step.ok} ok, {step.failed} failed, "
                  f"{step.late_sends} sent late)  p50 {ms(step.latencies, 50)} ms  p95 {ms(step.latencies, 95)} ms{shown}  "
                  f"cpu {cpu_each:5.1f} ms/commit ({step.committed}), harness {1000 * step.harness_cpu / max(1, step.committed):.1f}"
                  f"  {'holds' if step.holds() else ''}")
    print(f"  (games still playing at the end: {report['games left']} of {args.games})")
    print()
    move_step = _cpu_step(report["move curve"], args.cpu_rate)
    floor_step = _cpu_step(report["floor curve"], args.cpu_rate)
    move_ms = 1000 * sum(move_step.cpu.values()) / max(1, move_step.committed) if move_step else float("nan")
    floor_ms = 1000 * sum(floor_step.cpu.values()) / max(1, floor_step.committed) if floor_step else float("nan")
    if move_step and floor_step:
        print(f"CPU by process at {move_step.rate:.0f}/s offered, ms per commit (harness beside, not in it):")
        print(f"  moves ({move_step.committed}): {split(move_step.cpu, max(1, move_step.committed))}; "
              f"harness {1000 * move_step.harness_cpu / max(1, move_step.committed):.1f}")
        print(f"  floor ({floor_step.committed}): {split(floor_step.cpu, max(1, floor_step.committed))}; "
              f"harness {1000 * floor_step.harness_cpu / max(1, floor_step.committed):.1f}")
    collector = load.collector_times(meter.site.log_dir)
    if collector:
        print("Python's collector, longest pause per process over the run (hexsite/collector.py):")
        for pid, (count, full, total, longest) in sorted(collector.items(), key=lambda item: -item[1][3]):
            print(f"  {meter.names.get(pid, 'pid')} {pid}: {longest:.1f} ms ({count} collections, {full} full, "
                  f"{total:.0f} ms in all)")
    print()
    print(f"errors: {len(errors.errors)}")
    for error in errors.errors[:10]:
        print(f"  {error}")
    print(f"wall time {time.time() - started:.0f} s (setup {setup:.0f} s)")
    print()
    print(headline_cpu(move_ms, floor_ms))
    print(headline_idle(moves or [float("nan")], floors or [float("nan")]))
    print(headline_knee(knee(report["move curve"]), knee(report["floor curve"])))
    print(headline_pages(list(page_cpu.values()), floor_cpu * 1000))
    longest = max((figures[3] for figures in collector.values()), default=float("nan"))
    print(f"collector: longest pause {longest:.0f} ms")


def _cpu_step(curve: list[Step], rate: float) -> Step | None:
    """The step at ``rate``, else the highest one run below it."""
    below = [step for step in curve if step.rate <= rate]
    return below[-1] if below else (curve[0] if curve else None)


def main() -> int:
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--web", type=int, default=2, help="gunicorn workers for the pages (default 2)")
    parser.add_argument("--workers", type=int, default=2, help="Celery play workers (default 2)")
    parser.add_argument("--games", type=int, default=100, help="Hextension games (default 100)")
    parser.add_argument("--seats", type=int, default=3, help="players per game, each with its page open (default 3)")
    parser.add_argument("--rates", default="10,25,50,75,100,150,200,300",
                        help="offered rates, a second (default 10,25,50,75,100,150,200,300)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per rate (default 10)")
    parser.add_argument("--cpu-rate", type=float, default=50.0, help="the step whose CPU per commit is the headline (default 50)")
    parser.add_argument("--idle", type=int, default=40, help="moves (and floor requests) sent one at a time (default 40)")
    parser.add_argument("--pause", type=float, default=0.1, help="seconds between the idle requests (default 0.1)")
    parser.add_argument("--page-reads", type=int, default=30, help="reads of each page kind (default 30)")
    args = parser.parse_args()
    args.rates = [float(r) for r in args.rates.split(",") if r]
    started = time.time()
    load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    log_dir = Path(os.environ.get("HEXSITE_VAR_DIR", ROOT / "var")) / "capacity"
    log_dir.mkdir(parents=True, exist_ok=True)
    redis = load.start_redis(log_dir / "redis")
    os.environ["REDIS_URL"] = redis["url"]
    errors = load.Stats()
    try:
        with benchmark_database(prefix="capacity_") as database:
            print(f"capacity: database {database}; logs in {log_dir}", flush=True)
            data = scenario(args)
            site = load.Site(database, args.web, args.workers, log_dir)
            try:
                load.wait_for_site(site)
                setup = time.time() - started
                print(f"capacity: site up after {setup:.0f} s", flush=True)
                with CpuMeter(site, database, redis["process"].pid) as meter:
                    report = asyncio.run(drive(args, site, data, meter, errors))
            finally:
                site.stop()
            print_report(args, report, meter, load_before, setup, started, errors)
    finally:
        redis["process"].terminate()
        redis["process"].wait(20)
    return 1 if errors.errors else 0


if __name__ == "__main__":
    sys.exit(main())
