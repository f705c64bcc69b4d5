"""Shared fixtures. Service and web tests run against the real PostgreSQL and Redis that
`make test` provides (DATABASE_URL / REDIS_URL); nothing here fakes them."""
from __future__ import annotations

import fcntl
import os
import random
from contextlib import contextmanager

import pytest

from tests import workers



@pytest.fixture(autouse=True, scope="session")
def _static_files_without_collectstatic(tmp_path_factory):
    """Tests run without `collectstatic`: pages name the plain static files and the servers of
    the tests find them where they lie (WhiteNoise and live_server through Django's finders).
    tests/web/test_static_files.py collects them and checks what production serves. (Servers in
    processes of their own read the settings: tests/platform/daphne_load.py collects for them.)"""
    from django.test import override_settings

    storages = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    # An empty STATIC_ROOT: never the copies an earlier `make run` collected, stale once edited.
    with override_settings(STORAGES=storages, STATIC_ROOT=tmp_path_factory.mktemp("static"), WHITENOISE_USE_FINDERS=True):
        yield


@pytest.fixture(autouse=True, scope="session")
def _toy_game():
    """The toy engine of platform tests, known to the platform but never offered."""
    from games.sites import GameSite, register

    register(GameSite(kind="toy", engine_path="tests.support.toy_engine"), offered=False)


@pytest.fixture(autouse=True, scope="session")
def _test_database_made_and_dropped_by_its_owner():
    """Tests connect as the application's role (DATABASE_URL), which may not create a
    database, migrate or drop one (hexsite/dbroles.py). pytest-django's test database is
    therefore created (and migrated, by hexsite's migrate, which then grants the application's
    role its privileges) and dropped as the owner role (DATABASE_OWNER_URL). Without
    DATABASE_OWNER_URL, DATABASE_URL's role does it all, as before. Autouse and session-wide,
    this is in place before pytest-django's django_db_setup runs and until it has ended."""
    from django.db.backends.base.creation import BaseDatabaseCreation

    from hexsite import dbroles

    create_test_db, destroy_test_db = BaseDatabaseCreation.create_test_db, BaseDatabaseCreation.destroy_test_db

    def create_as_owner(self, *args, **kwargs):
        with dbroles.as_owner(self.connection):
            return create_test_db(self, *args, **kwargs)

    def destroy_as_owner(self, *args, **kwargs):
        with dbroles.as_owner(self.connection):
            return destroy_test_db(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BaseDatabaseCreation, "create_test_db", create_as_owner)
        patch.setattr(BaseDatabaseCreation, "destroy_test_db", destroy_as_owner)
        yield


@pytest.fixture(autouse=True, scope="session")
def _flush_may_truncate_move_events():
    """Between transactional tests Django empties every table with one TRUNCATE, which the
    event store refuses (games/migrations/0009, moderation/0002), and which the application's
    role may not run at all. The flush, and only the flush, runs as the owner role on a
    connection of its own, and turns the triggers' allowance on for its own transaction (SET
    LOCAL): any other TRUNCATE in a test is refused as it would be on the site."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    from hexsite import dbroles

    sql_flush, execute_sql_flush = DatabaseOperations.sql_flush, DatabaseOperations.execute_sql_flush

    def sql_flush_allowing_truncate(self, *args, **kwargs):
        statements = sql_flush(self, *args, **kwargs)
        return ["SET LOCAL hexsite.allow_truncate = 'on';", *statements] if statements else statements

    def execute_sql_flush_as_owner(self, sql_list):
        owner = dbroles.owner_connect(self.connection)
        if owner is None:  # one role: it flushes itself
            return execute_sql_flush(self, sql_list)
        with owner, owner.cursor() as cursor:  # one transaction, committed, then closed
            for statement in sql_list:
                cursor.execute(statement)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", sql_flush_allowing_truncate)
        patch.setattr(DatabaseOperations, "execute_sql_flush", execute_sql_flush_as_owner)
        yield


@pytest.fixture(scope="session")
def django_db_setup(request, django_test_environment, django_db_blocker, django_db_keepdb, django_db_createdb,
                    tmp_path_factory):
    """pytest-django's test database, made once per run. Without pytest-xdist: as pytest-django
    makes it. Under pytest-xdist (tests/workers.py): the first worker creates and migrates the
    test database (a minute on this machine, too long to do once per worker), and each worker
    then clones it (PostgreSQL's CREATE DATABASE ... TEMPLATE, a second) as ``<name>_gwN`` and
    uses the clone; the last worker to finish drops the original. One lock file in the run's
    temporary directory, which every worker shares, puts the workers in turn."""
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases
    from pytest_django.fixtures import _get_databases_for_setup

    from hexsite import dbroles

    keepdb = django_db_keepdb and not django_db_createdb
    verbosity = request.config.option.verbose
    worker = workers.worker_id()
    if worker is None:
        aliases, serialized_aliases = _get_databases_for_setup(request.session.items)
        with django_db_blocker.unblock():
            databases = setup_databases(verbosity=verbosity, interactive=False, aliases=aliases,
                                        serialized_aliases=serialized_aliases, keepdb=keepdb)
        yield
        if not django_db_keepdb:
            with django_db_blocker.unblock():
                teardown_databases(databases, verbosity=verbosity)
        return

    shared = tmp_path_factory.getbasetemp().parent  # this run's, shared by its workers
    lock_path, made_path, done_path = (shared / f"test-database.{what}" for what in ("lock", "made", "done"))
    original_name = connection.settings_dict["NAME"]
    with django_db_blocker.unblock(), open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if made_path.exists():
                connection.settings_dict["NAME"] = made_path.read_text()
            else:
                connection.creation.create_test_db(verbosity=verbosity, autoclobber=True, serialize=False, keepdb=keepdb)
                made_path.write_text(connection.settings_dict["NAME"])
            template_name = connection.settings_dict["NAME"]
            with dbroles.as_owner(connection):  # closes this worker's connections to the template first
                # Always a fresh clone (even with --reuse-db): the template has every migration.
                connection.creation.clone_test_db(suffix=worker, verbosity=verbosity, autoclobber=True, keepdb=False)
            connection.settings_dict.update(connection.creation.get_test_db_clone_settings(worker))
            connection.close()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    yield
    if django_db_keepdb:
        return
    with django_db_blocker.unblock(), open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        connection.creation.destroy_test_db(original_name, verbosity=verbosity)  # the clone (as the owner)
        finished = int(done_path.read_text() or 0) + 1 if done_path.exists() else 1
        done_path.write_text(str(finished))
        if finished == int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")):
            connection.settings_dict["NAME"] = template_name
            connection.creation.destroy_test_db(original_name, verbosity=verbosity)


@pytest.fixture(autouse=True)
def _seeded_draws(request, monkeypatch):
    """Every draw a test makes comes from its seed (tests/workers.py; a failure names the run's
    seed): Python's ``random``, the secret seed of each game it creates (games.models: the
    shuffle, the map) and the site's bots' draws. In the test process and its threads (live
    server, Celery worker) and in the servers it forks; processes a test starts from scratch (a
    stack's workers) draw their own."""
    seed = workers.test_seed(request.node.nodeid)
    random.seed(seed)
    if _is_engine_test(request):
        yield
        return
    import secrets
    import types

    from games import models
    from games.hexland.engine import ai as hexland_ai

    draws = random.Random(seed)
    monkeypatch.setattr(models, "secrets", types.SimpleNamespace(randbits=draws.getrandbits,
                                                                 token_urlsafe=secrets.token_urlsafe))
    monkeypatch.setattr(hexland_ai, "_platform_rng", random.Random(draws.getrandbits(64)))
    yield


def _is_engine_test(request) -> bool:
    # Engine tests are pure Python: they need neither Redis nor a database.
    return "engines" in request.node.path.parts


@pytest.fixture(autouse=True)
def _default_language_after(request):
    """A request made through the test client as a German or Spanish player leaves that language
    active on the test's thread (UserLanguageMiddleware activates it; a server does so for each
    request anew): each test ends in the default language, so the next one on the same worker
    does not start in German."""
    yield
    if not _is_engine_test(request):
        from django.utils import translation

        translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_redis(request):
    """Each platform test starts with an empty Redis database (cache, rate limits, the task
    queue, channels), so nothing from an earlier test or run reaches it.

    `make test` gives the suite a Redis of its own; never point REDIS_URL at a shared one.
    """
    if _is_engine_test(request):
        yield
        return
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def make_user(django_user_model):
    counter = iter(range(1, 10_000))

    def make(username: str | None = None, **fields):
        username = username or f"player{next(counter)}"
        return django_user_model.objects.create_user(
            username=username, email=f"{username}@example.com", password="a-long-pass-phrase", **fields
        )

    return make


@pytest.fixture
def orga(make_user):
    """A league organiser: a user with the organise_leagues permission (read afresh, so its
    permission cache knows it)."""
    from django.contrib.auth.models import Permission

    user = make_user("orga")
    user.user_permissions.add(Permission.objects.get(codename="organise_leagues"))
    return type(user).objects.get(pk=user.pk)


@contextmanager
def celery_worker():
    """A real Celery worker (in a thread of this process) consuming from the Redis broker: its
    own Redis database under pytest-xdist, so it takes only this worker's tasks."""
    from celery.contrib.testing.worker import start_worker

    from hexsite.celery import QUEUES, app

    app.control.purge()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10, queues=list(QUEUES)) as worker:
        yield worker
    app.control.purge()
    _close_other_connections()


@pytest.fixture
def celery_worker_thread(transactional_db):
    with celery_worker() as worker:
        yield worker


def _close_other_connections():
    """Threads that served the test (worker, live server) leave connections open; end them so
    the test database can be dropped. They are the application role's, as this one is (a
    role may end its own sessions, not another's)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() AND usename = current_user"
        )


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own, which reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    """Browser tests last: Playwright keeps an event loop in the main thread while it runs.
    pytest-xdist (``--dist loadgroup``, `make test`) hands each worker its tests in this order,
    so in every worker too the browser tests come after the others.

    A module whose tests share a module-scoped fixture (a stack of processes, pages drawn once)
    is one xdist group: one worker makes the fixture once and runs the module. loadgroup hands
    out the largest groups first, so they do not become the run's tail. Browser tests are never
    grouped (a group would run before the ungrouped tests of its worker)."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
    for item in items:
        if _shares_a_module_fixture(item):
            assert item.get_closest_marker("e2e") is None, f"{item.nodeid}: a browser test in an xdist group"
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
            if getattr(config.option, "loadgroup", False):  # set by pytest-xdist under --dist loadgroup only
                _name_the_group(item, item.module.__name__)


def _name_the_group(item, group: str) -> None:
    """What pytest-xdist's worker does for an xdist_group mark: "@<group>" at the end of the
    test's id, which is all its loadgroup scheduler reads. pytest-xdist 3.8 writes it to
    ``item._nodeid``, which pytest 9.2 no longer reads (the id is ``item._id``), so without this
    every test of a group went to any worker and each made the module's fixture again."""
    node_id = getattr(item, "_id", None)
    if node_id is not None and not item.nodeid.endswith(f"@{group}"):
        item._id = type(node_id).parse(f"{item.nodeid}@{group}")


def _shares_a_module_fixture(item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(definitions[-1].scope == "module"
               for name, definitions in info.name2fixturedefs.items() if name in info.names_closure and definitions)
