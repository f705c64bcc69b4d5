"""What a stream last sent equals a fresh read (issue 45's invariant, for the API's streams):
a Hextension game walked through its whole life with a game stream open for every role (the
host, two players, a spectator); after every step each stream's last line, less its ``type``,
must become what ``GET /api/v1/games/{id}`` answers that viewer now. A stream that stays silent
where the game changed (its start, a resignation, its end) fails the walk, as does one that
sends something a fresh read would not. A second walk follows a game cancelled before it starts.

The game is driven through the services; the moves are random legal ones from a seeded RNG
(the run's ``HEXSITE_TEST_SEED`` draws them again); the AI seats move by their own bots, called
directly (no Celery worker runs)."""
from __future__ import annotations

import asyncio
import difflib
import json
import random

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from api import streams
from games import services
from games.models import Game
from games.services import chat
from tests.api.test_streams import Reader, secret_of, stream_request
from tests.support.play import random_move, time_out
from tests.web.test_consumer import close_db_connections, run_scenario

pytestmark = pytest.mark.django_db(transaction=True)

# How long a stream may take to show a step (an announcement is sent after the commit, at most
# every LIVE_VERSION_INTERVAL_SECONDS a game); not a speed check, a bound on waiting.
SETTLE_SECONDS = 15.0


class Viewer:
    """One role's stream of the game and the API's answer to compare it with."""

    def __init__(self, label: str, user, game_id: int):
        self.label, self.user, self.game_id = label, user, game_id
        self.secret = secret_of(user)
        self.reader = Reader(stream_request(f"/api/v1/games/{game_id}/stream", self.secret))
        self.last: dict | None = None
        self.types: list[str] = []

    def fresh_read(self) -> dict:
        answer = Client().get(f"/api/v1/games/{self.game_id}", HTTP_AUTHORIZATION=f"Bearer {self.secret}")
        assert answer.status_code == 200, (self.label, answer.status_code)
        return answer.json()

    def _take_buffered(self) -> None:
        while b"\n" in self.reader.buffer:
            text, self.reader.buffer = self.reader.buffer.split(b"\n", 1)
            if text.strip():
                line = json.loads(text)
                self.types.append(line.pop("type"))
                self.last = line

    async def settle(self, step: str) -> None:
        """Wait until the last line sent is what a fresh read answers; fail, with the difference,
        if it is not after SETTLE_SECONDS."""
        expected = await sync_to_async(self.fresh_read)()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETTLE_SECONDS
        while True:
            self._take_buffered()
            if self.last == expected:
                return
            remaining = deadline - loop.time()
            if remaining <= 0 or self.reader.ended:
                raise AssertionError(f"{step}: {self.label}'s stream shows what a fresh read does not "
                                     f"(last lines {self.types[-3:]}, ended: {self.reader.ended}):\n"
                                     + difference(self.last, expected))
            # receive_nothing waits without ending the stream (a receive that times out cancels it).
            if not await self.reader.communicator.receive_nothing(timeout=min(0.1, remaining)):
                message = await self.reader.communicator.receive_output(timeout=1)
                self.reader.buffer += message.get("body", b"")
                self.reader.ended = not message.get("more_body", False)


    async def until_ended(self) -> None:
        """The answer's end, after its last line (a finished game's stream ends by itself)."""
        while not self.reader.ended:
            message = await self.reader.communicator.receive_output(timeout=5)
            self.reader.buffer += message.get("body", b"")
            self.reader.ended = not message.get("more_body", False)
        self._take_buffered()
        await self.reader.communicator.wait(timeout=5)


def difference(shown: dict | None, expected: dict) -> str:
    lines = lambda data: json.dumps(data, indent=1, sort_keys=True).splitlines()  # noqa: E731
    return "\n".join(list(difflib.unified_diff(lines(shown), lines(expected), "stream", "fresh read", lineterm=""))[:60])


@pytest.fixture
def rng(request):
    seed = random.randrange(1_000_000)  # the run's seed decides it (tests/workers.py)
    print(f"\n{request.node.name}: moves drawn with seed {seed}")
    return random.Random(seed)


@pytest.fixture
def quiet_streams(monkeypatch, settings):
    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 3600)  # only what the walk does is sent
    settings.GAME_MOVE_RATE_LIMIT = (1_000_000, 10)


def test_every_stream_shows_a_fresh_read_after_every_step_of_a_hextension_game(make_user, rng, quiet_streams):
    hana, piet, quin, sven = (make_user(name) for name in ("hana", "piet", "quin", "sven"))
    game = services.create_game(kind="hextension", config={"players": 4, "tiles_per_round": 2}, created_by=hana,
                                turn_seconds=86400)
    viewers = [Viewer(label, user, game.pk) for label, user in
               (("hana (host)", hana), ("piet", piet), ("quin", quin), ("sven (spectator)", sven))]
    players = {0: hana, 1: piet, 2: quin}
    steps: list[str] = []

    def one_move(skip=()) -> int | None:
        """The first awaited seat (but ``skip``) moves: its player a random legal move, an AI
        seat its bot's; None when nobody is to move."""
        current = Game.objects.get(pk=game.pk)
        awaited = [seat for seat in current.awaiting if seat not in skip]
        if current.status != Game.Status.ACTIVE or not awaited:
            return None
        seat = awaited[0]
        if seat in current.ai_seat_indexes():
            services.play_ai_move(game_id=game.pk, expected_version=current.version, seat=seat)
        else:
            services.submit_move(game_id=game.pk, user=players[seat], move=random_move(current, seat, rng),
                                 expected_version=current.version)
        return seat

    async def scenario():
        for viewer in viewers:
            assert (await viewer.reader.start())["status"] == 200

        async def step(label: str, action=None):
            if action is not None:
                await sync_to_async(action)()
            steps.append(label)
            await asyncio.gather(*(viewer.settle(label) for viewer in viewers))

        await step("the game is open")
        await step("piet takes a seat", lambda: services.join_game(game_id=game.pk, user=piet))
        await step("piet leaves", lambda: services.leave_game(game_id=game.pk, user=piet))
        await step("the host gives seat 4 to the AI",
                   lambda: services.set_seat(game_id=game.pk, by_user=hana, index=3, ai_level="greedy"))
        await step("piet takes a seat again", lambda: services.join_game(game_id=game.pk, user=piet))
        await step("quin takes the last seat: the game starts", lambda: services.join_game(game_id=game.pk, user=quin))
        assert [viewer.last["status"] for viewer in viewers] == ["active"] * 4
        assert viewers[0].last["to_move"] and viewers[0].last["legal_moves"] and not viewers[3].last["legal_moves"]

        async def play_round(label: str, skip=(), each_move: bool = False):
            first = (await sync_to_async(Game.objects.get)(pk=game.pk)).turn_started_version
            while (current := await sync_to_async(Game.objects.get)(pk=game.pk)).status == Game.Status.ACTIVE \
                    and current.turn_started_version == first:
                seat = await sync_to_async(one_move)(skip)
                if seat is None:
                    break
                if each_move:
                    await step(f"{label}: seat {seat + 1} moved")
            await step(f"{label}: done")

        # Round 1 move by move; in rounds 2 to 4 quin's time runs out (the AI places for him,
        # then at random, then he is out: docs/hextension.md).
        await play_round("round 1", each_move=True)
        for number in (2, 3, 4):
            await play_round(f"round {number}", skip=(2,))
            await step(f"round {number}: quin's time runs out", lambda: time_out(Game.objects.get(pk=game.pk)))
        assert viewers[2].last["to_move"] is False and viewers[2].last["legal_moves"] == []
        await step("piet writes in the chat", lambda: chat.post_message(game_id=game.pk, user=piet, text="nice"))
        while (await sync_to_async(Game.objects.get)(pk=game.pk)).status == Game.Status.ACTIVE:
            await play_round("a round")
        for viewer in viewers:
            await viewer.until_ended()
        assert [viewer.types[-1] for viewer in viewers] == ["gameFinish"] * 4
        await close_db_connections()

    run_scenario(scenario)
    print(f"{len(steps)} steps checked, each against a fresh read for 4 streams")


def test_a_game_cancelled_before_its_start_ends_every_stream_with_what_a_read_shows(make_user, quiet_streams):
    hana, piet, sven = make_user("hana"), make_user("piet"), make_user("sven")
    game = services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 2}, created_by=hana)
    services.join_game(game_id=game.pk, user=piet)
    viewers = [Viewer(label, user, game.pk) for label, user in (("hana (host)", hana), ("piet", piet),
                                                                ("sven (spectator)", sven))]

    async def scenario():
        for viewer in viewers:
            assert (await viewer.reader.start())["status"] == 200
        await asyncio.gather(*(viewer.settle("the game is open") for viewer in viewers))
        await sync_to_async(services.cancel_game)(game_id=game.pk, by_user=hana)
        await asyncio.gather(*(viewer.settle("the host cancels it") for viewer in viewers))
        for viewer in viewers:
            await viewer.until_ended()
        assert [viewer.types[-1] for viewer in viewers] == ["gameFinish"] * 3
        await close_db_connections()

    run_scenario(scenario)
