"""Hexland rooms on the site: an AI seat's move, and a move's push to every socket.

1. AI move: from the previous move's commit to the AI's move committed (think from the seat's
   view + the write path), per level, over whole 4-AI games (p50 / p95 / max).
2. Push: from a move's commit to its arrival at every socket of a room with 4 players and 10
   spectators, over the real Redis channel layer (each socket renders its own user's view),
   p50 / p95 / max, and bytes per push.
3. Rooms at once: from (1) and (2), how many 4-AI rooms at the fast preset one core carries
   (each room makes a move every GAME_AI_DELAY_SECONDS + think time).
Real PostgreSQL and Redis (run through `make bench` or hexsite.localservices).
"""
from __future__ import annotations

import asyncio
import time

from _django import benchmark_database, percentile

AI_MOVES_PER_LEVEL = 200
PUSH_MOVES = 40


def ai_latency(level: str) -> list[float]:
    from accounts.models import User
    from games import services
    from games.models import Game

    host = User.objects.create_user(f"bench-host-{level}")
    times: list[float] = []
    while len(times) < AI_MOVES_PER_LEVEL:
        game = services.create_game(kind="hexland", config={"players": 4, "timers": "fast"}, created_by=host,
                                    ai_seats={i: level for i in range(4)}, join=False, turn_seconds=60)
        services.start_game(game_id=game.pk)
        game = Game.objects.get(pk=game.pk)
        while game.status == Game.Status.ACTIVE and len(times) < AI_MOVES_PER_LEVEL:
            start = time.perf_counter()
            services.play_ai_move(game_id=game.pk, expected_version=game.version, seat=game.awaiting[0])
            times.append((time.perf_counter() - start) * 1000)
            game.refresh_from_db()
    return times


async def push_latency() -> tuple[list[float], list[int]]:
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from accounts.models import User
    from games import services, state_store
    from games.hexland import engine
    from games.models import Game
    from hexsite.asgi import application

    @database_sync_to_async
    def setup():
        players = [User.objects.create_user(f"bench-p{i}") for i in range(4)]
        watchers = [User.objects.create_user(f"bench-w{i}") for i in range(10)]
        game = services.create_game(kind="hexland", config={"players": 4, "layout": "fixed"}, created_by=players[0],
                                    players=players, join=False, turn_seconds=3600)
        services.start_game(game_id=game.pk)
        return players, watchers, Game.objects.get(pk=game.pk)

    @database_sync_to_async
    def move(game_id, players):
        game = Game.objects.get(pk=game_id)
        seat = game.awaiting[0]
        view = engine.view(state_store.load(game), seat)
        choice = next((m for m in view["legal_moves"] if m["type"] != "offer"), view["legal_moves"][0])
        services.submit_move(game_id=game_id, user=players[seat], move=choice, expected_version=game.version)

    players, watchers, game = await setup()
    sockets = []
    for user in players + watchers:
        communicator = WebsocketCommunicator(application, f"/ws/games/{game.pk}/?token={game.board_token}",
                                             headers=[(b"origin", b"http://localhost")])
        communicator.scope["user"] = user
        connected, _ = await communicator.connect()
        assert connected
        sockets.append(communicator)
    latencies, sizes = [], []

    async def arrival(communicator):
        while True:  # who-is-connected fragments are not the move's push
            message = await communicator.receive_from(timeout=10)
            if not message.lstrip().startswith('<ul id="game-presence"'):
                return time.perf_counter(), len(message.encode())

    for communicator in sockets:  # the arrivals' presence fragments, before the first move
        while not await communicator.receive_nothing(timeout=0.3):
            await communicator.receive_from()

    for _ in range(PUSH_MOVES):
        waiting = [asyncio.ensure_future(arrival(c)) for c in sockets]
        # From the submission: the write and its commit, then the announcement and each
        # socket's own render (the sockets render while the service is still returning).
        submitted = time.perf_counter()
        await move(game.pk, players)
        for at, size in await asyncio.gather(*waiting):
            latencies.append((at - submitted) * 1000)
            sizes.append(size)
    for communicator in sockets:
        await communicator.disconnect()
    return latencies, sizes


def main() -> None:
    from django.conf import settings

    with benchmark_database():
        print("Hexland: an AI seat's move (think from its view + write), whole 4-AI games")
        per_move = {}
        for level in ("easy", "medium", "hard"):
            times = ai_latency(level)
            per_move[level] = sum(times) / len(times)
            print(f"  {level:6} {len(times)} moves: p50 {percentile(times, 50):.1f} ms  p95 {percentile(times, 95):.1f} ms"
                  f"  max {max(times):.1f} ms")
        latencies, sizes = asyncio.run(push_latency())
        print(f"Hexland: a move pushed to 14 sockets (4 players, 10 spectators), {PUSH_MOVES} moves:")
        print(f"  from submitting the move to its arrival (write included): p50 {percentile(latencies, 50):.1f} ms  "
              f"p95 {percentile(latencies, 95):.1f} ms  max {max(latencies):.1f} ms;  "
              f"{sum(sizes) / len(sizes) / 1024:.1f} KiB a push")
        delay = settings.GAME_AI_DELAY_SECONDS
        for level, ms in per_move.items():
            moves_per_room = 1 / (delay + ms / 1000)
            print(f"  rooms at once ({level}, one core, one socket each): about "
                  f"{int(1000 / (ms * moves_per_room))} rooms at {moves_per_room:.1f} moves/s each")


if __name__ == "__main__":
    main()
