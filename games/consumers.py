"""WebSocket edge: one consumer per open board, rendering its own user's view."""
from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from games import realtime, selectors
from games.errors import GameError
from games.models import Game

CLOSE_NOT_ALLOWED = 4403


class GameConsumer(AsyncWebsocketConsumer):
    """Joins the game's group; on each announced version sends this user's board as HTML.

    Announcements carry only a version number. A socket that (re)connects with the version
    it last saw (``?version=N``) is sent the current board at once if the game moved on.
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
        self.sent_version = self._version_from_query()
        await self._catch_up()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        # Any message from the client is a request to catch up.
        await self._catch_up()

    async def game_version(self, event):
        if self.sent_version is None or event["version"] > self.sent_version:
            await self._catch_up()

    async def _catch_up(self):
        html, version = await self._render_board()
        if html is not None and version != self.sent_version:
            self.sent_version = version
            await self.send(text_data=html)

    def _version_from_query(self) -> int | None:
        values = parse_qs(self.scope.get("query_string", b"").decode()).get("version")
        try:
            return int(values[0]) if values else None
        except ValueError:
            return None

    @database_sync_to_async
    def _may_watch(self) -> bool:
        try:
            selectors.game_for_viewer(self.game_id, self.user)
        except GameError:
            return False
        return True

    @database_sync_to_async
    def _render_board(self) -> tuple[str | None, int | None]:
        try:
            game: Game = selectors.game_for_viewer(self.game_id, self.user)
        except GameError:
            return None, None
        context = selectors.board_context(game, self.user).as_dict()
        return render_to_string("games/_board.html", context), game.version
