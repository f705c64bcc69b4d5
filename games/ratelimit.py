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
    name = f"ratelimit:{scope}:{key}"
    try:
        for _ in range(2):
            cache.add(name, 0, timeout=window)  # opens a window; a no-op while one is open
            try:
                return cache.incr(name) <= limit  # atomic in Redis, and it keeps the window's expiry
            except ValueError:  # the window closed between the two calls: open the next one
                continue
    except RedisError as error:
        # While Redis is away nothing is counted: refusing every move for it would stop play,
        # and the services still check each move under the game's row lock.
        logger.warning("rate limit %s not counted: Redis unavailable (%s)", scope, error)
    return True


def check_move(user, game_id: int) -> None:
    """Refuse (``RateLimited``, 429) a move submission over the limit for this user and game."""
    limit, window = getattr(settings, "GAME_MOVE_RATE_LIMIT", MOVES)
    if not hit("move", f"{user.pk}:{game_id}", limit, window):
        raise RateLimited("You are sending moves too fast; wait a few seconds.", retry_after=window)
