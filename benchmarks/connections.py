"""PostgreSQL connections opened by one Daphne process under a burst of concurrent GETs.

Starts Daphne (the site's own settings, through the launcher's environment) on a free loopback
port over a throw-away test database, sends 200 GETs at once (the home page and the log-in page
anonymously; the dashboard and the Hextension lobby signed in), samples pg_stat_activity for
that database meanwhile, and prints the requests sent, the 5xx answers and the most connections
seen. Compare with the pool off: `DATABASE_POOL=0` in the environment.

    .venv/bin/python -m hexsite.localservices -- .venv/bin/python benchmarks/connections.py [--requests N]
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

from _django import benchmark_database

from tests.platform.daphne_load import (ConnectionSampler, daphne_env, fire, free_port, start_daphne,
                                        stop_daphne, with_database)

ANONYMOUS = ["/", "/accounts/login/"]
SIGNED_IN = ["/games/", "/games/hextension/"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="GETs sent, all at once (default 200)")
    args = parser.parse_args()

    with benchmark_database() as database:
        from django.conf import settings
        from django.db import connections
        from django.test import Client

        from accounts.models import User

        user = User.objects.create_user("bench-conn", email="bench-conn@example.com", password="a-long-pass-phrase")
        client = Client()
        client.force_login(user)
        cookie = f"sessionid={client.cookies['sessionid'].value}"
        for connection in connections.all():  # only Daphne's connections are counted
            connection.close()
            if hasattr(connection, "close_pool"):
                connection.close_pool()

        server_url = os.environ["DATABASE_URL"]
        paths = ANONYMOUS + SIGNED_IN
        requests = [(path, cookie if path in SIGNED_IN else None)
                    for path in (paths[i % len(paths)] for i in range(args.requests))]
        pool = settings.DATABASES["default"]["OPTIONS"].get("pool")
        port = free_port()
        log = Path(tempfile.mkdtemp(prefix="hexsite-bench-")) / "daphne.log"
        daphne = start_daphne(daphne_env(with_database(server_url, database)), port, log)
        try:
            with ConnectionSampler(server_url, database) as sampler:
                outcome = fire(f"http://127.0.0.1:{port}", requests, concurrency=args.requests)
                time.sleep(1)  # connections kept after the burst count too
        finally:
            stop_daphne(daphne)

        statuses = Counter(str(s) for s in outcome.statuses)
        print(f"one Daphne process, {args.requests} concurrent GETs "
              f"({', '.join(ANONYMOUS)} anonymous; {', '.join(SIGNED_IN)} signed in):")
        print(f"  pool: {'max_size ' + str(pool['max_size']) if pool else 'off (CONN_MAX_AGE ' + str(settings.DATABASES['default']['CONN_MAX_AGE']) + ')'}"
              f"   PostgreSQL max_connections: {_server_max_connections(server_url)}")
        print(f"  requests {len(outcome.statuses)}   5xx {outcome.server_errors}   no answer {len(outcome.failures)}   "
              f"statuses {dict(sorted(statuses.items()))}")
        print(f"  max connections seen {sampler.most}   wall time {outcome.seconds:.2f} s")
        if outcome.server_errors:
            print(f"  Daphne's log: {log}")


def _server_max_connections(server_url: str) -> str:
    import psycopg

    with psycopg.connect(server_url) as connection:
        return connection.execute("SHOW max_connections").fetchone()[0]


if __name__ == "__main__":
    main()
