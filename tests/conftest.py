"""Shared fixtures. Service and web tests run against the real PostgreSQL and Redis that
`make test` provides (DATABASE_URL / REDIS_URL); nothing here fakes them."""
from __future__ import annotations

import pytest



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


def _is_engine_test(request) -> bool:
    # Engine tests are pure Python: they need neither Redis nor a database.
    return "engines" in request.node.path.parts


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
def celery_worker_thread(transactional_db):
    """A real Celery worker (in a thread of this process) consuming from the Redis broker."""
    from celery.contrib.testing.worker import start_worker

    from hexsite.celery import QUEUES, app

    app.control.purge()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10, queues=list(QUEUES)) as worker:
        yield worker
    app.control.purge()
    _close_other_connections()


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


def pytest_collection_modifyitems(config, items):
    """Browser tests last: Playwright keeps an event loop in the main thread while it runs."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
