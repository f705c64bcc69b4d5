"""Hextension on the site: closing a round of a 100-player game, and rendering a league page.

1. A game of 100 players: 99 submit, then the time of the 100th submission, which closes the
   round and opens the next (engine, events, version, deadline, cache, announcement), is taken.
2. A league of 100 players with 10 finished games: the time to build its page (view, standings,
   template) for a signed-in player, called directly with a RequestFactory request.
"""
from __future__ import annotations

import random
import statistics
import time

from _django import benchmark_database


def close_round_times(rounds: int = 4) -> list[float]:
    from accounts.models import User
    from games import services, state_store
    from games.hextension import engine as hextension
    from games.models import Game, Seat

    users = User.objects.bulk_create(User(username=f"p{i}", email=f"p{i}@example.com") for i in range(100))
    game = services.create_game(kind="hextension", config={"players": 100, "tiles_per_round": 2},
                                created_by=users[0], turn_seconds=3 * 86400)
    for seat, user in zip(Seat.objects.filter(game=game).order_by("index")[1:], users[1:]):
        seat.user = user
        seat.save(update_fields=["user"])
    services.start_game(game_id=game.pk)
    times = []
    for _ in range(rounds):
        game = Game.objects.get(pk=game.pk)
        view = hextension.view(state_store.load(game), None)
        for seat in range(100):
            board = view["seats"][seat]["board"]
            empty = [c for c in hextension.CELLS if c not in board]
            move = {"type": "place", "placements": dict(zip(view["drawn"], random.sample(empty, len(view["drawn"]))))}
            start = time.perf_counter()
            services.submit_move(game_id=game.pk, user=users[seat], move=move, expected_version=game.version + seat)
            elapsed = time.perf_counter() - start
        times.append(elapsed * 1000)  # the last one closed the round
    return times


def league_page_times(runs: int = 20) -> list[float]:
    from django.test import RequestFactory
    from django.utils import timezone

    from games import league_views

    from accounts.models import User
    from games.models import Game, League, LeagueEntry, Seat

    organiser = User.objects.create_user("organiser")
    players = User.objects.bulk_create(User(username=f"l{i}", email=f"l{i}@example.com") for i in range(100))
    league = League.objects.create(name="Benchmark league", organiser=organiser, season_games=10,
                                   starts_at=timezone.now(), status=League.Status.RUNNING)
    LeagueEntry.objects.bulk_create(LeagueEntry(league=league, user=u, status="approved") for u in players)
    rng = random.Random(7)
    for index in range(1, 11):
        scores = [rng.randint(60, 220) for _ in players]
        order = sorted(range(100), key=lambda s: -scores[s])
        ranks = [0] * 100
        for position, seat in enumerate(order, start=1):
            ranks[seat] = position
        game = Game.objects.create(kind="hextension", config={"players": 100, "tiles_per_round": 2}, league=league,
                                   season_index=index, status=Game.Status.FINISHED, version=1000, finished_at=timezone.now(),
                                   result={"scores": scores, "ranks": ranks, "out": []})
        Seat.objects.bulk_create(Seat(game=game, index=i, user=u) for i, u in enumerate(players))
    factory = RequestFactory()

    def render_page():
        request = factory.get(f"/games/leagues/{league.pk}/")
        request.user = players[0]
        response = league_views.league_detail(request, league.pk)
        assert response.status_code == 200 and b"Standings" in response.content
        return response

    render_page()  # warm-up (templates, connections)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        render_page()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    with benchmark_database():
        from django.test.utils import override_settings

        with override_settings(ALLOWED_HOSTS=["testserver"]):
            closes = close_round_times()
            print("closing a round and opening the next, 100 players (the 100th submission), ms:")
            print(f"  median {statistics.median(closes):.1f}   max {max(closes):.1f}   runs {len(closes)}")
            pages = league_page_times()
            print("league page with 100 players and 10 finished games (view + standings + template), ms:")
            print(f"  median {statistics.median(pages):.1f}   max {max(pages):.1f}   runs {len(pages)}")


if __name__ == "__main__":
    main()
