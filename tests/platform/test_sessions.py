"""Sessions are kept in PostgreSQL and read from Redis (accounts/sessions.py): a signed-in
request reads no session row, and while Redis is away the session is read from PostgreSQL."""
from __future__ import annotations

import pytest
from django.core.cache.backends.redis import RedisCache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from redis.exceptions import ConnectionError as RedisConnectionError

pytestmark = pytest.mark.django_db


def session_rows_read(client, method: str, path: str):
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(path)
    return response, [q["sql"] for q in captured if q["sql"].startswith("SELECT") and '"django_session"' in q["sql"]]


def redis_away(monkeypatch) -> None:
    def away(*args, **kwargs):
        raise RedisConnectionError("Redis is away")

    for name in ("get", "set", "has_key", "delete"):
        monkeypatch.setattr(RedisCache, name, away)


def test_a_signed_in_page_reads_its_session_from_redis_or_while_redis_is_away_from_postgresql(client, make_user,
                                                                                                monkeypatch):
    client.force_login(make_user("ana"))
    response, reads = session_rows_read(client, "get", "/games/")
    assert response.status_code == 200 and reads == []  # signed in (the dashboard), from Redis
    redis_away(monkeypatch)
    response, reads = session_rows_read(client, "get", "/games/")
    assert response.status_code == 200 and len(reads) == 1  # still signed in, from PostgreSQL


def test_a_log_out_while_redis_is_away_is_refused_and_the_session_stays_whole(client, make_user, monkeypatch):
    """Its cached copy would otherwise sign the player in again once Redis is back."""
    client.force_login(make_user("ana"))
    with monkeypatch.context() as patched:
        redis_away(patched)
        response = client.post("/accounts/logout/")
        assert response.status_code == 503
    response, reads = session_rows_read(client, "get", "/games/")
    assert response.status_code == 200 and reads == []
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/games/").status_code == 302  # signed out: to the log-in page
