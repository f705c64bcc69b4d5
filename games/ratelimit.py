"""Rate limits: a counter per (scope, key) in the shared cache (Redis), so every process and
worker counts together.

``hit(scope, key, limit, window)`` counts one request and says whether it is allowed: at most
``limit`` in a window of ``window`` seconds that opens with the first request (the counter
expires with the window). A window that opens with a request, rather than on the clock, lets no
burst straddle two windows. Chat, reports and the like can reuse it with their own scope.
"""
from __future__ import annotations

from django.conf import settings
import logging

from django.core.cache import cache
from redis.exceptions import RedisError

from games.errors import RateLimited

logger = logging.getLogger(__name__)

# Moves per user and game: a player may replace a submission in a round, but not 30 times in a
# second; no real player comes close. Settings may override it: (limit, window seconds).
MOVES = (20, 10)


def hit(scope: str, key: str, limit: int, window: int) -> bool:
    """Count one request of ``key`` in ``scope``; False once it is over ``limit`` this window."""
    name = cache.make_and_validate_key(f"ratelimit:{scope}:{key}")
    try:
        # One round trip: open a window if none is (SET NX with its expiry), then count (INCR
        # keeps the expiry), atomically. The cache's own client, so its pool and prefix.
        with cache._cache.get_client(name, write=True).pipeline(transaction=True) as pipe:
            pipe.set(name, 0, ex=window, nx=True)
            pipe.incr(name)
            _, count = pipe.execute()
        return count <= limit
    except RedisError as error:
        # While Redis is away nothing is counted: refusing every move for it would stop play,
        # and the services still check each move under the game's row lock.
        logger.warning("rate limit %s not counted: Redis unavailable (%s)", scope, error)
    return True


def check_move(user, game_id: int) -> None:
    """Refuse (``RateLimited``, 429) a move submission over the limit for this user and game."""
    limit, window = getattr(settings, "GAME_MOVE_RATE_LIMIT", MOVES)
    if not hit("move", f"{user.pk}:{game_id}", limit, window):
        raise RateLimited(retry_after=window)  # its default message, in the player's language
