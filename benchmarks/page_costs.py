"""Page costs: the CPU and queries of each page the load harness reads, drawn in this process.

The pages of `make load` (dashboard, both lobbies, a Hextension game page, a Hexland room page,
league standings) over the same scenario (20 started Hextension games of 9 players, 4 Hexland
rooms, a league of 30), each read 30 times by players through Django's test client after one
warm-up read: CPU ms per page (median, max), wall ms, queries. A page that costs C ms of CPU
caps one process at 1000/C pages a second, before Daphne's own share.
Real PostgreSQL and Redis (run through `make bench` or hexsite.localservices). ``--profile``: the
reads under cProfile, then the functions by own and by inclusive time. ``--only TEXT``: only the
pages whose name holds TEXT (``--only lobby``, ``--only move``).
"""
from __future__ import annotations

import cProfile
import os
import pstats
import secrets
import statistics
import sys
import time

os.environ["DEBUG"] = "0"  # as production: cached templates (the local launcher turns DEBUG on)
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(40))
os.environ.update(SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="0")  # plain HTTP, as the load harness
from _django import benchmark_database  # noqa: E402

REPEATS = 30


def scenario():
    from django.utils import timezone

    from accounts.models import User
    from games import services
    from games.leagues import services as leagues
    from games.leagues.models import League, LeagueEntry

    users = User.objects.bulk_create(User(username=f"p{i}", email=f"p{i}@example.com") for i in range(188))
    games = []
    for g in range(20):
        table = users[g * 9:(g + 1) * 9]
        game = services.create_game(kind="hextension", config={"players": 9, "tiles_per_round": 2},
                                    created_by=table[0], players=table, turn_seconds=3 * 86400, join=False)
        services.start_game(game_id=game.pk)
        games.append(game)
    rooms = []
    for r in range(4):
        pair = users[180 + 2 * r:182 + 2 * r]
        room = services.create_game(kind="hexland", config={"players": 4, "layout": "fixed", "timers": "fast"},
                                    created_by=pair[0], players=pair, ai_seats={2: "easy", 3: "easy"}, join=False)
        services.start_game(game_id=room.pk)
        rooms.append(room)
    league = League.objects.create(organiser=users[0], name="League", starts_at=timezone.now(),
                                   schedule=League.Schedule.PARALLEL, season_games=2, round_hours=72)
    LeagueEntry.objects.bulk_create(LeagueEntry(league=league, user=u, status=LeagueEntry.Status.APPROVED)
                                    for u in users[:30])
    leagues.start_season(league_id=league.pk)
    return users, games, rooms, league


def main() -> None:
    with benchmark_database():
        from django.conf import settings
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
        users, games, rooms, league = scenario()
        pages = [("dashboard /games/", "/games/"), ("lobby /games/hextension/", "/games/hextension/"),
                 ("lobby /games/hexland/", "/games/hexland/"), ("hextension game page", f"/games/{games[0].pk}/"),
                 ("hexland room page", f"/games/{rooms[0].pk}/"), ("league standings", f"/games/leagues/{league.pk}/")]
        clients = []
        for user in users[:9]:
            client = Client()
            client.force_login(user)
            client.get("/games/hextension/")  # a client loads its middleware (WhiteNoise's file list) on its first request
            clients.append(client)
        only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
        pages = [(name, path) for name, path in pages if only in name]
        profiler = cProfile.Profile() if "--profile" in sys.argv else None
        print(f"{'page':26} {'CPU ms p50':>10} {'max':>7} {'wall ms p50':>11} {'queries':>8} {'KiB':>6}")
        for name, path in pages:
            assert clients[0].get(path).status_code == 200, path  # warm: templates, caches
            cpu, wall = [], []
            for i in range(REPEATS):
                client = clients[i % len(clients)]
                c0, w0 = time.process_time(), time.perf_counter()
                with CaptureQueriesContext(connection) as queries:
                    if profiler:
                        profiler.enable()
                    answer = client.get(path)
                    if profiler:
                        profiler.disable()
                cpu.append((time.process_time() - c0) * 1000)
                wall.append((time.perf_counter() - w0) * 1000)
                assert answer.status_code == 200, (path, answer.status_code)
            print(f"{name:26} {statistics.median(cpu):10.1f} {max(cpu):7.1f} {statistics.median(wall):11.1f} "
                  f"{len(queries):8d} {len(answer.content) / 1024:6.1f}")
        if only in "move (htmx answer)":
            _moves(games, users, profiler)
        if profiler:  # every page read together: where the CPU goes (the timings above include the profiler)
            stats = pstats.Stats(profiler)
            stats.sort_stats("tottime").print_stats(25)
            stats.sort_stats("cumulative").print_stats(45)
            stats.sort_stats("cumulative").print_stats(r"/(games|accounts|hexsite|moderation|templatetags)/", 60)


def _moves(games, users, profiler) -> None:
    """A Hextension submission as the live page sends it (htmx: the answer is the mover's
    regions): the first round of every game, each seat once, measured from the second game."""
    import json

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games import state_store
    from games.hextension import engine as hextension

    cpu, wall, counted = [], [], []
    for number, game in enumerate(games):
        for seat, user in enumerate(users[number * 9:(number + 1) * 9]):
            client = Client()
            client.force_login(user)
            client.get("/games/hextension/")  # a client loads its middleware on its first request
            game.refresh_from_db()
            move = hextension.legal_moves(state_store.load(game), seat)[0]
            c0, w0 = time.process_time(), time.perf_counter()
            with CaptureQueriesContext(connection) as queries:
                if profiler and number:
                    profiler.enable()
                answer = client.post(f"/games/{game.pk}/move/", {"move": json.dumps(move), "version": game.version},
                                     HTTP_HX_REQUEST="true")
                if profiler and number:
                    profiler.disable()
            assert answer.status_code == 200, answer.content[:300]
            if number:  # the first game warms the templates and the engine
                cpu.append((time.process_time() - c0) * 1000)
                wall.append((time.perf_counter() - w0) * 1000)
                counted.append(len(queries))
    print(f"{'move (htmx answer)':26} {statistics.median(cpu):10.1f} {max(cpu):7.1f} {statistics.median(wall):11.1f} "
          f"{int(statistics.median(counted)):8d} {len(answer.content) / 1024:6.1f}")


if __name__ == "__main__":
    main()
