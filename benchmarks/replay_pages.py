"""Replay pages: the time to draw one step of a long game's replay (the step's state and the turn
marks come from one pass over every event up to the viewer's limit).

A Hexland room of 2 players after 400 random legal moves, and a finished 8-player Hextension
game (3 tiles a round): each replay page at the start, the middle and the end, rendered through
Django's test client by a player (ms per page, median and max of 5).
Real PostgreSQL and Redis (run through `make bench` or hexsite.localservices).
"""
from __future__ import annotations

import random
import statistics
import time

from _django import benchmark_database

HEXLAND_MOVES = 400
REPEATS = 5


def hexland_room(users):
    from games import services, state_store
    from games.hexland import engine
    from games.models import Game

    game = services.create_game(kind="hexland", config={"players": 2, "layout": "fixed", "timers": "normal"},
                                created_by=users[0], players=users[:2], join=False, turn_seconds=3600)
    services.start_game(game_id=game.pk)
    rng = random.Random(1)
    for _ in range(HEXLAND_MOVES):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            break
        seat = game.awaiting[0]
        moves = [m for m in engine.view(state_store.load(game), seat)["legal_moves"] if m["type"] != "offer"]
        services.submit_move(game_id=game.pk, user=users[seat], move=rng.choice(moves), expected_version=game.version)
    return Game.objects.get(pk=game.pk)


def hextension_game(users):
    from games import services, state_store
    from games.hextension import engine
    from games.models import Game

    game = services.create_game(kind="hextension", config={"players": 8, "tiles_per_round": 3}, created_by=users[0],
                                players=users, join=False, turn_seconds=86400)
    services.start_game(game_id=game.pk)
    rng = random.Random(2)
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            return game
        for seat in list(game.awaiting):
            game = Game.objects.get(pk=game.pk)
            move = rng.choice(engine.legal_moves(state_store.load(game), seat))
            services.submit_move(game_id=game.pk, user=users[seat], move=move, expected_version=game.version)


def time_pages(client, game, last):
    from django.urls import reverse

    rows = []
    for at in (0, last // 2, last):
        times = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            response = client.get(reverse("game_replay", args=[game.pk]), {"at": at})
            times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200
        rows.append((at, statistics.median(times), max(times)))
    return rows


def main():
    from django.conf import settings
    from django.test import Client

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]

    from accounts.models import User

    users = [User.objects.create_user(f"bench-replay-{i}") for i in range(8)]
    client = Client()
    client.force_login(users[0])
    for name, game in (("hexland", hexland_room(users)), ("hextension", hextension_game(users))):
        print(f"{name}: {game.version} events, status {game.status}")
        for at, median, worst in time_pages(client, game, game.version):
            print(f"  replay step {at:4d}: median {median:7.1f} ms, max {worst:7.1f} ms")


if __name__ == "__main__":
    with benchmark_database():
        main()
