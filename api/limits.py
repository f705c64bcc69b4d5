"""Per-token limits of the API: requests of each kind in a window (``games.ratelimit.hit``, in
the shared cache, so every process counts together), the size of a request's body, and the
streams one token holds open at once.

The pages' own limits still apply beneath these (a user's moves per game, sockets per user):
a token's limits bound what one program may ask of the site, whatever the user does elsewhere.
"""
from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

from games import ratelimit

logger = logging.getLogger(__name__)

# Requests a token may make, by kind: (limit, window seconds). A bot reading a game after each
# event of a few games at once stays well under; settings (API_RATE_LIMITS) may override each.
READ, MOVE, CREATE, SUGGEST = "read", "move", "create", "suggest"
# Suggestions (the site's AI thinking for a bot) as many as moves, counted apart: a bot that asks
# before each move keeps its whole rate of moves.
RATES = {READ: (300, 60), MOVE: (120, 60), CREATE: (10, 60), SUGGEST: (120, 60)}
# The largest body the API reads (a move with its version is well under 2 KB).
MAX_BODY_BYTES = 16 * 1024
# Streams one token may hold open: the events stream and a few games'.
STREAMS_PER_TOKEN = 8
STREAM_COUNT_TTL = 3600


class Refused(Exception):
    """A request over a limit: its status (413, 429), sentence and Retry-After (429)."""

    def __init__(self, status: int, detail: str, retry_after: int | None = None):
        super().__init__(detail)
        self.status, self.detail, self.retry_after = status, detail, retry_after


def rate(kind: str) -> tuple[int, int]:
    return {**RATES, **getattr(settings, "API_RATE_LIMITS", {})}[kind]


def check_rate(token_key: str, kind: str) -> None:
    """Count one request of ``kind`` by the token (its ``Bearer.limit_key``); Refused (429) once it is over its limit."""
    limit, window = rate(kind)
    if not ratelimit.hit(f"api-{kind}", token_key, limit, window):
        sentences = {READ: _("This token has made too many requests; wait a little."),
                     MOVE: _("This token has sent too many moves and actions; wait a little."),
                     CREATE: _("This token has opened too many games; wait a little."),
                     SUGGEST: _("This token has asked the AI for too many moves; wait a little.")}
        raise Refused(429, sentences[kind], retry_after=window)


def max_body_bytes() -> int:
    return getattr(settings, "API_MAX_BODY_BYTES", MAX_BODY_BYTES)


def check_body_size(request) -> None:
    """Refused (413) for a body over the limit, told by its Content-Length before it is read."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > max_body_bytes():
        raise body_too_large()


def body_too_large() -> Refused:
    return Refused(413, _("The request body is too large: at most %(bytes)s bytes.") % {"bytes": max_body_bytes()})


def _stream_key(token_key: str) -> str:
    return f"api-streams:{token_key}"


def open_stream(token_key: str) -> bool:
    """Count a stream of the token; False, counting nothing, when it holds the most allowed.
    A count a crashed process left expires with STREAM_COUNT_TTL; Redis away: let in uncounted
    (as games.presence)."""
    key = _stream_key(token_key)
    try:
        cache.add(key, 0, timeout=STREAM_COUNT_TTL)
        count = cache.incr(key)
        cache.touch(key, STREAM_COUNT_TTL)
    except RedisError as error:
        logger.warning("stream count of token %s unavailable (%s); let in", token_key, error)
        return True
    if count > getattr(settings, "API_STREAMS_PER_TOKEN", STREAMS_PER_TOKEN):
        close_stream(token_key)
        return False
    return True


def close_stream(token_key: str) -> None:
    try:
        if cache.decr(_stream_key(token_key)) <= 0:
            cache.delete(_stream_key(token_key))
    except (ValueError, RedisError):  # expired meanwhile, or Redis away
        pass
