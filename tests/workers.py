"""What each pytest process keeps to itself, and the run's random seed (a pytest plugin, loaded
with ``-p tests.workers`` from pyproject's addopts, before pytest-django reads the settings).

pytest-xdist (``make test`` runs ``-n``) starts worker processes gw0, gw1, ... that run tests at
the same time against one PostgreSQL and one Redis. Each worker has

- its own test database: the first worker migrates ``<test database>`` once, every worker then
  clones it as ``<test database>_gwN`` (tests/conftest.py, ``django_db_setup``);
- its own Redis database, number N + 1 of the 16 a Redis has (``REDIS_URL``): the cache, the
  rate limits, presence, Celery's queues (a worker's Celery thread consumes only its own) and
  the ``FLUSHDB`` that starts each test (``_fresh_redis``) stay in it;
- its own channel-layer prefix (``CHANNELS_PREFIX``): Pub/Sub channels are not per database.

These are environment variables, set before Django reads them, so the processes a test starts
(Daphne, Celery workers, ``manage.py``) inherit them. A run without ``-n`` uses database 0.

The run's seed (``HEXSITE_TEST_SEED``, printed in the header; a fresh one each run unless set)
decides every draw a test makes: hypothesis (as ``--hypothesis-seed``), and per test, derived
from the seed and the test's id, Python's ``random``, the secret seeds of the games the test
creates and the site's bots' platform draws (tests/conftest.py, ``_seeded_draws``). A failing
test's report names the seed; ``HEXSITE_TEST_SEED=<seed> make test PYTEST_ARGS=<the test>``
draws the same again, whichever worker runs it. Hypothesis keeps no example database (the
seed is what reproduces a failure), and what else it stores (its cache of the constants in the
code) goes to ``var/hypothesis/``, not ``.hypothesis/`` in the tree.
"""
from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

SEED_VARIABLE = "HEXSITE_TEST_SEED"
VAR = Path(os.environ.get("HEXSITE_VAR_DIR") or Path(__file__).resolve().parent.parent / "var")
REDIS_DATABASES = 16  # redis-server's default `databases`


def worker_id() -> str | None:
    """``gw0``, ``gw1``, ... in a pytest-xdist worker; None in a run without ``-n``."""
    return os.environ.get("PYTEST_XDIST_WORKER")


def redis_database(worker: str | None) -> int:
    if worker is None:
        return 0
    number = int(worker.removeprefix("gw")) + 1
    if number >= REDIS_DATABASES:
        raise pytest.UsageError(f"pytest-xdist worker {worker} has no Redis database of its own "
                                f"(Redis has {REDIS_DATABASES}): run with fewer than {REDIS_DATABASES} workers")
    return number


def session_seed() -> int:
    return int(os.environ[SEED_VARIABLE])


def test_seed(nodeid: str) -> int:
    """This test's seed: the same for the same run seed, whatever ran before it and where (an
    xdist group's "@<group>" at the end of the id is left out, as a run without -n has none)."""
    at = nodeid.rfind("@")
    if at > nodeid.rfind("]"):
        nodeid = nodeid[:at]
    digest = hashlib.sha256(f"{session_seed()}:{nodeid}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # 63 bits, as a game's seed


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    # The controller draws the run's seed; its workers inherit the environment.
    os.environ.setdefault(SEED_VARIABLE, str(secrets.randbits(32)))
    os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(VAR / "hypothesis"))
    # Users are made by the thousand: a cheap password hash (hexsite/settings.py), here and in
    # the site processes tests start.
    os.environ["HEXSITE_TEST_FAST_PASSWORD_HASHING"] = "1"
    if not any(arg.startswith("--hypothesis-seed") for arg in args):
        args.append(f"--hypothesis-seed={session_seed()}")
    worker = worker_id()
    if worker is None:
        return
    redis_url = os.environ.get("REDIS_URL")
    if redis_url:
        parts = urlsplit(redis_url)
        os.environ["REDIS_URL"] = urlunsplit(parts._replace(path=f"/{redis_database(worker)}"))
    os.environ["CHANNELS_PREFIX"] = f"{os.environ.get('CHANNELS_PREFIX', 'hexsite')}-{worker}"


def pytest_configure(config):
    from hypothesis import settings

    # No example database: a failure is reproduced from the run's seed (printed), and nothing
    # is written into the working tree. print_blob: the failing example as a decorator too.
    settings.register_profile("hexsite", database=None, print_blob=True)
    settings.load_profile("hexsite")


def pytest_report_header(config):
    return [f"random seed: {SEED_VARIABLE}={session_seed()} (set it to draw the same again)"]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed:
        report.sections.append(("random seed", f"{SEED_VARIABLE}={session_seed()} draws this test's data again "
                                               f"(its own seed: {test_seed(item.nodeid)})"))
    return report
