"""Live parts of a game page besides the board: who is connected, and the chat."""
from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games import live, realtime, services, state_store
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

        # The communicator cancels a consumer still busy after its default second; the leave
        # (a Redis count and an announcement, on a live thread) must run to its end here.
        await bo_socket.disconnect(timeout=10)
        gone = await ana_socket.receive_from(timeout=5)
        assert "bo <span class=\"visually-hidden\">(not connected)" in gone
        for socket in (ana_socket, spectator):
            await socket.disconnect()
        await close_db_connections()

    run_scenario(scenario)


def test_arrivals_close_together_reach_the_others_as_one_list(make_user):
    """When many players open a game's page at once, each socket gets who is connected once for
    them all (realtime.PRESENCE_DELAY_SECONDS), not once per arrival: at a hundred seats, a
    hundred lists of a hundred names to each of a hundred sockets."""
    ana, bo, cy, dee = (make_user(name) for name in ("ana", "bo", "cy", "dee"))
    game = toy_game(ana, bo, cy, dee)

    async def scenario():
        ana_socket = communicator_for(game, ana, stamp=live.stamp_of(game), socket_class=HtmlSocket)
        assert (await ana_socket.connect())[0]
        assert "ana <span class=\"visually-hidden\">(connected)" in await ana_socket.receive_from(timeout=5)
        others = [communicator_for(game, user, stamp=live.stamp_of(game), socket_class=HtmlSocket)
                  for user in (bo, cy, dee)]
        for socket in others:  # three arrivals, a few tenths of a second apart
            assert (await socket.connect())[0]
            await asyncio.sleep(0.25)
        lists = [await ana_socket.receive_from(timeout=5)]
        while not all(f"{name} <span class=\"visually-hidden\">(connected)" in lists[-1] for name in ("bo", "cy", "dee")):
            lists.append(await ana_socket.receive_from(timeout=5))
        # One list (two if the machine is slow enough to spread the arrivals over the delay); a
        # list for each arrival before.
        assert len(lists) < 3, lists
        assert await ana_socket.receive_nothing(timeout=2 * realtime.PRESENCE_DELAY_SECONDS)
        for socket in (*others, ana_socket):
            await socket.disconnect(timeout=10)
        await close_db_connections()

    run_scenario(scenario)


def test_a_solo_games_socket_sends_no_list_of_who_is_connected(make_user):
    """A one-seat game's page has no presence list (issue #31: pushing one anyway logged
    htmx:oobErrorNoTarget #game-presence on every solo Hextremadura page). A two-seat game's first
    frame is that list (the test above), so its absence here is the one-seat rule at work."""
    from games.hextremadura import engine as hextremadura
    from games.hextremadura import services as solo

    ana = make_user("ana")
    game = solo.start_casual_game(user=ana)

    async def scenario():
        socket = communicator_for(game, ana, stamp=live.stamp_of(game), socket_class=HtmlSocket)
        assert (await socket.connect())[0]
        second = communicator_for(game, ana, stamp=live.stamp_of(game), socket_class=HtmlSocket)
        assert (await second.connect())[0]  # a second tab: a seat's arrival, on a two-seat game
        for tab in (socket, second):
            assert await tab.receive_nothing(timeout=0.5)
        state = await sync_to_async(state_store.load)(game)
        await sync_to_async(services.submit_move)(
            game_id=game.pk, user=ana, move=hextremadura.legal_moves(state, 0)[0], expected_version=game.version)
        pushed = await socket.receive_from(timeout=5)
        assert 'id="game-main"' in pushed and 'id="game-presence"' not in pushed
        await second.disconnect()
        await socket.disconnect()
        await close_db_connections()

    run_scenario(scenario)


def test_at_a_large_table_who_is_connected_is_counted_not_named(make_user):
    """Every socket gets who is connected whenever someone arrives or leaves: names at a table of
    a dozen, a count past that (a hundred names to each of a hundred sockets, every time)."""
    from games import consumers, presence

    users = [make_user(f"seat{i:02}") for i in range(14)]
    game = services.create_game(kind="hextension", config={"players": 14, "tiles_per_round": 1},
                                created_by=None, players=users, turn_seconds=86400)
    for user in users[:3]:
        presence.arrive(game.pk, user.pk)
    try:
        html = consumers.presence_drawn(game.pk, users[0], None).html
        assert "3 of 14 players have this game open." in html
        assert not any(user.public_name in html for user in users)
        small = toy_game(*users[:4])  # a table of four: each player by name, connected or not
        presence.arrive(small.pk, users[0].pk)
        html = consumers.presence_drawn(small.pk, users[0], None).html
        assert "seat00 <span class=\"visually-hidden\">(connected)" in html
        assert "seat03 <span class=\"visually-hidden\">(not connected)" in html
        presence.leave(small.pk, users[0].pk)
    finally:
        for user in users[:3]:
            presence.leave(game.pk, user.pk)
