"""What one socket push costs in a 100-seat Hextension game with 100 watchers (its players).

Mid-game (5 rounds closed, half the seats moved in round 6), one player submits; each of the
100 sockets then gets what the consumer sends for that announcement. Figures per push and in
total per submission:

- whole page: every region of the live page for each socket's user, as if the page were sent
  whole (what the consumer did before the live page's regions);
- regions: what `games.consumers.catch_up` sends now (only the regions whose key changed for
  that viewer, drawn once per key; the frames are what travels).

Then the same for the submission that closes the round (a new round).
Render times include the consumer's database reads; run with `make bench` or
`.venv/bin/python -m hexsite.localservices -- .venv/bin/python benchmarks/push_sizes.py`.
"""
from __future__ import annotations

import random
import statistics
import sys
import time

from _django import benchmark_database

SEATS = 100
TILES_PER_ROUND = 2
CLOSED_ROUNDS = 5


def make_game():
    from accounts.models import User
    from games import services

    users = User.objects.bulk_create(User(username=f"p{i}", email=f"p{i}@example.com") for i in range(SEATS))
    game = services.create_game(kind="hextension", config={"players": SEATS, "tiles_per_round": TILES_PER_ROUND},
                                created_by=None, players=users, turn_seconds=3 * 86400)
    services.start_game(game_id=game.pk)
    return game, users


def submit(game_id: int, users, seat: int, rng: random.Random) -> None:
    from games import services, state_store
    from games.hextension import engine as hextension
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    view = hextension.view(state_store.load(game), seat)
    empty = [cell for cell in hextension.CELLS if cell not in view["seats"][seat]["board"]]
    move = {"type": "place", "placements": dict(zip(view["drawn"], rng.sample(empty, len(view["drawn"]))))}
    services.submit_move(game_id=game_id, user=users[seat], move=move, expected_version=game.version)


def old_push(game_id: int, user) -> str:
    """The whole page for its user: every region, drawn afresh."""
    from games import consumers

    consumers.forget_renders()
    return "".join(consumers.catch_up(game_id, user, consumers.Page()))


def current_page(game_id: int, user):
    from games import consumers, live
    from games.models import Game

    page = consumers.Page()
    consumers.catch_up(game_id, user, page, page_stamp=live.stamp_of(Game.objects.get(pk=game_id)))
    return page


def new_push(game_id: int, user, page, announcement: str) -> str:
    from games import consumers

    return "".join(consumers.catch_up(game_id, user, page, announcement))


def measure(render) -> list[tuple[int, float]]:
    """(bytes, ms) of each call of ``render(i)`` for the 100 sockets."""
    rows = []
    for i in range(SEATS):
        start = time.perf_counter()
        html = render(i)
        rows.append((len(html.encode()), (time.perf_counter() - start) * 1000))
    return rows


def report(title: str, rows: list[tuple[int, float]]) -> tuple[int, float]:
    sizes, times = [r[0] for r in rows], [r[1] for r in rows]
    total_bytes, total_ms = sum(sizes), sum(times)
    print(f"  {title}")
    print(f"    per push: median {statistics.median(sizes) / 1024:8.1f} KiB, {statistics.median(times):7.2f} ms"
          f"   (largest {max(sizes) / 1024:.1f} KiB, slowest {max(times):.2f} ms)")
    print(f"    per submission, {len(rows)} sockets: {total_bytes / 1024:9.1f} KiB, {total_ms:8.1f} ms")
    return total_bytes, total_ms


def scenario() -> None:
    rng = random.Random(7)
    game, users = make_game()
    for _ in range(CLOSED_ROUNDS):
        for seat in range(SEATS):
            submit(game.pk, users, seat, rng)
    for seat in range(SEATS // 2, SEATS - 1):  # half the seats have moved, seat 99 will close the round
        submit(game.pk, users, seat, rng)
    for user in users[:3]:  # warm-up: templates, state cache, connections
        old_push(game.pk, user)

    print(f"Hextension, {SEATS} seats, {TILES_PER_ROUND} tiles a round, after {CLOSED_ROUNDS} closed rounds; "
          f"{SEATS} sockets (one per player)")
    # One submission within the round: seat 0 moves; sockets last saw the version before it.
    pages = [current_page(game.pk, user) for user in users]
    submit(game.pk, users, 0, rng)
    print("one submission within a round (seat 0 moves):")
    before = report("the whole page to every socket", measure(lambda i: old_push(game.pk, users[i])))
    rows = measure(lambda i: new_push(game.pk, users[i], pages[i], "within"))
    after = report("the regions that changed (the others: who has moved; seat 0: its own board too)", rows)
    print(f"    => {before[0] / after[0]:.0f}x fewer bytes, {before[1] / after[1]:.0f}x less render time per submission")

    # The submission that closes the round: a new round, every socket gets the board.
    for seat in range(1, SEATS // 2):
        submit(game.pk, users, seat, rng)
    pages = [current_page(game.pk, user) for user in users]
    submit(game.pk, users, SEATS - 1, rng)
    print("the submission that closes the round (a new round opens):")
    report("the whole page to every socket", measure(lambda i: old_push(game.pk, users[i])))
    report("the regions that changed (own board, standings, round, a loader for the diagrams)",
           measure(lambda i: new_push(game.pk, users[i], pages[i], "close")))


def main() -> None:
    with benchmark_database():
        if "--profile" in sys.argv:
            import cProfile

            cProfile.runctx("scenario()", globals(), locals(), sort="cumulative")
        else:
            scenario()


if __name__ == "__main__":
    main()
