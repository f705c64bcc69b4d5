"""Set up Django for a benchmark on a throw-away test database (real PostgreSQL and Redis).

Run benchmarks through `make bench`, or one of them with
`.venv/bin/python -m hexsite.localservices -- .venv/bin/python benchmarks/<name>.py`.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexsite.settings")


@contextmanager
def benchmark_database(prefix: str = "test_"):
    import django

    django.setup()
    from django.db import connection

    original_name = connection.settings_dict["NAME"]  # put back at the end: a second use names its own again
    if prefix != "test_":  # a name of its own: never the test suite's database
        connection.settings_dict.setdefault("TEST", {})["NAME"] = prefix + connection.settings_dict["NAME"]

    from hexsite import dbroles

    # Not setup_test_environment(): its instrumented template rendering would skew timings.
    # Created, migrated (granting the application's role its privileges) and dropped as the
    # owner role when DATABASE_OWNER_URL is set; the benchmark itself runs as the site's role.
    with dbroles.as_owner(connection):
        name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield name
    finally:
        # Threads and processes that served sockets keep their own connections (all of the
        # site's role, which may end its own sessions): end them first.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND pid <> pg_backend_pid() AND usename = current_user")
        with dbroles.as_owner(connection):
            connection.creation.destroy_test_db(original_name, verbosity=0)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]
