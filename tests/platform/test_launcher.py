"""Several launchers (`python -m hexsite.localservices`) in one checkout share the embedded
PostgreSQL and Redis, and none stops what another still uses.

Each test points the launchers at a temporary var directory (HEXSITE_VAR_DIR) and unsets
DATABASE_URL / REDIS_URL for them, so they start embedded services of their own and never
touch the ones `make test` runs on.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from hexsite import localservices

pytestmark = pytest.mark.processes  # left out of `make test-fast`

ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 60

# The launched commands: one holds the services until a file appears, one pings them.
HOLD = textwrap.dedent("""
    import json, os, sys, time
    from pathlib import Path
    out, stop = Path(sys.argv[1]), Path(sys.argv[2])
    # Written whole, then renamed: the test, waiting for the file, never reads it half written.
    part = out.with_suffix(".part")
    part.write_text(json.dumps({k: os.environ.get(k) for k in ("DATABASE_URL", "DATABASE_OWNER_URL", "REDIS_URL")}))
    part.replace(out)
    deadline = time.monotonic() + 120
    while not stop.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
""")
PING = textwrap.dedent("""
    import json, os, psycopg, redis
    with psycopg.connect(os.environ["DATABASE_URL"]) as connection:
        assert connection.execute("SELECT 1").fetchone() == (1,)
    assert redis.Redis.from_url(os.environ["REDIS_URL"]).ping()
    print("URLS " + json.dumps({k: os.environ.get(k) for k in ("DATABASE_URL", "DATABASE_OWNER_URL", "REDIS_URL")}))
""")


class Launchers:
    """Starts launchers on one temporary var directory; leaves nothing running behind."""

    def __init__(self, tmp_path: Path):
        self.tmp = tmp_path
        self.var = tmp_path / "var"
        self.env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_OWNER_URL", "REDIS_URL")}
        self.env["HEXSITE_VAR_DIR"] = str(self.var)
        self.started: list[subprocess.Popen] = []
        self.stop_files: list[Path] = []

    def start(self, *command: str, options=(), env=None) -> subprocess.Popen:
        log = open(self.tmp / f"launcher-{len(self.started)}.log", "w")
        process = subprocess.Popen(
            [sys.executable, "-m", "hexsite.localservices", *options, "--", *command],
            cwd=ROOT, env={**self.env, **(env or {})}, stdout=log, stderr=subprocess.STDOUT,
        )
        process.log_path = Path(log.name)
        self.started.append(process)
        return process

    def hold(self, name: str) -> tuple[subprocess.Popen, dict, Path]:
        """A launcher whose command runs until `release(stop)`; returns it and its URLs."""
        out, stop = self.tmp / f"{name}.json", self.tmp / f"{name}.stop"
        self.stop_files.append(stop)
        launcher = self.start(sys.executable, "-c", HOLD, str(out), str(stop))
        wait_for(lambda: out.exists() or launcher.poll() is not None, f"{name} to start")
        assert out.exists(), output(launcher)
        return launcher, json.loads(out.read_text()), stop

    def ping(self, options=(), env=None) -> tuple[subprocess.Popen, dict]:
        launcher = self.start(sys.executable, "-c", PING, options=options, env=env)
        launcher.wait(WAIT_SECONDS)
        assert launcher.returncode == 0, output(launcher)
        line = next(line for line in output(launcher).splitlines() if line.startswith("URLS "))
        return launcher, json.loads(line[5:])

    def state(self) -> dict:
        path = self.var / "services.json"
        return json.loads(path.read_text()) if path.exists() else {}

    def close(self) -> None:
        for stop in self.stop_files:
            stop.touch()
        for launcher in self.started:
            try:
                launcher.wait(WAIT_SECONDS)
            except subprocess.TimeoutExpired:
                launcher.kill()
        # What these launchers started and a failed test left running is stopped here.
        ours = {launcher.pid for launcher in self.started}
        for name, entry in self.state().items():
            if entry["owner"]["pid"] in ours:
                (localservices.stop_postgres if name == "postgres" else localservices.stop_redis)(entry)


@pytest.fixture
def launchers(tmp_path):
    group = Launchers(tmp_path)
    yield group
    group.close()


def output(launcher: subprocess.Popen) -> str:
    return launcher.log_path.read_text()


def wait_for(condition, what: str, seconds: float = WAIT_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def answering(urls: dict) -> dict:
    return {
        "postgres": localservices.postgres_answers(urls["DATABASE_URL"]),
        "redis": localservices.redis_answers(urls["REDIS_URL"]),
    }


def postgres_processes(var: Path) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["name", "cmdline"]):
        if process.info["name"] == "postgres" and str(var / "pgdata") in " ".join(process.info["cmdline"] or []):
            found.append(process)
    return found


def test_a_second_launcher_shares_the_services_and_the_starter_stops_them_last(launchers):
    first, urls, first_stop = launchers.hold("first")
    assert answering(urls) == {"postgres": True, "redis": True}

    # A short command beside it (make superuser beside make run) uses the same servers...
    second, second_urls = launchers.ping()
    assert second_urls == urls
    assert "using the embedded PostgreSQL of launcher pid" in output(second)
    # ...and leaves them running for the first.
    assert answering(urls) == {"postgres": True, "redis": True}
    assert first.poll() is None

    # A private Redis (make test) is another server: the shared one is neither used nor stopped.
    _, private_urls = launchers.ping(options=["--private-redis"])
    assert private_urls["REDIS_URL"] != urls["REDIS_URL"]
    assert private_urls["DATABASE_URL"] == urls["DATABASE_URL"]
    assert not localservices.redis_answers(private_urls["REDIS_URL"])
    assert answering(urls) == {"postgres": True, "redis": True}

    # The starter's command ends while another launcher still runs one: nothing stops yet.
    third, third_urls, third_stop = launchers.hold("third")
    assert third_urls == urls
    first_stop.touch()
    wait_for(lambda: "stay up until these launchers finish" in output(first), "the starter to wait")
    assert first.poll() is None
    assert answering(urls) == {"postgres": True, "redis": True}

    # The last user leaves: the starter stops what it started, and exits.
    third_stop.touch()
    assert third.wait(WAIT_SECONDS) == 0
    assert first.wait(WAIT_SECONDS) == 0, output(first)
    assert answering(urls) == {"postgres": False, "redis": False}
    assert postgres_processes(launchers.var) == []
    assert launchers.state() == {}
    assert "embedded Redis stopped" in output(first)
    assert "stopped" not in output(second) and "stopped" not in output(third)


def test_launchers_started_together_start_each_service_once(launchers):
    out = {name: launchers.tmp / f"{name}.json" for name in ("one", "two")}
    stops = {name: launchers.tmp / f"{name}.stop" for name in out}
    launchers.stop_files += stops.values()
    started = {name: launchers.start(sys.executable, "-c", HOLD, str(out[name]), str(stops[name])) for name in out}
    wait_for(lambda: all(path.exists() for path in out.values()), "both launchers to run their commands")
    assert json.loads(out["one"].read_text()) == json.loads(out["two"].read_text())
    logs = [output(launcher) for launcher in started.values()]
    assert sum("embedded PostgreSQL started" in log for log in logs) == 1
    assert sum("embedded Redis started" in log for log in logs) == 1
    assert len(postgres_processes(launchers.var)) >= 1


def test_services_left_by_a_killed_launcher_are_taken_over_and_stopped(launchers):
    first, urls, first_stop = launchers.hold("first")
    first.send_signal(signal.SIGKILL)
    first.wait(WAIT_SECONDS)
    first_stop.touch()  # its command outlives it; let it end
    assert answering(urls) == {"postgres": True, "redis": True}

    second, second_urls = launchers.ping()
    assert second_urls == urls
    assert "took over the embedded PostgreSQL" in output(second)
    assert "took over the embedded Redis" in output(second)
    assert answering(urls) == {"postgres": False, "redis": False}
    assert postgres_processes(launchers.var) == []
    assert launchers.state() == {}


def test_a_launcher_refuses_when_the_owner_lives_but_its_service_does_not_answer(launchers, tmp_path):
    launchers.var.mkdir()
    dead_url = f"redis://127.0.0.1:{localservices.free_port()}/0"
    me = localservices.launcher_record(os.getpid(), ["pytest"])  # a live owner: this process
    (launchers.var / "services.json").write_text(json.dumps(
        {"redis": {"url": dead_url, "pid": 0, "started": 0.0, "owner": me, "clients": []}}
    ))
    marker = tmp_path / "ran"
    launcher = launchers.start(sys.executable, "-c", f"open({str(marker)!r}, 'w')",
                               env={"DATABASE_URL": "postgresql://unused/unused"})
    assert launcher.wait(WAIT_SECONDS) == 1
    assert "refusing to start" in output(launcher) and dead_url in output(launcher)
    assert not marker.exists()
    # The service it refused to use is still recorded as the owner's: nobody else may stop it.
    assert launchers.state()["redis"]["owner"]["pid"] == os.getpid()


def test_the_embedded_postgresql_has_an_owner_role_and_an_application_role(launchers):
    """make run, make test and make load connect as hexsite_app and migrate as hexsite_owner
    (hexsite/dbroles.py); what an earlier launcher made as the superuser is handed over."""
    import psycopg

    first, urls, first_stop = launchers.hold("first")
    roles = "SELECT current_user, rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = current_user"
    with psycopg.connect(urls["DATABASE_URL"]) as app:
        assert app.execute(roles).fetchone() == ("hexsite_app", False, False, False)
        assert app.execute("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()"
                           ).fetchone() == ("hexsite_owner",)
        assert app.execute("SELECT has_schema_privilege('public', 'CREATE')").fetchone() == (False,)
    with psycopg.connect(urls["DATABASE_OWNER_URL"]) as owner:
        assert owner.execute(roles).fetchone() == ("hexsite_owner", False, True, False)
    # A launcher beside it gets both URLs.
    _, second_urls = launchers.ping()
    assert second_urls == urls

    # Tables, sequences and functions a launcher of before made as the superuser...
    superuser_url = urls["DATABASE_URL"].replace("hexsite_app", "postgres", 1)
    with psycopg.connect(superuser_url) as admin:
        admin.execute("CREATE TABLE old_table (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY)")
        admin.execute("CREATE SEQUENCE old_sequence")
        admin.execute("CREATE VIEW old_view AS SELECT id FROM old_table")
        admin.execute("CREATE FUNCTION old_function() RETURNS trigger AS $$ BEGIN RETURN NULL; END $$ LANGUAGE plpgsql")
    first_stop.touch()
    assert first.wait(WAIT_SECONDS) == 0, output(first)
    # ...are the owner's once a launcher starts the server again.
    _, again = launchers.ping()
    assert again["DATABASE_OWNER_URL"].startswith("postgresql://hexsite_owner")
    launcher, held, stop = launchers.hold("again")
    with psycopg.connect(held["DATABASE_OWNER_URL"]) as owner:
        owners = owner.execute(
            "SELECT c.relname, pg_get_userbyid(c.relowner) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' UNION ALL SELECT p.proname, pg_get_userbyid(p.proowner) FROM pg_proc p "
            "JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'").fetchall()
    assert {name for name, _ in owners} >= {"old_table", "old_table_id_seq", "old_table_pkey", "old_sequence",
                                            "old_view", "old_function"}
    assert {role for _, role in owners} == {"hexsite_owner"}
    stop.touch()
    assert launcher.wait(WAIT_SECONDS) == 0
