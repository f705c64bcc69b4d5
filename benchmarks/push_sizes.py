"""What one socket push costs in a 100-seat Hextension game with 100 watchers (its players).

Mid-game (5 rounds closed, half the seats moved in round 6), one player submits; each of the
100 sockets then gets what the consumer sends for that announcement. Figures per push and in
total per submission:

- before: every socket re-rendered the whole board (`games/_board.html` for its own user), as
  the consumer did before pushes sent only what changed;
- after: what `games.consumers.push_for` sends now (the "who has moved" fragment to everyone
  but the submitter's own sockets, which get the full board).

Then the same for the submission that closes the round (a new round: everyone gets the board).
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
    """What the consumer sent before: the whole board for its user (its `_render_board_if_changed`)."""
    from django.template.loader import render_to_string

    from games import selectors

    game = selectors.game_for_viewer(game_id, user)
    return render_to_string("games/_board.html", selectors.board_context(game, user).as_dict())


def new_push(game_id: int, user, sent) -> str:
    from games.consumers import push_for

    html, _ = push_for(game_id, user, sent)
    return html or ""


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
    from games.consumers import PushState
    from games.models import Game

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
    sent = PushState.of(Game.objects.get(pk=game.pk))
    submit(game.pk, users, 0, rng)
    print("one submission within a round (seat 0 moves):")
    before = report("before: the whole board to every socket", measure(lambda i: old_push(game.pk, users[i])))
    rows = measure(lambda i: new_push(game.pk, users[i], sent))
    after = report("after: the moved fragment (seat 0's own socket: the whole board)", rows)
    fragments = rows[1:]
    print(f"    of which the {len(fragments)} fragments: {sum(r[0] for r in fragments) / 1024:.1f} KiB, "
          f"{sum(r[1] for r in fragments):.1f} ms (the first draws it, the others reuse it)")
    print(f"    => {before[0] / after[0]:.0f}x fewer bytes, {before[1] / after[1]:.0f}x less render time per submission")

    # The submission that closes the round: a new round, every socket gets the board.
    for seat in range(1, SEATS // 2):
        submit(game.pk, users, seat, rng)
    sent = PushState.of(Game.objects.get(pk=game.pk))
    submit(game.pk, users, SEATS - 1, rng)
    print("the submission that closes the round (a new round opens):")
    report("before: the whole board to every socket", measure(lambda i: old_push(game.pk, users[i])))
    report("after: the whole board to every socket", measure(lambda i: new_push(game.pk, users[i], sent)))


def main() -> None:
    with benchmark_database():
        if "--profile" in sys.argv:
            import cProfile

            cProfile.runctx("scenario()", globals(), locals(), sort="cumulative")
        else:
            scenario()


if __name__ == "__main__":
    main()
