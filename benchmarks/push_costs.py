"""What pushes and pages cost, by the number of seats: bytes, ms and CPU ms per socket push, and
the database queries and ms of each page the load harness reads.

For each size (9 and 100 seats by default; ``--seats 9,30``), a Hextension game of that many
players is played to mid-game (``CLOSED_ROUNDS`` closed rounds, half the seats moved in the
next). Then, with one socket per player:

- within a round: one seat submits; every socket gets what ``games.consumers.catch_up`` sends;
- the round's close: the last seat submits and a new round opens; every socket is pushed again.

Every socket answers the same announcement, as one Daphne's sockets do. Each push's time
includes the consumer's database reads. The process's render caches are emptied before each
submission, so the first socket pays for what the others share; each socket's figure is the
least of ``REPEATS`` runs (the machine is shared), and the lines give the median and largest
push and the sum over all sockets (what one Daphne spends on that submission). CPU is this
process's (``time.process_time``), so PostgreSQL's and Redis's share is not in it.

Hexland (``--hexland``): a room of 4 players on the fixed map and ``HEXLAND_SPECTATORS``
spectators, after ``HEXLAND_WARMUP`` random legal moves; then each of ``HEXLAND_MOVES`` moves is
pushed to the 14 sockets as above, and the lines give the median over those moves of the
per-socket median and of the all-socket sum.

Pages (Django's test client, a signed-in player; queries counted with CaptureQueriesContext):
the game page, the dashboard, the Hextension lobby and a league's standings, each at two sizes,
to show whether the count grows with seats or games.

Run: ``python -m hexsite.localservices -- python benchmarks/push_costs.py`` (the live page's
model: ``games.consumers.catch_up``; commits before it had ``push_for`` and an older copy of
this script). ``--profile`` prints cProfile's cumulative
listing of the largest size's game: its setup, submissions and pushes together.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from _django import benchmark_database
from push_sizes import submit  # one random legal submission, as push_sizes makes it

TILES_PER_ROUND = 2
CLOSED_ROUNDS = 3
PAGE_REPEATS = 5
REPEATS = 3


def make_game(users):
    from games import services

    game = services.create_game(kind="hextension", config={"players": len(users), "tiles_per_round": TILES_PER_ROUND},
                                created_by=None, players=users, turn_seconds=3 * 86400)
    services.start_game(game_id=game.pk)
    return game


def forget_renders() -> None:
    """Empty this process's render caches, as a fresh Daphne would have them."""
    from games import consumers
    from games.hextension import fragments

    consumers.forget_renders()
    fragments.forget()


def current_pages(game_id: int, users) -> dict:
    """Each user's socket state for a page that shows the game as it is now."""
    from games import consumers, live
    from games.models import Game

    stamp = live.stamp_of(Game.objects.get(pk=game_id))
    pages = {}
    for user in users:
        pages[user.pk] = consumers.Page()
        consumers.catch_up(game_id, user, pages[user.pk], page_stamp=stamp)
    return pages


def push_round(game_id: int, users, pages: dict) -> list[tuple[int, int, float, float]]:
    """(bytes, largest frame, wall ms, CPU ms of this process) of what each socket sends for one
    announcement, each the least of ``REPEATS`` runs (the render caches emptied before each),
    so that other work on a shared machine inflates the figures as little as it can. Every
    socket answers the same announcement, as a Daphne's sockets do."""
    import copy
    import uuid

    from games.consumers import catch_up

    best: list[tuple[int, int, float, float]] = []
    for _ in range(REPEATS):
        forget_renders()
        announcement = uuid.uuid4().hex
        rows = []
        for user in users:
            page = copy.deepcopy(pages[user.pk])
            wall, cpu = time.perf_counter(), time.process_time()
            frames = catch_up(game_id, user, page, announcement)
            sizes = [len(frame.encode()) for frame in frames] or [0]
            rows.append((sum(sizes), max(sizes), (time.perf_counter() - wall) * 1000,
                         (time.process_time() - cpu) * 1000))
        best = rows if not best else [(b[0], b[1], min(b[2], r[2]), min(b[3], r[3])) for b, r in zip(best, rows)]
    return best


def summary(rows: list[tuple[int, int, float, float]]) -> str:
    sizes, frames = [r[0] for r in rows], [r[1] for r in rows]
    times, cpu = [r[2] for r in rows], [r[3] for r in rows]
    return (f"per socket: median {statistics.median(sizes) / 1024:7.1f} KiB {statistics.median(times):6.1f} ms "
            f"(CPU {statistics.median(cpu):6.1f}), largest frame {max(frames) / 1024:6.1f} KiB, "
            f"slowest {max(times):6.1f} ms\n"
            f"      all {len(rows)} sockets: {sum(sizes) / 1024:9.1f} KiB {sum(times):8.1f} ms (CPU {sum(cpu):8.1f})")


def pushes(seats: int, users, rng: random.Random) -> int:
    game = make_game(users)
    for _ in range(CLOSED_ROUNDS):
        for seat in range(seats):
            submit(game.pk, users, seat, rng)
    for seat in range(seats // 2, seats - 1):
        submit(game.pk, users, seat, rng)
    push_round(game.pk, users[:2], current_pages(game.pk, users[:2]))  # warm-up: templates, caches, connections

    pages = current_pages(game.pk, users)
    submit(game.pk, users, 0, rng)
    print(f"  within a round (seat 0 moves), {summary(push_round(game.pk, users, pages))}")
    timings = [timed_submit(game.pk, users, seat, rng) for seat in range(1, seats // 2)]
    print(f"  a submission (services.submit_move: the lock, the checks, the insert, the commit), median of "
          f"{len(timings)}: {statistics.median(t[0] for t in timings):.1f} ms (CPU {statistics.median(t[1] for t in timings):.1f})")
    pages = current_pages(game.pk, users)
    submit(game.pk, users, seats - 1, rng)
    print(f"  the round's close (a new round), {summary(push_round(game.pk, users, pages))}")
    print(f"      seat 1's frames by region: {regions_sent(game.pk, users[1], pages[users[1].pk])}")
    return game.pk


def timed_submit(game_id: int, users, seat: int, rng: random.Random) -> tuple[float, float]:
    """As ``submit``, timing only the service call: (wall ms, CPU ms of this process)."""
    from games import services, state_store
    from games.hextension import engine as hextension
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    view = hextension.view(state_store.load(game), seat)
    empty = [cell for cell in hextension.CELLS if cell not in view["seats"][seat]["board"]]
    move = {"type": "place", "placements": dict(zip(view["drawn"], rng.sample(empty, len(view["drawn"]))))}
    wall, cpu = time.perf_counter(), time.process_time()
    services.submit_move(game_id=game_id, user=users[seat], move=move, expected_version=game.version)
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def regions_sent(game_id: int, user, page) -> str:
    """What one socket's push is made of: each region's id and size (KiB), the largest first."""
    import copy
    import json

    from games.consumers import catch_up

    sizes = {}
    for frame in catch_up(game_id, user, copy.deepcopy(page)):
        message = json.loads(frame)
        for region in message.get("regions", []):
            sizes[region["id"]] = len(json.dumps(region).encode()) / 1024
        for region_id in message.get("ids", []):  # too large for a frame: read over HTTP
            sizes[region_id] = 0.0
    return ", ".join(f"{name} {size:.1f}" for name, size in sorted(sizes.items(), key=lambda item: -item[1]))


HEXLAND_SPECTATORS = 10
HEXLAND_WARMUP = 40
HEXLAND_MOVES = 30


def hexland_move(game_id: int, players, rng: random.Random) -> bool:
    """One random legal move of a seat that may act (False once the game is over)."""
    from games import services, state_store
    from games.hexland import engine
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    state = state_store.load(game)
    if engine.is_over(state):
        return False
    seat = rng.choice(engine.view(state, None)["actors"])
    move = rng.choice(engine.view(state, seat)["legal_moves"])
    services.submit_move(game_id=game_id, user=players[seat], move=move, expected_version=game.version)
    return True


def hexland_pushes(everyone, rng: random.Random) -> None:
    from games import services

    players, spectators = everyone[:4], everyone[4:4 + HEXLAND_SPECTATORS]
    game = services.create_game(kind="hexland", config={"players": 4, "layout": "fixed"}, created_by=players[0],
                                players=list(players), join=False, turn_seconds=120)
    services.start_game(game_id=game.pk)
    for _ in range(HEXLAND_WARMUP):
        hexland_move(game.pk, players, rng)
    sockets = [*players, *spectators]
    push_round(game.pk, sockets[:2], current_pages(game.pk, sockets[:2]))  # warm-up
    per_socket, per_move, cpu_per_move, largest = [], [], [], 0
    for _ in range(HEXLAND_MOVES):
        pages = current_pages(game.pk, sockets)
        if not hexland_move(game.pk, players, rng):
            break
        rows = push_round(game.pk, sockets, pages)
        per_socket.append(statistics.median(r[0] for r in rows))
        per_move.append(sum(r[0] for r in rows))
        cpu_per_move.append(sum(r[3] for r in rows))
        largest = max(largest, *(r[1] for r in rows))
    print(f"  a move, {len(per_move)} moves: per socket median {statistics.median(per_socket) / 1024:.1f} KiB; "
          f"all {len(sockets)} sockets {statistics.median(per_move) / 1024:.1f} KiB, "
          f"CPU {statistics.median(cpu_per_move):.1f} ms (median over moves); largest frame {largest / 1024:.1f} KiB")


def page(client, url: str, cold: bool = True) -> tuple[int, float, float, int]:
    """(queries, least wall ms, least CPU ms, bytes) of ``url`` over ``PAGE_REPEATS`` requests,
    after one warm-up request; with ``cold``, the render caches are emptied before each."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    assert client.get(url).status_code == 200, url
    times, cpu, queries, size = [], [], 0, 0
    for _ in range(PAGE_REPEATS):
        if cold:
            forget_renders()
        with CaptureQueriesContext(connection) as captured:
            wall, started = time.perf_counter(), time.process_time()
            response = client.get(url)
            times.append((time.perf_counter() - wall) * 1000)
            cpu.append((time.process_time() - started) * 1000)
        assert response.status_code == 200, url
        queries, size = len(captured), len(response.content)
    return queries, min(times), min(cpu), size


def show_page(name: str, figures: tuple[int, float, float, int]) -> None:
    queries, ms, cpu, size = figures
    print(f"  {name:52s} {queries:3d} queries {ms:7.1f} ms (CPU {cpu:6.1f}) {size / 1024:8.1f} KiB")


def a_league(users):
    from django.utils import timezone

    from games.leagues import services as leagues
    from games.leagues.models import League, LeagueEntry

    league = League.objects.create(organiser=users[0], name=f"League of {len(users)}", starts_at=timezone.now(),
                                   schedule=League.Schedule.PARALLEL, season_games=2, round_hours=72)
    LeagueEntry.objects.bulk_create(LeagueEntry(league=league, user=u, status=LeagueEntry.Status.APPROVED)
                                    for u in users)
    leagues.start_season(league_id=league.pk)
    return league


def pages(sizes: list[int], games: dict[int, int], everyone) -> None:
    from django.conf import settings
    from django.test import Client

    from games import services

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    print(f"pages (a seated player; queries, the least ms of {PAGE_REPEATS} requests, with the render caches "
          "emptied before each unless said, bytes):")
    player = everyone[0]
    client = Client()
    client.force_login(player)
    for seats in sizes:
        show_page(f"game page, {seats} seats", page(client, f"/games/{games[seats]}/"))
        # Another player of the game drew the shared pieces already (what most requests meet).
        show_page(f"game page, {seats} seats, pieces already drawn", page(client, f"/games/{games[seats]}/", cold=False))
    # The dashboard and the lobby, as the player's games and the open games grow.
    for extra in (0, 20):
        for _ in range(extra):
            game = services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": TILES_PER_ROUND},
                                        created_by=player, players=[player, *everyone[1:3]], join=False,
                                        turn_seconds=86400)
            services.start_game(game_id=game.pk)
            services.create_game(kind="hextension", config={"players": 4, "tiles_per_round": TILES_PER_ROUND},
                                 created_by=everyone[5], turn_seconds=86400)
        label = f"+{extra} running and +{extra} open games"
        for name, url in (("dashboard", "/games/"), ("lobby", "/games/hextension/")):
            show_page(f"{name} ({label})", page(client, url))
    for players in (6, 30):
        league = a_league(everyone[:players])
        show_page(f"league standings, {players} players", page(client, f"/games/leagues/{league.pk}/"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", default="9,100", help="comma-separated game sizes (default 9,100)")
    parser.add_argument("--hexland", action="store_true", help="a Hexland room's pushes only")
    parser.add_argument("--profile", action="store_true", help="cProfile the largest size (setup, submissions and pushes)")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.seats.split(","))

    from accounts.models import User

    everyone = User.objects.bulk_create(User(username=f"p{i}", email=f"p{i}@example.com") for i in range(max(sizes + [30])))
    rng = random.Random(7)
    if args.hexland:
        print(f"Hexland, 4 players on the fixed map and {HEXLAND_SPECTATORS} spectators, after {HEXLAND_WARMUP} moves:")
        hexland_pushes(everyone, rng)
        return
    games = {}
    for seats in sizes:
        print(f"Hextension, {seats} seats, {TILES_PER_ROUND} tiles a round, after {CLOSED_ROUNDS} closed rounds, "
              f"{seats} sockets (one per player):")
        if args.profile and seats == sizes[-1]:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
            games[seats] = pushes(seats, everyone[:seats], rng)
            profiler.disable()
            profiler.print_stats("cumulative")
        else:
            games[seats] = pushes(seats, everyone[:seats], rng)
    pages(sizes, games, everyone)


if __name__ == "__main__":
    with benchmark_database():
        main()
