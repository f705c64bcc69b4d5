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

from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)
SEND_ATTEMPTS = 2

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_loop_lock = threading.Lock()


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def _announcer_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop_pid != os.getpid():  # a forked worker needs its own thread
            _presence_due.clear()  # what the parent's loop had scheduled never runs here
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


def announce_version(game_id: int, version: int) -> None:
    _announce(game_id, {"type": "game.version", "version": version, "id": _announcement_id()})


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
    loop.call_later(PRESENCE_DELAY_SECONDS, _send_presence, game_id)


def _send_presence(game_id: int) -> None:
    _presence_due.discard(game_id)  # a change from now on schedules an announcement of its own
    asyncio.ensure_future(_group_send(group_name(game_id), {"type": "game.presence", "id": _announcement_id()}))
