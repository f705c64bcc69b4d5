"""Live parts of a game page besides the board: who is connected, and the chat."""
from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games import live
from games.services import chat
from tests.support.factories import toy_game
from tests.web.test_consumer import close_db_connections, communicator_for, html_of, run_scenario

pytestmark = pytest.mark.django_db(transaction=True)


class HtmlSocket(WebsocketCommunicator):
    """Every frame, read as the HTML of its regions."""

    async def receive_from(self, timeout=1):
        return html_of(await super().receive_from(timeout))


def test_players_see_who_is_connected_and_chat_messages_live(make_user):
    ana, bo, watcher = make_user("ana"), make_user("bo"), make_user("watcher")
    game = toy_game(ana, bo)

    async def scenario():
        ana_socket = communicator_for(game, ana, stamp=live.stamp_of(game), socket_class=HtmlSocket)
        assert (await ana_socket.connect())[0]
        first = await ana_socket.receive_from(timeout=5)
        assert 'id="game-presence"' in first and "ana <span class=\"visually-hidden\">(connected)" in first
        assert "bo <span class=\"visually-hidden\">(not connected)" in first
        bo_socket = communicator_for(game, bo, stamp=live.stamp_of(game), socket_class=HtmlSocket)
        assert (await bo_socket.connect())[0]
        seen = await ana_socket.receive_from(timeout=5)
        assert "bo <span class=\"visually-hidden\">(connected)" in seen
        await bo_socket.receive_from(timeout=5)  # bo's own arrival

        spectator = communicator_for(game, watcher, stamp=live.stamp_of(game), socket_class=HtmlSocket)
        assert (await spectator.connect())[0]
        assert 'id="game-presence"' in await spectator.receive_from(timeout=5)  # the list, once
        for socket in (ana_socket, bo_socket):  # a spectator is in no seat: the list is unchanged
            assert await socket.receive_nothing(timeout=0.5)
        await sync_to_async(chat.post_message)(game_id=game.pk, user=bo, text="<b>hello</b>")
        to_ana, to_watcher = await ana_socket.receive_from(timeout=5), await spectator.receive_from(timeout=5)
        for html in (to_ana, to_watcher):
            assert 'id="game-chat"' in html and "&lt;b&gt;hello&lt;/b&gt;" in html
        assert 'name="text"' in to_ana and 'name="text"' not in to_watcher  # players write, spectators read

        await bo_socket.disconnect()
        gone = await ana_socket.receive_from(timeout=5)
        assert "bo <span class=\"visually-hidden\">(not connected)" in gone
        for socket in (ana_socket, spectator):
            await socket.disconnect()
        await close_db_connections()

    run_scenario(scenario)
