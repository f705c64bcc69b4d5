"""Browser tests: Playwright driving Debian's Chromium, installed here when missing."""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import threading
import traceback
from pathlib import Path

import pytest

from tests.e2e.checks import ContextFactory, PageChecks

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def ensure_chromium() -> None:
    """Install Debian's Chromium when missing. The pytest-xdist workers all ask at once: one
    installs while the others wait on a file lock (and apt-get waits on dpkg's own lock for any
    other apt-get on the machine) instead of failing on it."""
    if os.path.exists(CHROMIUM):
        return
    if shutil.which("apt-get") is None:
        pytest.fail("Chromium is missing and apt-get is not available to install it.")
    lock_path = Path(os.environ.get("HEXSITE_VAR_DIR") or Path(__file__).resolve().parents[2] / "var") / "chromium-install.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(CHROMIUM):  # another worker installed it meanwhile
            return
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        wait_for_dpkg = ["-o", "DPkg::Lock::Timeout=600"]
        subprocess.run(["apt-get", *wait_for_dpkg, "update"], check=True, env=env, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", *wait_for_dpkg, "install", "-y", "chromium"], check=True, env=env,
                       stdout=subprocess.DEVNULL)


@pytest.fixture(scope="session")
def browser():
    ensure_chromium()
    # Playwright's sync API runs an event loop in this thread; Django must allow sync DB calls.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        yield ContextFactory(browser)
        browser.close()


@pytest.fixture(autouse=True)
def page_checks(request):
    """The checks of tests/e2e/checks.py on every page this test opens; its contexts are closed
    at the end (before its server stops)."""
    if "browser" not in request.fixturenames:
        yield None
        return
    factory = request.getfixturevalue("browser")
    factory.checks = checks = PageChecks()
    checks.sockets_served = "live_server" not in request.fixturenames
    yield checks
    checks.close()
    factory.checks = None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Right after a browser test's body: fail it on what its pages reported."""
    result = yield
    checks = item.funcargs.get("page_checks")
    if checks is not None:
        problems = checks.finish()
        if problems:
            pytest.fail("The pages had problems:\n  " + "\n  ".join(problems), pytrace=False)
    return result


# A browser test that timed out waiting for the page runs once more (pytest-rerunfailures marks
# it RERUN in the summary): two CI runs in ~40 had a sign-up POST of
# tests/e2e/test_hextremadura_daily.py go unanswered, twice in a row in the second (the next
# tests passed; that test now comes signed in). The report of each
# timeout carries what the test process was doing (its busy threads), what the page showed, and
# the database's sessions, so a stall that happens again shows where the server waited.
BROWSER_TIMEOUT_RERUNS = 1

# A thread whose innermost frame is one of these is waiting for work, not doing any.
IDLE_FRAMES = ("readline", "readinto", "select", "poll", "wait", "get", "accept", "_worker", "run_forever", "_do_waitpid")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("e2e") is not None and "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.flaky(reruns=BROWSER_TIMEOUT_RERUNS, only_rerun=["TimeoutError"]))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and call.excinfo is not None and call.excinfo.typename == "TimeoutError":
        for title, describe in (("busy threads of the test process when the browser timed out", _busy_threads),
                                ("the pages of the test", lambda: _pages_shown(item)),
                                ("the test database's sessions", _database_sessions)):
            try:
                report.sections.append((title, describe()))
            except Exception as error:  # a report that cannot be written must not end the run
                report.sections.append((title, f"(not written: {error!r})"))
    return report


def _busy_threads() -> str:
    frames = sys._current_frames()
    stacks, idle = [], []
    for thread in threading.enumerate():
        frame = frames.get(thread.ident)
        if frame is None or thread is threading.current_thread():
            continue
        if frame.f_code.co_name in IDLE_FRAMES:
            idle.append(f"{thread.name} ({frame.f_code.co_name})")
        else:
            stacks.append(f"--- thread {thread.name}\n" + "".join(traceback.format_stack(frame)[-12:]))
    return "\n".join(stacks) + "\nidle: " + ", ".join(idle)


def _pages_shown(item) -> str:
    lines = []
    factory = item.funcargs.get("browser")
    pages = list(getattr(getattr(factory, "checks", None), "pages", ()) or ())
    if item.funcargs.get("page") is not None and item.funcargs["page"] not in pages:
        pages.append(item.funcargs["page"])
    for page in pages:
        try:
            text = " ".join(page.locator("body").inner_text(timeout=2_000).split())[:600]
            lines.append(f"{page.url}: {page.title()!r}: {text}")
        except Exception as error:  # a closed page or a page still loading
            lines.append(f"{page.url}: ({type(error).__name__})")
    return "\n".join(lines) or "(none)"


def _database_sessions() -> str:
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid, usename, state, wait_event_type, wait_event, now() - xact_start, left(query, 160) "
                "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            rows = cursor.fetchall()
    except Exception as error:
        return f"(not read: {error})"
    return "\n".join(" | ".join(str(value) for value in row) for row in rows) or "(none)"


@pytest.fixture(params=["desktop", "phone"])
def viewport(request) -> str:
    return request.param


@pytest.fixture
def page(browser, viewport):
    """A page at desktop width, and again at phone width (390 px)."""
    page = browser.new_context(viewport).new_page()
    page.set_default_timeout(15_000)
    yield page


def _asgi_application():
    from hexsite.asgi import application

    return application


def _forget_the_parents_connections():
    """In the forked server: the parent's database connections, psycopg's pool and channel
    layers (bound to event loops of earlier socket tests) are not the child's to use, and
    asgiref's one thread for sync code did not survive the fork (its executor would wait for it
    for ever): the child makes its own."""
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync
    from channels.layers import channel_layers
    from django.db import connections
    from django.db.backends.postgresql.base import DatabaseWrapper

    for connection in connections.all(initialized_only=True):
        connection.connection = None
    DatabaseWrapper._connection_pools = {}
    channel_layers.backends = {}
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)


@pytest.fixture
def asgi_live_server(transactional_db):
    """The whole site served by Daphne (HTTP and the game sockets, unlike ``live_server``) in a
    child process on the test database; yields its base URL."""
    from daphne.testing import DaphneProcess

    from tests.conftest import _close_other_connections

    server = DaphneProcess("localhost", _asgi_application, setup=_forget_the_parents_connections)
    server.daemon = True  # ends with the test run
    server.start()
    while not server.ready.wait(timeout=1):
        if not server.is_alive():
            pytest.fail("The Daphne test server stopped before it was ready.")
    yield f"http://localhost:{server.port.value}"
    server.terminate()
    server.join()
    _close_other_connections()


def log_in(context, base_url: str, user) -> None:
    """Give a browser context the session of ``user`` (no need to go through the log-in page)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": base_url}])
