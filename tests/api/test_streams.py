"""The NDJSON streams, through the ASGI application as Daphne serves them, over the real Redis
channel layer: the first lines, a line per new version, the end; the events stream; keep-alive
lines; a revoked token ends an open stream; refusals as problem documents."""
from __future__ import annotations

import asyncio
import datetime as dt
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import ApplicationCommunicator
from django.utils import timezone

from api import streams, tokens
from api.models import ALL_SCOPES
from games import services, state_store
from games.models import Game
from games.sites import get_engine
from hexsite.asgi import application
from tests.support.factories import toy_game
from tests.web.test_consumer import close_db_connections, run_scenario

pytestmark = pytest.mark.django_db(transaction=True)


def stream_request(path: str, secret: str | None, query: bytes = b"") -> ApplicationCommunicator:
    headers = [(b"host", b"testserver")]
    if secret:
        headers.append((b"authorization", f"Bearer {secret}".encode()))
    scope = {"type": "http", "http_version": "1.1", "method": "GET", "path": path, "raw_path": path.encode(),
             "root_path": "", "scheme": "http", "query_string": query, "headers": headers,
             "client": ("127.0.0.1", 1234), "server": ("testserver", 80)}
    return ApplicationCommunicator(application, scope)


class Reader:
    """Reads an NDJSON answer line by line (blank lines counted apart)."""

    def __init__(self, communicator: ApplicationCommunicator):
        self.communicator, self.buffer, self.blank, self.ended = communicator, b"", 0, False

    async def start(self) -> dict:
        await self.communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
        return await self.communicator.receive_output(timeout=5)

    async def line(self, timeout: float = 5) -> dict | None:
        while True:
            while b"\n" in self.buffer:
                text, self.buffer = self.buffer.split(b"\n", 1)
                if text.strip():
                    return json.loads(text)
                self.blank += 1
            if self.ended:
                return None
            message = await self.communicator.receive_output(timeout=timeout)
            self.buffer += message.get("body", b"")
            self.ended = not message.get("more_body", False)

    async def close(self) -> None:
        await self.communicator.send_input({"type": "http.disconnect"})
        await self.communicator.wait(timeout=5)


def secret_of(user, scopes=ALL_SCOPES) -> str:
    return tokens.create_token(owner=user, name="stream", scopes=scopes)[1]


def play_to_the_end(game) -> None:
    engine = get_engine(game.kind)
    while True:
        game.refresh_from_db()
        if game.status != "active":
            return
        seat = game.awaiting[0]
        move = engine.legal_moves(state_store.load(game), seat)[0]
        services.submit_move(game_id=game.pk, user=game.seats.get(index=seat).user, move=move,
                             expected_version=game.version)


def test_a_games_stream_sends_the_game_then_each_version_then_its_end(make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo, target=6)
    secret = secret_of(ana)

    async def scenario():
        reader = Reader(stream_request(f"/api/v1/games/{game.pk}/stream", secret))
        start = await reader.start()
        assert start["status"] == 200 and (b"Content-Type", b"application/x-ndjson") in start["headers"]
        full = await reader.line()
        assert full["type"] == "gameFull" and full["id"] == game.pk and full["your_seat"] == 0
        assert full["view"] == get_engine("toy").view(await sync_to_async(state_store.load)(game), 0)
        first_seat = game.awaiting[0]
        await sync_to_async(services.submit_move)(game_id=game.pk, user=(ana, bo)[first_seat],
                                                  move={"type": "add", "n": 1}, expected_version=0)
        state = await reader.line()
        assert state["type"] == "gameState" and state["version"] == 1
        await sync_to_async(play_to_the_end)(game)
        versions, last = [1], None
        while (line := await reader.line()) is not None:
            last = line
            versions.append(line["version"])
        assert last["type"] == "gameFinish" and last["status"] == "finished" and last["result"]
        assert versions == sorted(versions)  # skipped perhaps, never reordered
        await close_db_connections()

    run_scenario(scenario)


def test_since_resumes_without_sending_again_what_was_seen(make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    secret = secret_of(ana)

    async def scenario():
        reader = Reader(stream_request(f"/api/v1/games/{game.pk}/stream", secret, query=f"since={game.version}".encode()))
        assert (await reader.start())["status"] == 200
        first_seat = game.awaiting[0]
        await sync_to_async(services.submit_move)(game_id=game.pk, user=(ana, bo)[first_seat],
                                                  move={"type": "add", "n": 1}, expected_version=0)
        line = await reader.line()
        # Nothing of version 0 again: the first line is version 1 (a gameFull if the move was
        # committed before the stream first read the game, else a gameState).
        assert line["version"] == 1 and line["type"] in ("gameFull", "gameState")
        await reader.close()
        await close_db_connections()

    run_scenario(scenario)


def test_a_stream_opened_before_the_start_sends_the_start_and_the_seat_that_joined(make_user):
    """A game's start changes its status, not its version: the stream still says so."""
    ana, bo = make_user(), make_user()
    game = services.create_game(kind="toy", config={"players": 2, "target": 6}, created_by=ana)
    secret = secret_of(ana)

    async def scenario():
        reader = Reader(stream_request(f"/api/v1/games/{game.pk}/stream", secret))
        assert (await reader.start())["status"] == 200
        full = await reader.line()
        assert full["type"] == "gameFull" and full["status"] == "open" and full["to_move"] is False
        await sync_to_async(services.join_game)(game_id=game.pk, user=bo)  # the last seat: it starts
        state = await reader.line()
        while state["status"] == "open":  # the join, announced on its own, may come first
            state = await reader.line()
        assert state["type"] == "gameState" and state["status"] == "active" and state["version"] == full["version"]
        started = await sync_to_async(Game.objects.get)(pk=game.pk)
        assert state["to_move"] is (0 in started.awaiting) and bool(state["legal_moves"]) is state["to_move"]
        await reader.close()
        await close_db_connections()

    run_scenario(scenario)


def test_the_events_stream_sends_pending_events_then_new_ones(make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    first_seat = game.awaiting[0]
    mover, other = (ana, bo) if first_seat == 0 else (bo, ana)
    secret = secret_of(other)

    async def scenario():
        reader = Reader(stream_request("/api/v1/stream/events", secret))
        assert (await reader.start())["status"] == 200
        assert await reader.line() == {"type": "gameStart", "game": {"id": game.pk, "game": "toy", "version": 0}}
        await sync_to_async(services.submit_move)(game_id=game.pk, user=mover, move={"type": "add", "n": 1},
                                                  expected_version=0)
        assert await reader.line() == {"type": "yourTurn", "game": {"id": game.pk, "game": "toy", "version": 1}}
        await reader.close()
        await close_db_connections()

    run_scenario(scenario)


def test_keepalive_lines_and_a_revoked_token_ends_the_stream(make_user, monkeypatch):
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 0.2)
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    token, secret = tokens.create_token(owner=ana, name="stream")

    async def scenario():
        reader = Reader(stream_request(f"/api/v1/games/{game.pk}/stream", secret))
        assert (await reader.start())["status"] == 200
        assert (await reader.line())["type"] == "gameFull"
        await asyncio.sleep(0.7)
        await sync_to_async(tokens.revoke_token)(owner=ana, token_id=token.pk)
        assert await reader.line(timeout=5) is None  # the answer ended
        assert reader.blank >= 1
        await close_db_connections()

    run_scenario(scenario)


def test_a_stream_ends_when_its_token_expires_without_reading_it_again(make_user, monkeypatch):
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 0.2)
    monkeypatch.setattr(streams, "TOKEN_CHECK_SECONDS", 3600)
    ana = make_user()
    _token, secret = tokens.create_token(owner=ana, name="brief", expires_at=timezone.now() + dt.timedelta(seconds=2))

    async def scenario():
        reader = Reader(stream_request("/api/v1/stream/events", secret))
        assert (await reader.start())["status"] == 200
        while await reader.line(timeout=5) is not None:
            pass
        assert reader.blank >= 1  # it was open for a few beats, then ended by itself
        await close_db_connections()

    run_scenario(scenario)


@pytest.mark.parametrize("stream", ["game", "events"])
def test_revoking_a_token_ends_its_streams_at_once_and_no_other(make_user, monkeypatch, stream):
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 3600)  # no beat: the revocation itself ends it
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    token, secret = tokens.create_token(owner=ana, name="revoked")
    other_secret = secret_of(ana)
    path = f"/api/v1/games/{game.pk}/stream" if stream == "game" else "/api/v1/stream/events"

    async def scenario():
        revoked, kept = Reader(stream_request(path, secret)), Reader(stream_request(path, other_secret))
        for reader in (revoked, kept):
            assert (await reader.start())["status"] == 200
            assert (await reader.line())["type"] in ("gameFull", "gameStart")
        await sync_to_async(tokens.revoke_token)(owner=ana, token_id=token.pk)
        while await revoked.line(timeout=5) is not None:  # what was pending, then the answer ends
            pass
        first_seat = game.awaiting[0]
        await sync_to_async(services.submit_move)(game_id=game.pk, user=(ana, bo)[first_seat],
                                                  move={"type": "add", "n": 1}, expected_version=0)
        if stream == "game":  # the other token's stream goes on
            assert (await kept.line())["version"] == 1
        await kept.close()
        await close_db_connections()

    run_scenario(scenario)


@pytest.mark.parametrize("who, status", [("nobody", 401), ("no-read", 403), ("stranger", 403), ("missing", 404)])
def test_stream_refusals_are_problem_documents(make_user, who, status):
    ana, bo, stranger = make_user(), make_user(), make_user()
    game = toy_game(ana, bo, visibility="private")
    secret = {"nobody": None, "no-read": secret_of(ana, ["play"]), "stranger": secret_of(stranger),
              "missing": secret_of(ana)}[who]
    path = f"/api/v1/games/{game.pk + 1000 if who == 'missing' else game.pk}/stream"

    async def scenario():
        reader = Reader(stream_request(path, secret))
        start = await reader.start()
        assert start["status"] == status
        assert (b"Content-Type", b"application/problem+json") in start["headers"]
        body = await reader.communicator.receive_output(timeout=5)
        assert json.loads(body["body"])["detail"]
        await close_db_connections()

    run_scenario(scenario)


def test_a_page_process_sends_streams_to_the_socket_processes(client, make_user, settings):
    settings.LIVE_SOCKET_PORT = 8001
    answer = client.get("/api/v1/stream/events?x=1")
    assert answer.status_code == 307 and answer["Location"] == "http://testserver:8001/api/v1/stream/events?x=1"


def test_streams_count_among_the_users_sockets(make_user, monkeypatch):
    from games import presence

    monkeypatch.setattr(presence, "MAX_SOCKETS_PER_USER", 1)
    secret = secret_of(make_user())

    async def scenario():
        first = Reader(stream_request("/api/v1/stream/events", secret))
        assert (await first.start())["status"] == 200
        second = Reader(stream_request("/api/v1/stream/events", secret))
        start = await second.start()
        assert start["status"] == 429 and (b"Retry-After", b"60") in start["headers"]
        await first.close()
        third = Reader(stream_request("/api/v1/stream/events", secret))
        assert (await third.start())["status"] == 200  # the first one's place was given back
        await third.close()
        await close_db_connections()

    run_scenario(scenario)


def test_a_token_holds_a_limited_number_of_streams(make_user, settings):
    settings.API_STREAMS_PER_TOKEN = 1
    user = make_user()
    secret, other_secret = secret_of(user), secret_of(user)

    async def scenario():
        first = Reader(stream_request("/api/v1/stream/events", secret))
        assert (await first.start())["status"] == 200
        second = Reader(stream_request("/api/v1/stream/events", secret))
        start = await second.start()
        assert start["status"] == 429 and (b"Retry-After", b"60") in start["headers"]
        assert b"too many streams open" in (await second.communicator.receive_output(timeout=5))["body"]
        other = Reader(stream_request("/api/v1/stream/events", other_secret))
        assert (await other.start())["status"] == 200  # the limit is the token's
        await other.close()
        await first.close()
        third = Reader(stream_request("/api/v1/stream/events", secret))
        assert (await third.start())["status"] == 200  # the first one's place was given back
        await third.close()
        await close_db_connections()

    run_scenario(scenario)
