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
    """Joins the game's group; on each announcement sends this user's board as HTML.

    Announcements carry only a version number, a hint to look again: the socket sends a fresh
    board whenever the game's ``board_token`` differs from the one it last sent. A socket that
    (re)connects with the token of the board it shows (``?token=…``) is sent the current board
    at once if anything changed since.
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
        self.sent_token = self._token_from_query()
        await self._catch_up()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        # Any message from the client is a request to catch up.
        await self._catch_up()

    async def game_version(self, event):
        await self._catch_up()

    async def _catch_up(self):
        html, token = await self._render_board_if_changed()
        if html is not None:
            self.sent_token = token
            await self.send(text_data=html)

    def _token_from_query(self) -> str | None:
        values = parse_qs(self.scope.get("query_string", b"").decode()).get("token")
        return values[0] if values else None

    @database_sync_to_async
    def _may_watch(self) -> bool:
        try:
            selectors.game_for_viewer(self.game_id, self.user)
        except GameError:
            return False
        return True

    @database_sync_to_async
    def _render_board_if_changed(self) -> tuple[str | None, str | None]:
        try:
            game: Game = selectors.game_for_viewer(self.game_id, self.user)
        except GameError:
            return None, None
        if game.board_token == self.sent_token:
            return None, None
        context = selectors.board_context(game, self.user).as_dict()
        return render_to_string("games/_board.html", context), game.board_token
