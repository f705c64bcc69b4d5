"""WebSocket edge: one consumer per open board, rendering its own user's view."""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from games import pieces, presence, realtime, selectors
from games.errors import GameError
from games.models import Game
from games.sites import get_site

CLOSE_NOT_ALLOWED = 4403


@dataclass(frozen=True)
class PushState:
    """What a socket's page shows: the board drawn for one turn (``turn``, see
    ``selectors.turn_token``), brought up to ``version`` by the pushes since."""

    turn: str
    version: int

    @classmethod
    def of(cls, game: Game) -> "PushState":
        return cls(selectors.turn_token(game), game.version)


def push_for(game_id: int, user, sent: PushState | None, page_token: str | None = None,
             announcement: str | None = None) -> tuple[str | None, PushState | None]:
    """What a socket sends now, and what its page then shows: ``(html or None, state)``.

    ``sent`` is None for a socket that has just connected; its page shows the board of
    ``page_token`` (a ``Game.board_token``), and anything else gets it the whole board. Then:
    nothing when nothing changed; the turn's progress fragment when the only news since the
    page's board is other seats' moves within the same turn of a game whose seats act at once;
    the whole board otherwise (a new turn, a start, a pause, a new deadline, the end, the
    hindsight figures, or a move of this user's own seat, made in another tab).

    ``announcement`` (the id of the announcement being answered) lets the sockets of this process
    that answer it share one read of the game (``shared_snapshot``).
    """
    since = sent.version if sent else None
    if announcement is not None:
        game = selectors.watched_in(shared_snapshot(game_id, announcement), user, since_version=since)
    else:
        game = selectors.watched_game(game_id, user, since_version=since)
    if game is None:
        return None, sent
    if announcement is not None and sent is not None and game.version < sent.version:
        # A shared read older than this page (which caught up by itself since): never go back.
        return None, sent
    now = PushState.of(game)
    if sent is None:
        if page_token == game.board_token:
            return None, now
    elif now == sent:
        return None, sent
    elif _progress_is_enough(game, user, sent, now):
        return turn_progress_html(game), now
    # Answering an announcement, the shared read (seats and users included) serves the board too.
    return board_push(game_id, user, game if announcement is not None else None)


def _progress_is_enough(game: Game, user, sent: PushState, now: PushState) -> bool:
    # The form of a page whose board is from earlier in the round stays acceptable only where a
    # version from the current round is current enough (services.moves._is_current).
    site = get_site(game.kind)
    return (
        bool(site.turn_progress_template)
        and site.engine.SIMULTANEOUS_TURNS
        and game.status == Game.Status.ACTIVE
        and now.turn == sent.turn
        and now.version > sent.version
        and game.only_others_moved
    )


def board_push(game_id: int, user, game: Game | None = None) -> tuple[str | None, PushState | None]:
    """The whole board for ``user``, read afresh with its seats (or from ``game``, a read that
    ``user`` may watch, with its seats and users), and the state it shows.
    Spectators of a game under way all see the same board: a process draws it once a version."""
    if game is None:
        try:
            game = selectors.game_for_viewer(game_id, user)
        except GameError:
            return None, None
    context = selectors.board_context(game, user)
    if context.seat is not None or game.status == Game.Status.OPEN:
        return render_to_string("games/_board.html", context.as_dict()), PushState.of(game)
    key = ("spectator", game.pk, game.created_at, game.board_token)
    return _drawn_once(key, lambda: render_to_string("games/_board.html", context.as_dict())), PushState.of(game)


def _drawn_once(key: tuple, draw) -> str:
    with _progress_lock:
        if key in _progress_cache:
            _progress_cache.move_to_end(key)
            return _progress_cache[key]
    html = draw()
    with _progress_lock:
        _progress_cache[key] = html
        while len(_progress_cache) > _PROGRESS_CACHE_SIZE:
            _progress_cache.popitem(last=False)
    return html


# Every socket of a game is sent the same fragment for a version (it is drawn from the
# spectator's view), and every spectator the same board, so a process draws each once: one
# render per submission, not one per watcher.
_PROGRESS_CACHE_SIZE = 64
_progress_cache: OrderedDict[tuple, str] = OrderedDict()
_progress_lock = threading.Lock()


# Every socket of a game in this process receives each announcement, and before this each one
# read the game again: within a round of N seats that is N reads per submission, N² a round. The
# first socket to answer an announcement reads it; the others answer from that read, which is
# no older than the announcement (a later change brings a later announcement).
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


def presence_html(game_id: int, user, announcement: str | None) -> str | None:
    """Who is connected, for ``user`` if they may watch. The list is the same for every
    viewer, so the sockets answering one announcement draw it once."""
    if announcement is None:
        game = selectors.watched_game(game_id, user)
        return None if game is None else pieces.presence_list(selectors.presence_context(game)["presence"])
    game = selectors.watched_in(shared_snapshot(game_id, announcement), user)
    if game is None:
        return None
    # One look at who is connected per announcement (its snapshot holds the seats and users).
    return _drawn_once(("presence", game_id, announcement),
                       lambda: pieces.presence_list(selectors.presence_context(game)["presence"]))


def turn_progress_html(game: Game) -> str:
    key = (game.pk, game.created_at, selectors.turn_token(game), game.version)  # as the state cache's key
    return _drawn_once(key, lambda: render_to_string(get_site(game.kind).turn_progress_template,
                                                     selectors.turn_progress_context(game)))


class GameConsumer(AsyncWebsocketConsumer):
    """Joins the game's group; on each announcement sends this user what changed, as HTML.

    Announcements carry only a version number, a hint to look again (see ``push_for``). A
    socket that (re)connects with the token of the board it shows (``?token=…``) is sent the
    current board at once if anything changed since. The database is the truth.
    """

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        if not (self.user and self.user.is_authenticated) or not await self._may_watch():
            await self.close(code=CLOSE_NOT_ALLOWED)
            return
        self.group = realtime.group_name(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.sent: PushState | None = None
        self.page_token = self._token_from_query()
        await self._catch_up()
        await self._presence_changed(arrived=True)

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self._presence_changed(arrived=False)

    async def receive(self, text_data=None, bytes_data=None):
        # Any message from the client is a request to catch up.
        await self._catch_up()

    async def game_version(self, event):
        await self._catch_up(event.get("id"))

    async def game_chat(self, event):
        """A chat message was posted or hidden: this user's chat, swapped by its id."""
        html = await self._render_part("games/_chat.html", selectors.chat_context)
        if html:
            await self.send(text_data=html)

    async def game_presence(self, event):
        html = await self._presence(event.get("id"))
        if html:
            await self.send(text_data=html)

    @database_sync_to_async
    def _presence(self, announcement: str | None) -> str | None:
        return presence_html(self.game_id, self.user, announcement)

    @database_sync_to_async
    def _presence_changed(self, *, arrived: bool) -> None:
        (presence.arrive if arrived else presence.leave)(self.game_id, self.user.pk)
        realtime.announce_presence(self.game_id)

    @database_sync_to_async
    def _render_part(self, template: str, context_for) -> str | None:
        game = selectors.watched_game(self.game_id, self.user)
        if game is None:
            return None
        return render_to_string(template, context_for(game, self.user))

    async def _catch_up(self, announcement: str | None = None):
        html, state = await self._push(announcement)
        if state is not None:
            self.sent = state
        if html is not None:
            await self.send(text_data=html)

    def _token_from_query(self) -> str | None:
        values = parse_qs(self.scope.get("query_string", b"").decode()).get("token")
        return values[0] if values else None

    @database_sync_to_async
    def _may_watch(self) -> bool:
        return selectors.watched_game(self.game_id, self.user) is not None

    @database_sync_to_async
    def _push(self, announcement: str | None) -> tuple[str | None, PushState | None]:
        return push_for(self.game_id, self.user, self.sent, self.page_token, announcement)
