"""Concurrent GETs against a real Daphne process, counting the PostgreSQL connections it opens.

Shared by tests/platform/test_connections.py and benchmarks/connections.py. Nothing here
imports Django: Daphne runs in a process of its own, configured by its environment.
"""
from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = Path(sys.executable).with_name("daphne")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


_collected: str | None = None


def collected_static() -> str:
    """A STATIC_ROOT filled by `collectstatic`, as a release does: without DEBUG the pages name
    the hashed files of its manifest (hexsite/staticfiles.py). Made once per process."""
    global _collected
    if _collected is None:
        root = tempfile.mkdtemp(prefix="hexsite-static-")
        atexit.register(shutil.rmtree, root, True)
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
                       cwd=ROOT, env=dict(os.environ, STATIC_ROOT=root), check=True)
        _collected = root
    return _collected


def with_database(url: str, name: str) -> str:
    """The same server URL, pointing at another database."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def start_daphne(env: dict, port: int, log_path: Path) -> subprocess.Popen:
    log = open(log_path, "w")
    process = subprocess.Popen(
        [str(DAPHNE), "-b", "127.0.0.1", "-p", str(port), "hexsite.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Daphne exited ({process.returncode}):\n{log_path.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError(f"Daphne did not listen on port {port}:\n{log_path.read_text()}")


def stop_daphne(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# Daphne's connections carry this application name (libpq reads PGAPPNAME), so they can be
# told from those of the process that runs the load.
DAPHNE_APPLICATION_NAME = "hexsite-load-daphne"


class ConnectionSampler:
    """Counts Daphne's connections to one database every few milliseconds, in a thread."""

    def __init__(self, server_url: str, database: str, interval: float = 0.01):
        self.server_url, self.database, self.interval = server_url, database, interval
        self.samples: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def count(self, connection) -> int:
        return connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
            [self.database, DAPHNE_APPLICATION_NAME],
        ).fetchone()[0]

    def _run(self) -> None:
        with psycopg.connect(self.server_url, autocommit=True) as connection:
            while not self._stop.is_set():
                self.samples.append(self.count(connection))
                time.sleep(self.interval)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    @property
    def most(self) -> int:
        return max(self.samples, default=0)


@dataclass
class Outcome:
    statuses: list[int | str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def server_errors(self) -> int:
        return sum(1 for s in self.statuses if isinstance(s, int) and s >= 500)

    @property
    def failures(self) -> list[str]:
        """Requests that got no HTTP answer at all (refused, reset, timed out)."""
        return [s for s in self.statuses if isinstance(s, str)]


def get(url: str, cookie: str | None) -> int | str:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    # No redirects followed: a 302 is an answer, and following it would double the load.
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=60) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError as error:
        return type(error).__name__


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fire(base_url: str, requests: list[tuple[str, str | None]], concurrency: int) -> Outcome:
    """GET every (path, cookie) with at most `concurrency` in flight; the outcome keeps their order."""
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        statuses = list(pool.map(lambda item: get(base_url + item[0], item[1]), requests))
    return Outcome(statuses, time.perf_counter() - start)


def daphne_env(database_url: str, **overrides: str) -> dict:
    env = dict(os.environ)
    env["DATABASE_URL"] = database_url
    env["PGAPPNAME"] = DAPHNE_APPLICATION_NAME
    env["STATIC_ROOT"] = collected_static()
    env.update(overrides)
    return env
