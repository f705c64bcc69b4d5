"""Sessions kept in PostgreSQL and read from Redis: a signed-in request costs no database read
for its session (about a millisecond of a page's ten, docs/performance-log.md).

Django's ``cached_db`` store, which already writes through to PostgreSQL and reads it when Redis
misses, made to keep serving while Redis is away (a restart, an outage): a page then reads the
session from PostgreSQL, as before. Ending a session (a log-out, or the old one a log-in replaces)
still needs Redis: its cached copy must go too, or it would sign the player in again once Redis
is back, so during an outage that request is refused with the site's 503 and the player tries
again.
"""
from __future__ import annotations

import logging

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


class SessionStore(CachedDBStore):
    def load(self):
        try:
            data = self._cache.get(self.cache_key)
        except RedisError as error:
            logger.warning("session cache unavailable (%s); read from the database", error)
            return DBStore.load(self)
        if data is not None:
            return data
        stored = self._get_session_from_db()
        if stored is None:
            return {}
        data = self.decode(stored.session_data)
        try:
            self._cache.set(self.cache_key, data, self.get_expiry_age(expiry=stored.expire_date))
        except RedisError as error:
            logger.warning("session cache unavailable (%s); not cached", error)
        return data

    def exists(self, session_key):
        try:
            return super().exists(session_key)
        except RedisError as error:
            logger.warning("session cache unavailable (%s); asked the database", error)
            return DBStore.exists(self, session_key)
