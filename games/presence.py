"""Who has a game's page open: a count of open sockets per game and user in the shared cache
(Redis), so every Daphne process counts together. A count that outlives a crashed process
expires with ``PRESENCE_TTL`` unless a live socket renews it."""
from __future__ import annotations

import logging

from django.core.cache import cache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

PRESENCE_TTL = 3600


def _key(game_id: int, user_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def arrive(game_id: int, user_id: int) -> None:
    key = _key(game_id, user_id)
    cache.add(key, 0, timeout=PRESENCE_TTL)
    cache.incr(key)
    cache.touch(key, PRESENCE_TTL)


def leave(game_id: int, user_id: int) -> None:
    key = _key(game_id, user_id)
    try:
        if cache.decr(key) <= 0:
            cache.delete(key)
    except ValueError:  # expired meanwhile
        pass


def connected(game_id: int, user_ids) -> set[int]:
    """Which of ``user_ids`` have the game open now."""
    ids = [user_id for user_id in user_ids if user_id]
    try:
        found = cache.get_many([_key(game_id, user_id) for user_id in ids])
    except RedisError as error:  # Redis away: the page shows nobody as connected, and still answers
        logger.warning("presence unavailable (%s)", error)
        return set()
    return {user_id for user_id in ids if (found.get(_key(game_id, user_id)) or 0) > 0}
