"""Who has a game's page open: a count of open sockets per game and user in the shared cache
(Redis), so every Daphne process counts together. A count that outlives a crashed process
expires with ``PRESENCE_TTL`` unless a live socket renews it."""
from __future__ import annotations

import logging

from django.core.cache import cache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

PRESENCE_TTL = 3600
# Open sockets a user may hold: on one game (a few tabs and devices), and in all (docs/deployment.md).
MAX_SOCKETS_PER_GAME = 5
MAX_SOCKETS_PER_USER = 20


def _key(game_id: int, user_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def _user_key(user_id: int) -> str:
    return f"sockets:{user_id}"


def _count_up(key: str) -> int:
    cache.add(key, 0, timeout=PRESENCE_TTL)
    count = cache.incr(key)
    cache.touch(key, PRESENCE_TTL)
    return count


def _count_down(key: str) -> None:
    try:
        if cache.decr(key) <= 0:
            cache.delete(key)
    except ValueError:  # expired meanwhile
        pass


def arrive(game_id: int, user_id: int) -> bool:
    """Count a new socket of ``user_id`` on ``game_id``; False, counting nothing, when the user
    already holds the most sockets allowed on that game or in all. Redis away (or a pooled
    connection that met its restart): the socket is let in uncounted, as pages are still served."""
    try:
        on_game = _count_up(_key(game_id, user_id))
        in_all = _count_up(_user_key(user_id))
    except RedisError as error:
        logger.warning("socket counts unavailable (%s); socket of user %s let in", error, user_id)
        return True
    if on_game > MAX_SOCKETS_PER_GAME or in_all > MAX_SOCKETS_PER_USER:
        leave(game_id, user_id)
        return False
    return True


def leave(game_id: int, user_id: int) -> None:
    try:
        _count_down(_key(game_id, user_id))
        _count_down(_user_key(user_id))
    except RedisError as error:  # the counts expire by themselves
        logger.warning("socket counts unavailable (%s)", error)


def connected(game_id: int, user_ids) -> set[int]:
    """Which of ``user_ids`` have the game open now."""
    ids = [user_id for user_id in user_ids if user_id]
    try:
        found = cache.get_many([_key(game_id, user_id) for user_id in ids])
    except RedisError as error:  # Redis away: the page shows nobody as connected, and still answers
        logger.warning("presence unavailable (%s)", error)
        return set()
    return {user_id for user_id in ids if (found.get(_key(game_id, user_id)) or 0) > 0}
