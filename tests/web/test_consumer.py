"""The game socket over the real Redis channel layer: own view only, catch-up on reconnect."""
from __future__ import annotations

import asyncio
import json
import logging
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games import consumers, live, services, state_store
from games.consumers import CLOSE_NOT_ALLOWED
from games.models import Game
from hexsite.asgi import application
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db(transaction=True)


async def close_db_connections():
    """The consumers' database work runs on their threads (and asgiref's for the handshake): close those connections."""
    from django.db import connections

    await sync_to_async(connections.close_all)()
    await sync_to_async(consumers.close_live_connections, thread_sensitive=False)()


def run_scenario(coroutine_function) -> None:
    """Run an async scenario on a loop of its own, in a thread of its own, with a channel layer
    of its own: the layer's receive lock binds to the loop that first waited on it, and a
    Daphne process has one loop for its life, but each scenario here has a new one."""
    from channels.layers import channel_layers

    channel_layers.backends = {}
    errors: list[BaseException] = []

    def target():
        try:
            asyncio.run(coroutine_function())
        except BaseException as error:  # re-raised in the test's thread
            errors.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


def html_of(message: str) -> str:
    """The HTML of a frame's regions, one after the other (the frame's stamp first, as
    ``stamp="V.R"``)."""
    frame = json.loads(message)
    assert frame["type"] == "regions", frame
    return f'stamp="{frame["stamp"]}" ' + "".join(region["html"] for region in frame["regions"])


def is_presence(message: str) -> bool:
    frame = json.loads(message)
    return [region["id"] for region in frame.get("regions", [])] == ["game-presence"]


class BoardSocket(WebsocketCommunicator):
    """A socket as the board sees it: who-is-connected frames (sent whenever anyone opens or
    closes the page) are skipped, so each test reads the pushes it is about; frames are read as
    the HTML of their regions."""

    async def receive_from(self, timeout=1):
        while True:
            message = await super().receive_from(timeout)
            if not is_presence(message):
                return html_of(message)

    async def receive_nothing(self, timeout=0.1, interval=0.01):
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            left = end - loop.time()
            if left <= 0 or await super().receive_nothing(left, interval):
                return True
            if not is_presence(await super().receive_from()):
                return False


def communicator_for(game, user, stamp=None, socket_class=BoardSocket):
    """A socket for ``user``'s page of ``game``, which shows ``stamp`` (None: unknown)."""
    path = f"/ws/games/{game.pk}/" + (f"?stamp={stamp}" if stamp is not None else "")
    communicator = socket_class(application, path, headers=[(b"origin", b"http://localhost")])
    communicator.scope["user"] = user
    return communicator


def test_the_socket_sends_each_user_their_own_view_as_moves_arrive(make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    cards = state_store.load(game).cards

    async def scenario():
        ana_socket = communicator_for(game, ana, stamp=live.stamp_of(game))
        bo_socket = communicator_for(game, bo, stamp=live.stamp_of(game))
        assert (await ana_socket.connect())[0] and (await bo_socket.connect())[0]
        assert await ana_socket.receive_nothing(timeout=0.3)  # up to date: nothing to send
        await sync_to_async(services.submit_move)(
            game_id=game.pk, user=ana, move={"type": "add", "n": 2}, expected_version=0
        )
        ana_html = await ana_socket.receive_from(timeout=5)
        bo_html = await bo_socket.receive_from(timeout=5)
        assert 'stamp="1.' in ana_html and 'stamp="1.' in bo_html
        assert str(cards[0]) in ana_html and str(cards[1]) not in ana_html
        assert str(cards[1]) in bo_html and str(cards[0]) not in bo_html
        stamp_seen_by_ana = live.stamp_of(await sync_to_async(Game.objects.get)(pk=game.pk))
        await ana_socket.disconnect()
        # Bo moves while Ana is away; Ana reconnects with the board she had and catches up.
        await sync_to_async(services.submit_move)(
            game_id=game.pk, user=bo, move={"type": "add", "n": 1}, expected_version=1
        )
        assert 'stamp="2.' in await bo_socket.receive_from(timeout=5)
        again = communicator_for(game, ana, stamp=stamp_seen_by_ana)
        assert (await again.connect())[0]
        assert 'stamp="2.' in await again.receive_from(timeout=5)
        await again.disconnect()
        await bo_socket.disconnect()
        await close_db_connections()

    run_scenario(scenario)


def test_a_stranger_cannot_watch_a_private_game(make_user):
    ana, bo, stranger = make_user(), make_user(), make_user()
    game = toy_game(ana, bo, visibility=Game.Visibility.PRIVATE)

    async def scenario():
        socket = communicator_for(game, stranger)
        connected, code = await socket.connect()
        assert not connected and code == CLOSE_NOT_ALLOWED
        await close_db_connections()

    run_scenario(scenario)


def test_a_player_waiting_on_an_open_game_sees_it_start(make_user):
    ana, bo = make_user(), make_user()
    game = services.create_game(kind="toy", config={"players": 2}, created_by=ana)

    async def scenario():
        socket = communicator_for(game, ana, stamp=live.stamp_of(game))
        assert (await socket.connect())[0]
        assert await socket.receive_nothing(timeout=0.3)
        await sync_to_async(services.join_game)(game_id=game.pk, user=bo)  # full: it starts, still version 0
        html = await socket.receive_from(timeout=5)
        assert 'stamp="0.' in html and "Your move" in html
        await socket.disconnect()
        await close_db_connections()

    run_scenario(scenario)


def test_a_socket_left_idle_longer_than_a_blocking_read_still_gets_pushes(make_user):
    """The consumer waits on Redis with blocking pops of 5 s; a read timeout of the Redis client
    as short as that killed every socket left idle for 5 s."""
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)

    async def scenario():
        socket = communicator_for(game, bo, stamp=live.stamp_of(game))
        assert (await socket.connect())[0]
        await asyncio.sleep(7)  # longer than one blocking pop of the channel layer
        await sync_to_async(services.submit_move)(
            game_id=game.pk, user=ana, move={"type": "add", "n": 2}, expected_version=0
        )
        assert 'stamp="1.' in await socket.receive_from(timeout=5)
        await socket.disconnect()
        await close_db_connections()

    run_scenario(scenario)


async def counted(key: str, sockets: int) -> None:
    """Wait until the presence counts hold ``sockets`` under ``key``: a socket is counted just
    after its handshake, so the next one must not be opened before (a race, not a limit)."""
    from django.core.cache import cache

    for _ in range(100):
        if await sync_to_async(cache.get)(key) == sockets:
            return
        await asyncio.sleep(0.05)
    assert await sync_to_async(cache.get)(key) == sockets


async def still_open(socket: WebsocketCommunicator) -> bool:
    """The socket answers a heartbeat (whatever else it was sent meanwhile), not a close."""
    await socket.send_to(text_data='{"type": "ping"}')
    while True:
        output = await socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return False
        if output.get("text") == '{"type":"pong"}':
            return True


def test_a_user_holds_a_few_sockets_on_a_game_and_the_next_is_closed_with_a_clear_code(make_user):
    from games import presence
    from games.consumers import CLOSE_TOO_MANY_SOCKETS

    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)

    async def scenario():
        sockets = [communicator_for(game, ana, stamp=live.stamp_of(game)) for _ in range(presence.MAX_SOCKETS_PER_GAME)]
        for socket in sockets:
            assert (await socket.connect())[0]
        await counted(presence._key(game.pk, ana.pk), presence.MAX_SOCKETS_PER_GAME)
        extra = communicator_for(game, ana, stamp=live.stamp_of(game))
        await extra.connect()
        closed = await extra.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": CLOSE_TOO_MANY_SOCKETS}
        await sockets[0].disconnect(timeout=10)  # one closed (its count taken down in full): room for one more
        again = communicator_for(game, ana, stamp=live.stamp_of(game))
        assert (await again.connect())[0] and await still_open(again)
        for socket in [*sockets[1:], again]:
            await socket.disconnect()
        await close_db_connections()

    run_scenario(scenario)


def test_heartbeats_cost_no_read_and_a_flood_of_frames_closes_the_socket(make_user, monkeypatch):
    from games import consumers, selectors

    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    reads = []
    real = selectors.game_snapshot
    monkeypatch.setattr(selectors, "game_snapshot", lambda game_id: reads.append(game_id) or real(game_id))

    async def scenario():
        socket = communicator_for(game, ana, stamp=live.stamp_of(game))
        assert (await socket.connect())[0]
        assert is_presence(await WebsocketCommunicator.receive_from(socket, timeout=5))  # her own arrival
        await asyncio.sleep(0.2)
        reads.clear()
        for _ in range(5):
            await socket.send_to(text_data='{"type": "ping"}')
            assert json.loads(await WebsocketCommunicator.receive_from(socket, timeout=5)) == {"type": "pong"}
        await socket.send_to(text_data=json.dumps({"type": "sync", "stamp": live.stamp_of(game)}))
        assert await socket.receive_nothing(timeout=0.3)
        assert reads == []  # neither a heartbeat nor a page that is not behind reads the game
        await socket.send_to(text_data=json.dumps({"type": "sync", "stamp": "0.0"}))  # a page behind: caught up
        assert 'stamp="' in await socket.receive_from(timeout=5) and reads
        for _ in range(consumers.FRAMES_PER_WINDOW):
            await socket.send_to(text_data='{"type": "ping"}')
        outputs = [await socket.receive_output(timeout=5) for _ in range(consumers.FRAMES_PER_WINDOW - 6)]
        assert outputs[-1] == {"type": "websocket.close", "code": consumers.CLOSE_TOO_MANY_FRAMES}
        await close_db_connections()

    run_scenario(scenario)


def test_a_user_holds_a_bounded_number_of_sockets_over_all_games(make_user, monkeypatch):
    from games import presence
    from games.consumers import CLOSE_TOO_MANY_SOCKETS

    monkeypatch.setattr(presence, "MAX_SOCKETS_PER_USER", 2)
    ana, bo = make_user(), make_user()
    games = [toy_game(ana, bo) for _ in range(3)]

    async def scenario():
        first, second = (communicator_for(game, ana, stamp=live.stamp_of(game)) for game in games[:2])
        assert (await first.connect())[0] and (await second.connect())[0]
        await counted(presence._user_key(ana.pk), 2)
        third = communicator_for(games[2], ana, stamp=live.stamp_of(games[2]))
        await third.connect()
        assert await third.receive_output(timeout=5) == {"type": "websocket.close", "code": CLOSE_TOO_MANY_SOCKETS}
        other = communicator_for(games[2], bo, stamp=live.stamp_of(games[2]))  # another user is not counted
        assert (await other.connect())[0]
        for socket in (first, second, other):
            await socket.disconnect()
        await close_db_connections()

    run_scenario(scenario)


def test_one_read_of_a_game_serves_every_announcement_received_before_it_started(make_user):
    """Sockets that are behind answer a burst of one game's announcements with one read: a read
    that started after an announcement was received includes its change; a later one reads again."""
    import time

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    consumers.forget_renders()
    ana, bo = make_user(), make_user()
    game = services.create_game(kind="toy", config={"players": 2, "target": 100}, created_by=ana,
                                players=[ana, bo], join=False)
    received = time.monotonic()
    first = consumers.shared_snapshot(game.pk, "announcement-1", received)
    with CaptureQueriesContext(connection) as reads:
        assert consumers.shared_snapshot(game.pk, "announcement-2", received) is first
        assert consumers.shared_snapshot(game.pk, "announcement-1", time.monotonic()) is first  # the same one
    assert len(reads) == 0
    Game.objects.filter(pk=game.pk).update(version=7)
    with CaptureQueriesContext(connection) as reads:
        later = consumers.shared_snapshot(game.pk, "announcement-3", time.monotonic())
    assert len(reads) > 0 and later.game.version == 7


def test_a_socket_skips_the_announcements_its_page_has_overtaken(make_user, monkeypatch):
    """A socket that fell behind reads the game once and then drops, unread, the announcements
    of versions older than what it sent; one of the version it shows is still looked at (a seat
    or a setting may have changed without a move)."""
    from channels.layers import get_channel_layer

    from games import realtime

    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    reads = []
    real_catch_up = consumers.catch_up
    monkeypatch.setattr(consumers, "catch_up", lambda *args, **kwargs: reads.append(args) or real_catch_up(*args, **kwargs))

    async def scenario():
        socket = communicator_for(game, ana, stamp=live.stamp_of(game))
        assert (await socket.connect())[0]
        assert await socket.receive_nothing(timeout=0.3)  # the page is current: its catch-up is done
        await sync_to_async(services.submit_move)(game_id=game.pk, user=ana, move={"type": "add", "n": 2},
                                                  expected_version=0)
        assert 'stamp="1.' in await socket.receive_from(timeout=5)
        layer, group, before = get_channel_layer(), realtime.group_name(game.pk), len(reads)
        await layer.group_send(group, {"type": "game.version", "version": 0, "id": "overtaken"})
        assert await socket.receive_nothing(timeout=0.5)
        assert len(reads) == before
        await layer.group_send(group, {"type": "game.version", "version": 1, "id": "the-same"})
        assert await socket.receive_nothing(timeout=0.5)
        assert len(reads) == before + 1
        await socket.disconnect()
        await close_db_connections()

    run_scenario(scenario)


def test_a_lost_announcement_is_repaired_by_a_later_heartbeat(make_user, monkeypatch):
    """An announcement that never arrives (Redis restarting, a full queue) leaves the page at an
    old version; a heartbeat, at most once in STALE_CHECK_SECONDS, reads the game's version and
    catches the page up. The other heartbeats read nothing."""
    from games import realtime

    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    reads = []
    real_version_of = consumers.selectors.game_version_of
    monkeypatch.setattr(consumers.selectors, "game_version_of", lambda game_id: reads.append(game_id) or real_version_of(game_id))

    async def heartbeat(socket) -> None:
        await socket.send_to(text_data='{"type":"ping"}')
        while is_presence(message := await WebsocketCommunicator.receive_from(socket, timeout=5)):
            pass
        assert json.loads(message) == {"type": "pong"}

    async def scenario():
        socket = communicator_for(game, bo, stamp=live.stamp_of(game))
        assert (await socket.connect())[0]
        assert await socket.receive_nothing(timeout=0.3)
        monkeypatch.setattr(realtime, "announce_version", lambda game_id, version: None)  # lost
        await sync_to_async(services.submit_move)(game_id=game.pk, user=ana, move={"type": "add", "n": 2},
                                                  expected_version=0)
        await heartbeat(socket)
        assert await socket.receive_nothing(timeout=0.5) and reads == []  # too soon: no read
        monkeypatch.setattr(consumers, "STALE_CHECK_SECONDS", 0.0)
        await heartbeat(socket)
        assert 'stamp="1.' in await socket.receive_from(timeout=5)  # caught up to the move
        await heartbeat(socket)
        assert await socket.receive_nothing(timeout=0.5)  # current: read, nothing sent
        assert reads == [game.pk, game.pk]
        await socket.disconnect()
        await close_db_connections()

    run_scenario(scenario)


def test_a_burst_of_versions_is_announced_as_the_first_and_then_the_latest(monkeypatch):
    """A process announces a game's versions at most once per interval: the first at once, the
    ones committed during the interval as one announcement of the latest when it ends (a 100-seat
    round's submissions were each answered by all 100 sockets). A version after a quiet spell is
    announced by itself."""
    from channels.layers import get_channel_layer

    from games import realtime

    monkeypatch.setattr(realtime, "VERSION_INTERVAL_SECONDS", 1.0)  # wide: a slow machine stays inside it
    game_id = 9_900_000 + threading.get_ident() % 1000  # no game: only the group's messages matter

    async def scenario():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(realtime.group_name(game_id), channel)
        for version in range(1, 6):
            realtime.announce_version(game_id, version)
        announced = [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(2)]
        assert [message["version"] for message in announced] == [1, 5]
        assert announced[0]["id"] != announced[1]["id"]  # two reads: the second must not reuse the first's
        await asyncio.sleep(1.2)
        realtime.announce_version(game_id, 6)
        # The next message is 6: nothing else was announced in between.
        assert (await asyncio.wait_for(layer.receive(channel), 5))["version"] == 6
        await layer.group_discard(realtime.group_name(game_id), channel)

    run_scenario(scenario)


def test_a_move_answered_over_http_is_not_sent_again_to_the_pages_own_socket(make_user):
    """The answer to a page's own htmx move carries every region at its version; the page's socket
    (named by the same page id) then sends nothing for it, while another tab of the same player
    and the other players get their frames. A page whose answer was lost asks for everything."""
    from django.test import Client

    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    stamp = live.stamp_of(game)

    def named(user, name):
        socket = communicator_for(game, user, stamp=stamp)
        socket.scope["query_string"] = f"stamp={stamp}&page={name}".encode()
        return socket

    def move_from_page(user, name, n, version):
        client = Client()
        client.force_login(user)
        answer = client.post(f"/games/{game.pk}/move/", {"move": json.dumps({"type": "add", "n": n}), "version": version},
                             HTTP_HX_REQUEST="true", HTTP_X_LIVE_PAGE=name)
        assert answer.status_code == 200, answer.content
        return answer.json()

    async def scenario():
        own, other_tab, bo_socket = named(ana, "ana-page-0001"), named(ana, "ana-page-0002"), named(bo, "bo-page-0001")
        for socket in (own, other_tab, bo_socket):
            assert (await socket.connect())[0]
        assert await own.receive_nothing(timeout=0.3)
        answer = await sync_to_async(move_from_page)(ana, "ana-page-0001", 2, 0)
        assert answer["stamp"].startswith("1.") and answer["regions"]
        assert 'stamp="1.' in await other_tab.receive_from(timeout=5)
        assert 'stamp="1.' in await bo_socket.receive_from(timeout=5)
        assert await own.receive_nothing(timeout=1)  # the answer carried it
        # Bo's move: Ana's page is sent what changed since the version it was answered at.
        await sync_to_async(move_from_page)(bo, "bo-page-0001", 1, 1)
        assert 'stamp="2.' in await own.receive_from(timeout=5)
        # A page that lost an answer asks for every region.
        await own.send_to(text_data=json.dumps({"type": "sync", "stamp": ""}))
        assert 'stamp="2.' in await own.receive_from(timeout=5)
        for socket in (own, other_tab, bo_socket):
            await socket.disconnect()
        await close_db_connections()

    run_scenario(scenario)


def test_a_sockets_process_far_behind_still_gets_every_announcement():
    """A process that reads its announcements late gets every one of them. (With channels_redis's
    list layer, all the sockets of a process shared one queue in Redis, and a group send to a full
    queue was dropped without an error: at its default capacity, 100, a process a second behind in
    a burst lost a round's last announcement, and its pages showed the round open. The Pub/Sub
    layer keeps each socket's messages in the process: hexsite/channel_layer.py.)"""
    from channels.layers import get_channel_layer

    behind = 400  # announcements waiting for the process before it reads any of them

    async def scenario():
        layer = get_channel_layer()
        sockets = [await layer.new_channel() for _ in range(3)]  # one process's channels: one queue
        groups = [f"game-far-behind-{n}-{threading.get_ident()}" for n in range(2)]
        for group in groups:
            for channel in sockets:
                await layer.group_add(group, channel)
        for group in groups:  # subscribed: a first message through each group arrives
            await layer.group_send(group, {"type": "game.version", "version": -1})
            for channel in sockets:
                assert (await asyncio.wait_for(layer.receive(channel), 5))["version"] == -1
        for version in range(behind):
            await layer.group_send(groups[version % 2], {"type": "game.version", "version": version})
        for channel in sockets:
            received = []
            while len(received) < behind:
                try:
                    received.append((await asyncio.wait_for(layer.receive(channel), 3))["version"])
                except asyncio.TimeoutError:
                    break  # the rest was dropped
            assert received == list(range(behind)), f"{behind - len(received)} announcements dropped"
        for group in groups:
            for channel in sockets:
                await layer.group_discard(group, channel)

    run_scenario(scenario)


def test_only_a_page_that_may_have_been_answered_reads_its_answers_keys(make_user, monkeypatch):
    """A catch-up whose viewer's own regions changed reads the keys of the page's latest HTTP
    answer only when the page may have had one since its last frame (an announcement said so, or
    its seat moved): a spectator's or a waiting player's socket makes no round trip for them."""
    ana, bo, cy = make_user(), make_user(), make_user()
    game = toy_game(ana, bo)
    reads: list[str] = []
    read = live.answered_keys
    monkeypatch.setattr(live, "answered_keys", lambda game_id, page: reads.append(page) or read(game_id, page))
    pages = {user: consumers.Page(name=f"page-of-{user.pk:04d}") for user in (ana, bo, cy)}
    for user in (ana, bo, cy):
        consumers.catch_up(game.pk, user, pages[user])

    services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 2}, expected_version=0)
    live.answer(live.LiveView(Game.objects.get(pk=game.pk), ana), "token", page=pages[ana].name)
    for user in (bo, cy):
        assert consumers.catch_up(game.pk, user, pages[user]), "Bo's and Cy's pages are sent version 1"
    assert reads == []
    assert consumers.catch_up(game.pk, ana, pages[ana]) == [], "Ana's answer had every region"
    assert reads == [pages[ana].name]

    # An announcement says Bo's page was answered at version 2 (a write of his), then Ana moves:
    # his socket reads what that answer sent.
    services.submit_move(game_id=game.pk, user=bo, move={"type": "add", "n": 1}, expected_version=1)
    services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 1}, expected_version=2)
    pages[bo].answered = 2  # as GameConsumer.game_version records it
    consumers.catch_up(game.pk, bo, pages[bo])
    assert reads == [pages[ana].name, pages[bo].name]
    assert consumers.catch_up(game.pk, cy, pages[cy]) and reads == [pages[ana].name, pages[bo].name]


def test_a_live_games_socket_work_goes_before_correspondence_work_already_waiting(make_user):
    """The sockets' threads take a live room's catch-up (a turn clock of minutes) before the
    catch-ups of correspondence games queued ahead of it; within each class, first come first."""
    ana, bo = make_user(), make_user()
    assert consumers.is_live_game(toy_game(ana, bo, turn_seconds=60))
    assert not consumers.is_live_game(toy_game(ana, bo, turn_seconds=3 * 86400))
    assert not consumers.is_live_game(toy_game(ana, bo))  # no clock: nobody waits on one

    pool = consumers._ProcessThreadPool(1)
    busy, order = threading.Event(), []
    pool.submit(busy.wait, 5)  # the one thread is drawing
    futures = []
    for name, live_game in [("hextension 1", False), ("hextension 2", False), ("room", True), ("hextension 3", False),
                            ("room again", True)]:
        token = consumers._live_work.set(live_game)
        futures.append(pool.submit(order.append, name))
        consumers._live_work.reset(token)
    busy.set()
    for future in futures:
        future.result(5)
    pool.shutdown()
    assert order == ["room", "room again", "hextension 1", "hextension 2", "hextension 3"]


# --- frames and addresses the page never sends ---------------------------------------------------

@pytest.mark.parametrize("frame", [
    {"text_data": "[" * 100_000},  # json.loads raises RecursionError, not ValueError
    {"text_data": "not json"},
    {"text_data": '"ping"'},
    {"text_data": '{"type": "dance"}'},
    {"bytes_data": b'{"type": "ping"}'},
], ids=["deeply-nested", "not-json", "not-an-object", "unknown-type", "binary"])
def test_a_frame_the_page_never_sends_closes_the_socket_with_a_code_and_frees_its_place(make_user, frame):
    """Each such socket ends as a closed one, not a crash, and gives its place back: before, each
    crash kept the user's place for PRESENCE_TTL (an hour), and a few of them got every new socket
    of that user on that game closed with 4409."""
    from games import presence
    from games.consumers import CLOSE_BAD_FRAME

    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)

    async def scenario():
        for _ in range(presence.MAX_SOCKETS_PER_GAME + 1):
            socket = communicator_for(game, ana, stamp=live.stamp_of(game))
            assert (await socket.connect())[0]
            await socket.send_to(**frame)
            while (output := await socket.receive_output(timeout=5))["type"] != "websocket.close":
                assert is_presence(output["text"])
            assert output == {"type": "websocket.close", "code": CLOSE_BAD_FRAME}
            await socket.disconnect(timeout=10)  # as Daphne tells the consumer once the socket is closed
            assert await sync_to_async(presence.connected)(game.pk, [ana.pk]) == set()
        again = communicator_for(game, ana, stamp=live.stamp_of(game))
        assert (await again.connect())[0] and await again.receive_nothing(timeout=0.3)
        await again.disconnect(timeout=10)
        await close_db_connections()

    run_scenario(scenario)


def test_a_socket_whose_work_raises_still_gives_back_its_place(make_user, monkeypatch):
    """Whatever a handler raises (here a catch-up), the socket's place in the counts is given
    back as the consumer ends, though disconnect() is never called."""
    from games import presence

    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    connected = threading.Event()
    real = consumers.catch_up

    def catch_up_that_fails_once_connected(*args, **kwargs):
        if connected.is_set():
            raise RuntimeError("a catch-up that fails")
        return real(*args, **kwargs)

    monkeypatch.setattr(consumers, "catch_up", catch_up_that_fails_once_connected)

    async def scenario():
        socket = communicator_for(game, ana, stamp=live.stamp_of(game))
        assert (await socket.connect())[0]
        assert is_presence(await WebsocketCommunicator.receive_from(socket, timeout=5))  # her own arrival, counted
        assert await sync_to_async(presence.connected)(game.pk, [ana.pk]) == {ana.pk}
        connected.set()
        await socket.send_to(text_data=json.dumps({"type": "sync", "stamp": ""}))
        with pytest.raises(RuntimeError, match="a catch-up that fails"):
            while True:
                await socket.receive_output(timeout=5)
        assert await sync_to_async(presence.connected)(game.pk, [ana.pk]) == set()
        await close_db_connections()

    run_scenario(scenario)


@pytest.mark.parametrize("path", ["/ws/games/abc/", "/ws/other/", "/ws/", "/elsewhere"])
def test_a_socket_to_an_address_no_route_serves_is_refused_at_the_handshake(make_user, caplog, path):
    """Refused before it is accepted (Daphne answers the handshake 403), not a router's
    ValueError (a 500 and a traceback in the log)."""
    ana = make_user()

    async def scenario():
        socket = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://localhost")])
        socket.scope["user"] = ana
        connected, _code = await socket.connect()
        assert not connected
        await close_db_connections()

    run_scenario(scenario)
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR or record.exc_info]


def test_the_list_of_players_follows_their_seats_and_the_game_s_end(make_user):
    """Who holds each seat is in the players' list (``game-presence``), which is drawn again when
    the seats change hands (a player sits down, an AI stands in) or the game ends, not only when
    someone opens or closes the page (found by the reload walk, tests/e2e/test_reload_walk.py)."""
    ana, bo = make_user("ana"), make_user("bo")
    game = services.create_game(kind="toy", config={"players": 3}, created_by=ana)

    async def next_presence(socket, timeout=5):
        while not is_presence(message := await WebsocketCommunicator.receive_from(socket, timeout=timeout)):
            pass
        return html_of(message)

    async def scenario():
        socket = communicator_for(game, ana, stamp=live.stamp_of(game), socket_class=WebsocketCommunicator)
        assert (await socket.connect())[0]
        assert "ana" in await next_presence(socket)  # her own arrival
        await sync_to_async(services.join_game)(game_id=game.pk, user=bo)  # nobody connects or leaves
        assert "bo" in await next_presence(socket)
        await socket.disconnect()
        await close_db_connections()

    run_scenario(scenario)
