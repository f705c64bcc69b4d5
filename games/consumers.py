"""WebSocket edge: one consumer per open game page, sending its viewer the regions that changed.

The wire (JSON text frames; docs/architecture.md, "The live page"):

- server → client ``{"type": "regions", "stamp": "V.R", "regions": [{"id", "html", "digest"}]}``:
  regions to morph in, each applied only if newer than what the page shows (``stamp`` is null
  for chat and presence, which are not ordered by the game's version);
  ``{"type": "fetch", "stamp", "ids"}``: regions too large for a frame, to read over HTTP;
  ``{"type": "pong"}``: the answer to a heartbeat.
- client → server ``{"type": "ping"}`` (the heartbeat; at most once in ``STALE_CHECK_SECONDS``
  it also reads the game's version, and the page is caught up if an announcement was lost) and
  ``{"type": "sync", "stamp": "V.R"}`` (what the page shows; read only if it is behind; an
  empty stamp asks for every region, as a page does when the answer to its own move is lost).

A socket connects with the stamp of the page it serves (``?stamp=V.R``) and the page's name
(``?page=``), and is sent everything at once if the game moved on since. Announcements carry a
version, a hint to look again, and the pages whose own move was answered over HTTP at it
(``realtime.answered_over_http``): those pages' sockets do not send that version again.
"""
from __future__ import annotations

import functools
import itertools
import json
import os
import queue
import threading
import time
from collections import OrderedDict
from concurrent.futures import Executor, Future
from contextvars import ContextVar
from dataclasses import dataclass
from urllib.parse import parse_qs

from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import timezone, translation

from games import live, presence, realtime, selectors
from accounts.timezones import zone_of
from hexsite.i18n import language_of_socket

CLOSE_BAD_FRAME = 4400  # a frame the page never sends: not JSON, too deep, binary, of no known type
CLOSE_NOT_ALLOWED = 4403
CLOSE_TOO_MANY_SOCKETS = 4409
CLOSE_TOO_MANY_FRAMES = 4429
CLOSE_SERVICE_RESTART = 1012  # the page tries again, backing off
# A client sends a heartbeat every few seconds and a sync after a reconnect: far fewer than this.
FRAMES_PER_WINDOW = 30
FRAME_WINDOW_SECONDS = 10

# The sockets' reads and drawings run on a few threads of their own. By default Channels runs
# every consumer's synchronous work on one thread per process, so a round close queued 100
# sockets' catch-ups one behind the other, each waiting on its own database round trips; on a
# pool those waits overlap. A consumer still handles its own messages one at a time, in order.
LIVE_THREADS = getattr(settings, "LIVE_SOCKET_THREADS", 4)

# An announcement can be lost (Redis restarting after its one retry, a full channel-layer queue),
# and a page then shows an old version until the next one, hours in a correspondence game. On a
# heartbeat at most this often, a socket reads the game's version (one small query) and catches
# its page up if the game moved on without it.
STALE_CHECK_SECONDS = 30.0


# A game whose turn clock is this short or shorter has its players at the table (a live room:
# 20 s to 3 min a turn), and its sockets' work goes before that of the games played by
# correspondence (rounds of days, or no clock at all), whose pages may take a few hundred
# milliseconds more. In a large round's burst, a live room's push no longer waits behind
# hundreds of catch-ups of correspondence pages.
LIVE_TURN_SECONDS = 3600


def is_live_game(game) -> bool:
    return game.turn_seconds is not None and game.turn_seconds <= LIVE_TURN_SECONDS


# Whether the work a socket hands its threads now is a live game's (set around each hand-off).
_live_work: ContextVar[bool] = ContextVar("live_socket_work", default=False)


class _ProcessThreadPool(Executor):
    """The sockets' threads, made on first use in each process: a forked child (a test server, a
    pre-forking server) inherits the parent's pool object but none of its threads, so each
    process starts its own. They take live games' work first (``_live_work``), each class in the
    order it was handed over."""

    _STOP = 2  # after all work

    def __init__(self, workers: int):
        self.workers = workers
        self._forget()
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        self._queue: queue.PriorityQueue | None = None
        self._threads: list[threading.Thread] = []
        self._pid: int | None = None
        self._lock = threading.Lock()
        self._order = itertools.count()

    def _started(self) -> queue.PriorityQueue:
        with self._lock:
            if self._queue is None or self._pid != os.getpid():
                self._queue, self._pid = queue.PriorityQueue(), os.getpid()
                self._threads = [threading.Thread(target=self._work, args=(self._queue,), daemon=True,
                                                  name=f"live-socket_{n}") for n in range(self.workers)]
                for thread in self._threads:
                    thread.start()
            return self._queue

    def submit(self, fn, /, *args, **kwargs) -> Future:
        work_queue = self._started()
        future: Future = Future()
        work_queue.put((0 if _live_work.get() else 1, next(self._order), future, fn, args, kwargs))
        return future

    @staticmethod
    def _work(work_queue: queue.PriorityQueue) -> None:
        while True:
            _class, _order, future, fn, args, kwargs = work_queue.get()
            if future is None:
                return
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = fn(*args, **kwargs)
            except BaseException as error:  # handed to the awaiting coroutine
                future.set_exception(error)
            else:
                future.set_result(result)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            if self._queue is None or self._pid != os.getpid():
                return
            work_queue, threads, self._queue = self._queue, self._threads, None
        for _thread in threads:
            work_queue.put((self._STOP, next(self._order), None, None, (), {}))
        if wait:
            for thread in threads:
                thread.join()


_live_threads = _ProcessThreadPool(LIVE_THREADS)


def close_live_connections(timeout: float = 10) -> None:
    """Close the database connection each socket thread holds (tests, before the database goes).
    Every thread gets one task: each waits for the others, so no thread can take two."""
    from django.db import connections

    barrier = threading.Barrier(LIVE_THREADS, timeout=timeout)

    def close() -> None:
        connections.close_all()
        barrier.wait()

    for future in [_live_threads.submit(close) for _ in range(LIVE_THREADS)]:
        future.result(timeout)


def in_live_threads(method):
    """``database_sync_to_async`` on the sockets' own threads (connections closed after each
    call), in the socket's language (its page's: see hexsite.i18n.language_of_socket), a live
    game's socket ahead of the others (``self.live_game``)."""
    def in_language(self, *args, **kwargs):
        zone = zone_of(getattr(self, "user", None))  # the viewer's time zone, as on their pages
        with translation.override(getattr(self, "language", None)), timezone.override(zone):
            return method(self, *args, **kwargs)

    on_thread = DatabaseSyncToAsync(in_language, thread_sensitive=False, executor=_live_threads)

    @functools.wraps(method)
    async def handed_over(self, *args, **kwargs):
        token = _live_work.set(getattr(self, "live_game", False))
        try:
            return await on_thread(self, *args, **kwargs)
        finally:
            _live_work.reset(token)

    return handed_over


class GameConsumer(AsyncWebsocketConsumer):
    """Joins the game's group; on each announcement sends its viewer what changed."""

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        self.language = language_of_socket(self.scope)  # as the page's: the same drawings
        self.page = Page(name=live.page_id(self._query("page")))
        self.chat_digest = ""
        self.presence_digest = ""
        self.frames: list[float] = []
        self.checked_at = time.monotonic()
        self.live_game = False  # known once the game is read (_may_watch)
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

    async def __call__(self, scope, receive, send):
        # A handler that raised, or a consumer cancelled, never reaches disconnect(): its place
        # would stay counted for PRESENCE_TTL, and a few such ends lock the user out (4409).
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._release()

    async def disconnect(self, code):
        await self._release()

    async def _release(self) -> None:
        """Give back this socket's group and its place in the counts, once, whatever fails."""
        group = self.__dict__.pop("group", None)
        if group is None:
            return
        try:
            await self.channel_layer.group_discard(group, self.channel_name)
        finally:
            await self._leave()

    async def receive(self, text_data=None, bytes_data=None):
        if self._over_the_frame_limit():
            await self.close(code=CLOSE_TOO_MANY_FRAMES)
            return
        try:
            message = json.loads(text_data) if text_data is not None else None
        except (ValueError, RecursionError):  # RecursionError: nested too deep (a frame of "[[[[…")
            message = None
        if not isinstance(message, dict) or message.get("type") not in ("ping", "sync"):
            await self.close(code=CLOSE_BAD_FRAME)
            return
        if message.get("type") == "ping":
            await self.send(text_data='{"type":"pong"}')
            if time.monotonic() - self.checked_at >= STALE_CHECK_SECONDS and self.page.keys is not None:
                self.checked_at = time.monotonic()
                await self._send(await self._catch_up_if_behind())
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
        version = event.get("version")
        if isinstance(version, int) and version < self.page.version:
            # This page already shows a later version, read after this change's commit: a socket
            # that fell behind skips the announcements it has overtaken, at no cost.
            return
        answered = event.get("answered")
        answered = answered.get(self.page.name) if self.page.name and isinstance(answered, dict) else None
        if isinstance(answered, int):
            self.page.answered = max(self.page.answered, answered)
        # Taken as the announcement is handled, before the read waits for a thread: any read of
        # the game that starts later includes the change announced (see shared_snapshot).
        await self._send(await self._catch_up(event.get("id"), received=time.monotonic(),
                                              answered=answered if isinstance(answered, int) else None))
        if self.page.players_changed:
            await self._send(await self._presence(event.get("id"), time.monotonic()))

    async def channel_layer_lost(self, event):
        """This process lost Redis (hexsite/channel_layer.py): announcements may be lost with it.
        The page reconnects with the stamp it shows, once Redis is back, and is sent what it missed."""
        await self.close(code=CLOSE_SERVICE_RESTART)

    async def game_chat(self, event):
        await self._send(await self._chat())

    async def game_presence(self, event):
        await self._send(await self._presence(event.get("id"), time.monotonic()))

    async def game_probe(self, event):
        """A frame sent as it is: the load harness's floor (a plain group send to the same sockets,
        no read and no drawing), against which it measures pushes. Only the server side can send it."""
        await self.send(text_data=event["frame"])

    # --- reads and drawings (in a worker thread) --------------------------------------------

    @in_live_threads
    def _catch_up(self, announcement: str | None, page_stamp: str | None = None,
                  received: float | None = None, answered: int | None = None) -> list[str]:
        return catch_up(self.game_id, self.user, self.page, announcement, page_stamp, received, answered)

    @in_live_threads
    def _catch_up_if_behind(self) -> list[str]:
        current = selectors.game_version_of(self.game_id)
        if current is None or live.stamp_of(current) == self.page.stamp:
            return []
        return catch_up(self.game_id, self.user, self.page)

    @in_live_threads
    def _chat(self) -> list[str]:
        game = selectors.watched_game(self.game_id, self.user)
        if game is None:
            return []
        drawn = live.draw(live.LiveView(game, self.user), live.CHAT)  # its form's token: none (see live.Drawn)
        if drawn.digest == self.chat_digest:
            return []
        self.chat_digest = drawn.digest
        return live.frames(None, [drawn])

    @in_live_threads
    def _presence(self, announcement: str | None, received: float | None = None) -> list[str]:
        if not self.page.several_seats:
            return []  # a solo game's page has no list of who is connected
        drawn = presence_drawn(self.game_id, self.user, announcement, received)
        if drawn is None or drawn.digest == self.presence_digest:
            return []
        self.presence_digest = drawn.digest
        return live.frames(None, [drawn])

    @in_live_threads
    def _arrive(self) -> bool:
        return presence.arrive(self.game_id, self.user.pk)

    @in_live_threads
    def _announce_presence(self) -> None:
        realtime.announce_presence(self.game_id)  # never raises: announcements are handed off

    @in_live_threads
    def _leave(self) -> None:
        presence.leave(self.game_id, self.user.pk)
        realtime.announce_presence(self.game_id)

    @in_live_threads
    def _may_watch(self) -> bool:
        game = selectors.watched_game(self.game_id, self.user)
        self.live_game = game is not None and is_live_game(game)
        return game is not None

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
    and stamp they were drawn at; the name the page gives itself (``live.page_id``); the latest
    version its own request was answered at over HTTP, as the announcements said."""

    keys: dict[str, tuple] | None = None
    version: int = -1
    stamp: str = ""
    several_seats: bool = False
    name: str | None = None
    answered: int = -1  # the latest version at which an announcement said this page was answered
    seats_basis: tuple | None = None  # the revision and status the players' list was last drawn at
    players_changed: bool = False  # seats changed hands or the game's status changed since then


def catch_up(game_id: int, user, page: Page, announcement: str | None = None,
             page_stamp: str | None = None, received: float | None = None,
             answered: int | None = None) -> list[str]:
    """The frames that bring ``page`` to the game's current version (and ``page`` then shows
    it). ``announcement``: the id of the announcement being answered, whose read the sockets of
    this process share, and when it was ``received`` (``time.monotonic()``); ``page_stamp``:
    what a page that just connected says it shows; ``answered``: the version at which this
    page's own request was answered with every region (``realtime.answered_over_http``)."""
    snapshot = shared_snapshot(game_id, announcement, received) if announcement else selectors.game_snapshot(game_id)
    game = selectors.watched_in(snapshot, user)
    if game is None or game.version < page.version:
        return []  # gone, or a shared read older than what this page caught up to by itself
    view = live.LiveView(game, user)
    stamp, keys = live.stamp_of(game), live.current_keys(view)
    if page.keys is None and page_stamp == stamp:
        update = live.Update(page_stamp, [], keys)  # current: nothing to draw
    elif page.keys is not None and answered == game.version and _revision(page.stamp) == game.revision:
        # The page's own move was answered with every region at this version, and nothing but
        # moves changed since this socket's last frame: sending them again would only repeat it.
        # (A page that misses that answer asks for everything: live.js, "sync".)
        update = live.Update(stamp, [], keys)
    else:
        shown = page.keys
        if shown is not None and page.name and _may_have_been_answered(page, snapshot, view.seat) \
                and live.own_region_changed(view, shown, keys):
            # The viewer's own regions changed, maybe by the page's own move, whose answer had them.
            answer = live.answered_keys(game_id, page.name)
            if answer is not None and page.version < answer[0] <= game.version:
                shown = {**shown, **answer[1]}
        update = live.changed_regions(view, shown, keys)
    page.keys, page.version, page.stamp = update.keys, game.version, update.stamp
    page.several_seats = len(game.seats.all()) > 1
    # The players' list (game-presence) shows who holds each seat and, while the game runs, who
    # is stood in for: drawn again when a seat changes hands (the revision) or the status changes.
    basis = (game.revision, game.status)
    page.players_changed = page.seats_basis is not None and page.seats_basis != basis
    page.seats_basis = basis
    return live.frames(update.stamp, update.regions) if update.regions else []


def _may_have_been_answered(page: Page, snapshot: selectors.GameSnapshot, seat: int | None) -> bool:
    """Could ``page`` have been answered over HTTP since its socket's last frame? Yes when an
    announcement said so, or when the viewer's seat moved since (its announcement may not have
    come yet); not for a spectator, nor for a player whose seat has not moved since: their
    sockets skip the cache's round trip for the answer's keys."""
    if page.answered > page.version:
        return True
    return seat is not None and snapshot.seat_moved_since(seat, page.version) is not False


def _revision(stamp: str) -> int | None:
    _version, _dot, revision = stamp.partition(".")
    return int(revision) if revision.isdigit() else None


# Every socket of a game in this process receives each announcement; one read of the game (with
# its seats and users) answers many of them. A read serves an announcement when it was made for
# that announcement, or when it started after the announcement was received here: an
# announcement is sent after its commit, so such a read includes the change. (Both times are this
# process's own clock.) While the sockets are behind, a burst of announcements of one game costs
# one read, not one each; and one thread reads a game while the others that need it wait.
_SNAPSHOTS_SIZE = 256
_snapshots: OrderedDict[tuple, selectors.GameSnapshot | None] = OrderedDict()
_latest: OrderedDict[int, tuple[float, selectors.GameSnapshot | None]] = OrderedDict()
_snapshots_lock = threading.Lock()
_read_locks = [threading.Lock() for _ in range(64)]


def _new_locks_after_fork() -> None:
    """A lock held by a thread at a fork stays held in the child, where that thread is gone."""
    global _snapshots_lock, _read_locks
    _snapshots_lock = threading.Lock()
    _read_locks = [threading.Lock() for _ in range(64)]


os.register_at_fork(after_in_child=_new_locks_after_fork)


def shared_snapshot(game_id: int, announcement: str, received: float | None = None) -> selectors.GameSnapshot | None:
    key = (game_id, announcement)
    with _read_locks[game_id % len(_read_locks)]:
        with _snapshots_lock:
            if key in _snapshots:
                return _snapshots[key]
            latest = _latest.get(game_id)
            if latest is not None and received is not None and latest[0] >= received:
                _remember(key, latest[1])
                return latest[1]
        started = time.monotonic()
        snapshot = selectors.game_snapshot(game_id)
        with _snapshots_lock:
            _remember(key, snapshot)
            _latest[game_id] = (started, snapshot)
            _latest.move_to_end(game_id)
            while len(_latest) > _SNAPSHOTS_SIZE:
                _latest.popitem(last=False)
        return snapshot


def _remember(key: tuple, snapshot: selectors.GameSnapshot | None) -> None:
    _snapshots[key] = snapshot
    while len(_snapshots) > _SNAPSHOTS_SIZE:
        _snapshots.popitem(last=False)


def presence_drawn(game_id: int, user, announcement: str | None, received: float | None = None) -> live.Drawn | None:
    """Who is connected, for ``user`` if they may watch: the same for every viewer, so the
    sockets answering one announcement draw it once."""
    snapshot = shared_snapshot(game_id, announcement, received) if announcement else selectors.game_snapshot(game_id)
    game = selectors.watched_in(snapshot, user)
    if game is None:
        return None
    key = ("presence", announcement) if announcement else None
    return live.draw(live.LiveView(game, None), live.PRESENCE, key=key)


def forget_renders() -> None:
    """Empty this process's caches, as a fresh Daphne has them (benchmarks)."""
    with _snapshots_lock:
        _snapshots.clear()
        _latest.clear()
    live.forget_drawings()

