"""Move submission latency through the service, and rebuild time with and without the cache.

Prints p50/p99 of `services.submit_move` over 1,000 moves (lock, rebuild, engine, insert,
commit, cache and channel announcement included), and the time to rebuild a game's state at
10, 100 and 1,000 events: replay from scratch, the process-local cache, the Redis cache.
"""
from __future__ import annotations

import statistics
import time

from _django import benchmark_database, percentile


def main() -> None:
    with benchmark_database():
        from accounts.models import User
        from games import services, state_store
        from games.sites import GameSite, register

        register(GameSite(kind="toy", engine_path="tests.support.toy_engine"), offered=False)
        ana = User.objects.create_user("bench-ana")
        bo = User.objects.create_user("bench-bo")
        game = services.create_game(kind="toy", config={"players": 2, "target": 1_000_000}, created_by=ana)
        services.join_game(game_id=game.pk, user=bo)
        players = [ana, bo]

        latencies = []
        for i in range(1000):
            start = time.perf_counter()
            services.submit_move(game_id=game.pk, user=players[i % 2], move={"type": "add", "n": 1}, expected_version=i)
            latencies.append((time.perf_counter() - start) * 1000)
        print("move submission through services.submit_move, 1,000 moves:")
        print(f"  p50 {percentile(latencies, 50):.2f} ms   p99 {percentile(latencies, 99):.2f} ms   "
              f"mean {statistics.mean(latencies):.2f} ms   max {max(latencies):.2f} ms")

        print("rebuild of the state at N events (median of 20 runs):")
        game.refresh_from_db()
        for events in (10, 100, 1000):
            scratch = _median_ms(lambda n=events: state_store.replay(game, upto=n))
            state_store.remember(game, events, state_store.replay(game, upto=events))
            local = _median_ms(lambda n=events: state_store.cached(game, n))

            def redis_hit(n=events):
                state_store.forget_local()
                return state_store.cached(game, n)

            shared = _median_ms(redis_hit)
            print(f"  {events:>5} events: replay from scratch {scratch:8.2f} ms   "
                  f"cached (process) {local:6.3f} ms   cached (Redis) {shared:6.3f} ms")


def _median_ms(fn, runs: int = 20) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        assert fn() is not None
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


if __name__ == "__main__":
    main()
