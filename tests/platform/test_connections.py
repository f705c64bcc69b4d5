"""A burst of concurrent requests to one Daphne process stays within its connection pool.

Under ASGI every request runs in a thread of its own; with persistent per-thread connections,
100 concurrent GETs opened about 100 PostgreSQL connections and requests failed with "too many
clients". With the pool (DATABASE_POOL_MAX) they wait for a connection instead.
"""
from __future__ import annotations

import os

import pytest
from django.db import connection
from django.test import Client

from tests.platform.daphne_load import (ConnectionSampler, daphne_env, fire, free_port, start_daphne,
                                        stop_daphne, with_database)

pytestmark = pytest.mark.processes  # left out of `make test-fast`

POOL_MAX = 5
REQUESTS = 100


@pytest.mark.django_db(transaction=True)  # Daphne, another process, must see the user and session
def test_concurrent_requests_share_the_pool_and_none_fails(make_user, tmp_path):
    client = Client()
    client.force_login(make_user())
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    # Half anonymous pages, half signed-in pages that read the session and the user from the database.
    paths = [("/", None), ("/accounts/login/", None), ("/games/", cookie), ("/games/hextension/", cookie)]
    requests = [paths[i % len(paths)] for i in range(REQUESTS)]

    database = connection.settings_dict["NAME"]
    server_url = os.environ["DATABASE_URL"]
    env = daphne_env(with_database(server_url, database), DATABASE_POOL="1", DATABASE_POOL_MAX=str(POOL_MAX))
    port = free_port()
    daphne = start_daphne(env, port, tmp_path / "daphne.log")
    try:
        with ConnectionSampler(server_url, database) as sampler:
            outcome = fire(f"http://127.0.0.1:{port}", requests, concurrency=REQUESTS)
    finally:
        stop_daphne(daphne)

    log = (tmp_path / "daphne.log").read_text()
    assert outcome.failures == [], log
    assert outcome.server_errors == 0, log
    assert set(outcome.statuses) == {200}
    assert 0 < sampler.most <= POOL_MAX
