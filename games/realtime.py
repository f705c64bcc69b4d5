"""Announcing new versions to a game's channel group. Pushes are hints; the database is the truth.

The announcement is handed to one event loop per process, running in a background thread,
so a request or task never waits on Redis for it.
"""
from __future__ import annotations

import asyncio
import os
import threading

from channels.layers import get_channel_layer

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_loop_lock = threading.Lock()


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def _announcer_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop_pid != os.getpid():  # a forked worker needs its own thread
            _loop = asyncio.new_event_loop()
            _loop_pid = os.getpid()
            threading.Thread(target=_loop.run_forever, name="game-announcer", daemon=True).start()
        return _loop


def announce_version(game_id: int, version: int) -> None:
    message = {"type": "game.version", "version": version}
    asyncio.run_coroutine_threadsafe(get_channel_layer().group_send(group_name(game_id), message), _announcer_loop())


def announce_chat(game_id: int, message_id: int) -> None:
    """A chat message was posted or hidden: each socket sends its user the game's chat."""
    message = {"type": "game.chat", "message_id": message_id}
    asyncio.run_coroutine_threadsafe(get_channel_layer().group_send(group_name(game_id), message), _announcer_loop())


def announce_presence(game_id: int) -> None:
    """Someone opened or closed the game's page: each socket refreshes who is connected."""
    message = {"type": "game.presence"}
    asyncio.run_coroutine_threadsafe(get_channel_layer().group_send(group_name(game_id), message), _announcer_loop())
