"""WebSocket edge: one consumer per open game page, sending its viewer the regions that changed.

The wire (JSON text frames; docs/architecture.md, "The live page"):

- server → client ``{"type": "regions", "stamp": "V.R", "regions": [{"id", "html", "digest"}]}``:
  regions to morph in, each applied only if newer than what the page shows (``stamp`` is null
  for chat and presence, which are not ordered by the game's version);
  ``{"type": "fetch", "stamp", "ids"}``: regions too large for a frame, to read over HTTP;
  ``{"type": "pong"}``: the answer to a heartbeat.
- client → server ``{"type": "ping"}`` (the heartbeat; never a database read) and
  ``{"type": "sync", "stamp": "V.R"}`` (what the page shows; read only if it is behind).

A socket connects with the stamp of the page it serves (``?stamp=V.R``) and is sent everything
at once if the game moved on since. Announcements carry only a version: a hint to look again.
"""
from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games import live, presence, realtime, selectors

CLOSE_NOT_ALLOWED = 4403
CLOSE_TOO_MANY_SOCKETS = 4409
CLOSE_TOO_MANY_FRAMES = 4429
# A client sends a heartbeat every few seconds and a sync after a reconnect: far fewer than this.
FRAMES_PER_WINDOW = 30
FRAME_WINDOW_SECONDS = 10


class GameConsumer(AsyncWebsocketConsumer):
    """Joins the game's group; on each announcement sends its viewer what changed."""

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        self.page = Page()
        self.chat_digest = ""
        self.presence_digest = ""
        self.frames: list[float] = []
        if not (self.user and self.user.is_authenticated) or not await self._may_watch():
            await self.close(code=CLOSE_NOT_ALLOWED)
            return
        # Joined before the handshake ends: a channel layer that fails (Redis restarting) fails
        # the handshake, and the page tries again.
        group = realtime.group_name(self.game_id)
        await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        if not await self._arrive():
            await self.channel_layer.group_discard(group, self.channel_name)
            await self.close(code=CLOSE_TOO_MANY_SOCKETS)  # the page says why, and does not retry
            return
        self.group = group
        await self._send(await self._catch_up(None, page_stamp=self._query("stamp")))
        await self._announce_presence()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self._leave()

    async def receive(self, text_data=None, bytes_data=None):
        if self._over_the_frame_limit():
            await self.close(code=CLOSE_TOO_MANY_FRAMES)
            return
        try:
            message = json.loads(text_data or "{}")
        except ValueError:
            message = {}
        if not isinstance(message, dict) or message.get("type") == "ping":
            await self.send(text_data='{"type":"pong"}')
            return
        if message.get("type") == "sync":
            # A page that says it shows what this socket last sent costs nothing.
            stamp = message.get("stamp")
            if self.page.keys is not None and isinstance(stamp, str) and stamp == self.page.stamp:
                return
            self.page.keys = None  # the page is not what this socket sent: send it everything
            await self._send(await self._catch_up(None, page_stamp=stamp if isinstance(stamp, str) else None))

    # --- announcements ---------------------------------------------------------------------

    async def game_version(self, event):
        await self._send(await self._catch_up(event.get("id")))

    async def game_chat(self, event):
        await self._send(await self._chat())

    async def game_presence(self, event):
        await self._send(await self._presence(event.get("id")))

    async def game_probe(self, event):
        """A frame sent as it is: the load harness's floor (a plain group send to the same sockets,
        no read and no drawing), against which it measures pushes. Only the server side can send it."""
        await self.send(text_data=event["frame"])

    # --- reads and drawings (in a worker thread) --------------------------------------------

    @database_sync_to_async
    def _catch_up(self, announcement: str | None, page_stamp: str | None = None) -> list[str]:
        return catch_up(self.game_id, self.user, self.page, announcement, page_stamp)

    @database_sync_to_async
    def _chat(self) -> list[str]:
        game = selectors.watched_game(self.game_id, self.user)
        if game is None:
            return []
        drawn = live.draw(live.LiveView(game, self.user), live.CHAT)  # its form's token: none (see live.Drawn)
        if drawn.digest == self.chat_digest:
            return []
        self.chat_digest = drawn.digest
        return live.frames(None, [drawn])

    @database_sync_to_async
    def _presence(self, announcement: str | None) -> list[str]:
        if not self.page.several_seats:
            return []  # a solo game's page has no list of who is connected
        drawn = presence_drawn(self.game_id, self.user, announcement)
        if drawn is None or drawn.digest == self.presence_digest:
            return []
        self.presence_digest = drawn.digest
        return live.frames(None, [drawn])

    @database_sync_to_async
    def _arrive(self) -> bool:
        return presence.arrive(self.game_id, self.user.pk)

    @database_sync_to_async
    def _announce_presence(self) -> None:
        realtime.announce_presence(self.game_id)  # never raises: announcements are handed off

    @database_sync_to_async
    def _leave(self) -> None:
        presence.leave(self.game_id, self.user.pk)
        realtime.announce_presence(self.game_id)

    @database_sync_to_async
    def _may_watch(self) -> bool:
        return selectors.watched_game(self.game_id, self.user) is not None

    # --- helpers ---------------------------------------------------------------------------

    async def _send(self, frames: list[str]) -> None:
        for frame in frames:
            await self.send(text_data=frame)

    def _query(self, name: str) -> str | None:
        values = parse_qs(self.scope.get("query_string", b"").decode()).get(name)
        return values[0] if values else None

    def _over_the_frame_limit(self) -> bool:
        now = time.monotonic()
        self.frames = [t for t in self.frames if now - t < FRAME_WINDOW_SECONDS]
        self.frames.append(now)
        return len(self.frames) > FRAMES_PER_WINDOW


@dataclass
class Page:
    """What one socket's page shows: the keys of its regions (None: not known yet), the version
    and stamp they were drawn at."""

    keys: dict[str, tuple] | None = None
    version: int = -1
    stamp: str = ""
    several_seats: bool = False


def catch_up(game_id: int, user, page: Page, announcement: str | None = None,
             page_stamp: str | None = None) -> list[str]:
    """The frames that bring ``page`` to the game's current version (and ``page`` then shows
    it). ``announcement``: the id of the announcement being answered, whose read the sockets of
    this process share; ``page_stamp``: what a page that just connected says it shows."""
    snapshot = shared_snapshot(game_id, announcement) if announcement else selectors.game_snapshot(game_id)
    game = selectors.watched_in(snapshot, user)
    if game is None or game.version < page.version:
        return []  # gone, or a shared read older than what this page caught up to by itself
    view = live.LiveView(game, user)
    if page.keys is None and page_stamp == live.stamp_of(game):
        update = live.Update(page_stamp, [], live.current_keys(view))  # current: nothing to draw
    else:
        update = live.changed_regions(view, page.keys)
    page.keys, page.version, page.stamp = update.keys, game.version, update.stamp
    page.several_seats = len(game.seats.all()) > 1
    return live.frames(update.stamp, update.regions) if update.regions else []


# Every socket of a game in this process receives each announcement. The first to answer one
# reads the game (with its seats and users); the others answer from that read, which is no
# older than the announcement (a later change brings a later announcement).
_SNAPSHOTS_SIZE = 256
_snapshots: OrderedDict[tuple, selectors.GameSnapshot | None] = OrderedDict()
_snapshots_lock = threading.Lock()


def shared_snapshot(game_id: int, announcement: str) -> selectors.GameSnapshot | None:
    key = (game_id, announcement)
    with _snapshots_lock:
        if key in _snapshots:
            return _snapshots[key]
    snapshot = selectors.game_snapshot(game_id)
    with _snapshots_lock:
        _snapshots[key] = snapshot
        while len(_snapshots) > _SNAPSHOTS_SIZE:
            _snapshots.popitem(last=False)
    return snapshot


def presence_drawn(game_id: int, user, announcement: str | None) -> live.Drawn | None:
    """Who is connected, for ``user`` if they may watch: the same for every viewer, so the
    sockets answering one announcement draw it once."""
    snapshot = shared_snapshot(game_id, announcement) if announcement else selectors.game_snapshot(game_id)
    game = selectors.watched_in(snapshot, user)
    if game is None:
        return None
    key = ("presence", announcement) if announcement else None
    return live.draw(live.LiveView(game, None), live.PRESENCE, key=key)


def forget_renders() -> None:
    """Empty this process's caches, as a fresh Daphne has them (benchmarks)."""
    with _snapshots_lock:
        _snapshots.clear()
    live.forget_drawings()

