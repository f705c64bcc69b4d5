"""Announcing new versions to a game's channel group. Pushes are hints; the database is the truth.

The announcement is handed to one event loop per process, running in a background thread,
so a request or task never waits on Redis for it.
"""
from __future__ import annotations

import asyncio
import logging
import os
import threading
import uuid
from contextlib import contextmanager
from contextvars import ContextVar

from channels.layers import get_channel_layer
from django.conf import settings

logger = logging.getLogger(__name__)
SEND_ATTEMPTS = 2

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_loop_lock = threading.Lock()


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def user_group_name(user_id: int) -> str:
    """One user's group: what concerns them and no game's page (an invitation)."""
    return f"user-{user_id}"


def _announcer_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop_pid != os.getpid():  # a forked worker needs its own thread
            # What the parent's loop had scheduled never runs here.
            _presence_due.clear()
            _version_due.clear()
            _version_sent.clear()
            _sending.clear()
            _loop = asyncio.new_event_loop()
            _loop_pid = os.getpid()
            threading.Thread(target=_loop.run_forever, name="game-announcer", daemon=True).start()
        return _loop


async def _group_send(group: str, message: dict) -> None:
    """Send, once more if it fails: after a Redis restart the first command on each pooled
    connection meets the closed socket (the retry gets a fresh one). Still failing (Redis is
    away), the announcement is dropped and logged: open pages catch up when they reconnect."""
    for attempt in range(1, SEND_ATTEMPTS + 1):
        try:
            await get_channel_layer().group_send(group, message)
            return
        except Exception as error:  # redis errors, OSError: whatever it is, never the caller's
            if attempt == SEND_ATTEMPTS:
                logger.warning("announcement %s to %s dropped: %s: %s", message.get("type"), group,
                               type(error).__name__, error)


def _announce(game_id: int, message: dict) -> None:
    asyncio.run_coroutine_threadsafe(_group_send(group_name(game_id), message), _announcer_loop())


def _announcement_id() -> str:
    """Names one announcement, so that the sockets of one process that receive it can share one
    read of the game (``games.consumers``) instead of each reading it again."""
    return uuid.uuid4().hex


# A process announces one game's versions at most once in this long. A version committed sooner
# after the last announcement goes out when the interval ends, together with any later one (an
# announcement is only a hint to read the game again). A version after a quiet spell goes at once.
# In a 100-seat round where every seat moves at once and all submit within seconds, every
# submission was an announcement that each of the 100 sockets answered with a read and a
# drawing; now a socket answers a few a second, whatever the number of seats.
VERSION_INTERVAL_SECONDS = getattr(settings, "LIVE_VERSION_INTERVAL_SECONDS", 0.2)
_version_sent: dict[int, float] = {}  # game → when (the loop's clock) its last version went out
# game → the latest version waiting for its interval to end, and the pages answered meanwhile
_version_due: dict[int, tuple[int, dict[str, int]]] = {}


_answering: ContextVar[str | None] = ContextVar("answering_page", default=None)


@contextmanager
def answered_over_http(page: str | None):
    """Within this block, the versions a write announces are also answered over HTTP to the live
    page named ``page`` (the htmx request that made the write gets every region at its version):
    the announcement says so, and that page's socket need not send them again
    (``games.consumers.catch_up``)."""
    token = _answering.set(page)
    try:
        yield
    finally:
        _answering.reset(token)


def announce_version(game_id: int, version: int) -> None:
    loop = _announcer_loop()
    loop.call_soon_threadsafe(_schedule_version, loop, game_id, version, _answering.get())


def _schedule_version(loop: asyncio.AbstractEventLoop, game_id: int, version: int, page: str | None) -> None:
    answered = {page: version} if page else {}
    if game_id in _version_due:  # already waiting: it will say this version, or a later one
        due_version, due_answered = _version_due[game_id]
        _version_due[game_id] = (max(due_version, version), {**due_answered, **answered})
        return
    wait = _version_sent.get(game_id, float("-inf")) + VERSION_INTERVAL_SECONDS - loop.time()
    if wait <= 0:
        _send_version(loop, game_id, version, answered)
    else:
        _version_due[game_id] = (version, answered)
        loop.call_later(wait, _send_due_version, loop, game_id)


def _send_due_version(loop: asyncio.AbstractEventLoop, game_id: int) -> None:
    _send_version(loop, game_id, *_version_due.pop(game_id))


def _send_version(loop: asyncio.AbstractEventLoop, game_id: int, version: int, answered: dict[str, int]) -> None:
    now = loop.time()
    _version_sent[game_id] = now
    if len(_version_sent) > 1024:  # forget games whose interval is over: they would go at once anyway
        for quiet in [g for g, sent in _version_sent.items() if now - sent >= VERSION_INTERVAL_SECONDS]:
            del _version_sent[quiet]
    message = {"type": "game.version", "version": version, "id": _announcement_id()}
    if answered:
        message["answered"] = answered  # live page → the version its own request was answered at
    _send_soon(loop, game_id, message)


_sending: set[asyncio.Task] = set()  # the loop keeps only weak references to its tasks


def _send_soon(loop: asyncio.AbstractEventLoop, game_id: int, message: dict) -> None:
    task = loop.create_task(_group_send(group_name(game_id), message))
    _sending.add(task)
    task.add_done_callback(_sending.discard)


def announce_invitation(user_id: int, invitation_id: int) -> None:
    """An invitation was sent to the user: their open events streams read their invitations."""
    _announce_to_user(user_id, {"type": "user.invitation", "invitation_id": invitation_id})


def announce_seat_taken(user_id: int, game_id: int) -> None:
    """The user took a seat (an invitation accepted): their open events streams follow the game
    at once, before it may have started and ended."""
    _announce_to_user(user_id, {"type": "user.seated", "game_id": game_id})


def announce_tokens_revoked(user_id: int) -> None:
    """One of the user's API tokens (or an app's) was revoked: each of their open streams asks
    whether its own still works, and ends if not, at once rather than on its next beat."""
    _announce_to_user(user_id, {"type": "user.tokens_revoked"})


def _announce_to_user(user_id: int, message: dict) -> None:
    asyncio.run_coroutine_threadsafe(_group_send(user_group_name(user_id), message), _announcer_loop())


def announce_chat(game_id: int, message_id: int) -> None:
    """A chat message was posted or hidden: each socket sends its user the game's chat."""
    _announce(game_id, {"type": "game.chat", "message_id": message_id})


# Arrivals and departures within this long of the first are announced together: when a hundred
# players open a game's page, each of its sockets draws who is connected a few times, not a
# hundred (each list naming a hundred players).
PRESENCE_DELAY_SECONDS = 1.0
_presence_due: set[int] = set()  # games with a presence announcement scheduled (the announcer loop's own)


def announce_presence(game_id: int) -> None:
    """Someone opened or closed the game's page: each socket refreshes who is connected, once
    ``PRESENCE_DELAY_SECONDS`` have passed (the sockets read the counts when it arrives, so it
    covers every arrival and departure before it)."""
    loop = _announcer_loop()
    loop.call_soon_threadsafe(_schedule_presence, loop, game_id)


def _schedule_presence(loop: asyncio.AbstractEventLoop, game_id: int) -> None:
    if game_id in _presence_due:
        return
    _presence_due.add(game_id)
    loop.call_later(PRESENCE_DELAY_SECONDS, _send_presence, loop, game_id)


def _send_presence(loop: asyncio.AbstractEventLoop, game_id: int) -> None:
    _presence_due.discard(game_id)  # a change from now on schedules an announcement of its own
    _send_soon(loop, game_id, {"type": "game.presence", "id": _announcement_id()})
