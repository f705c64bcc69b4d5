"""A page or socket process draws on many threads: one viewer's view being computed (a state read
from Redis or PostgreSQL, the engine's view) must not hold up another viewer's."""
from __future__ import annotations

import threading

import pytest

from games import live
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db

WAIT = 10  # seconds: only views computed in turn reach it


def test_two_viewers_views_are_computed_at_once_not_in_turn(monkeypatch, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = toy_game(ana, bo)
    computing, finish = threading.Event(), threading.Event()

    def view_of(game, seat):  # stands in for the state read and the engine's view
        if seat == 0:
            computing.set()
            finish.wait(WAIT)
        return {"seat": seat}

    monkeypatch.setattr(live, "cached_view", view_of)
    ana_page, bo_page = live.LiveView(game, ana), live.LiveView(game, bo)
    bo_done = threading.Event()
    ana_thread = threading.Thread(target=lambda: ana_page.seat_view, daemon=True)
    bo_thread = threading.Thread(target=lambda: (bo_page.seat_view, bo_done.set()), daemon=True)
    try:
        ana_thread.start()
        assert computing.wait(WAIT)
        bo_thread.start()
        assert bo_done.wait(WAIT), "bo's view waited for ana's to be computed"
        assert bo_page.seat_view == {"seat": 1}
    finally:
        finish.set()
        ana_thread.join(WAIT)
        bo_thread.join(WAIT)
    assert ana_page.seat_view == {"seat": 0}


def test_the_socket_threads_take_each_games_work_in_turn():
    """A 100-seat close queues a catch-up per socket at once; a small room's push queued after
    them is taken next, not after all of them (games.consumers, the sockets' pool)."""
    import asyncio

    from games import consumers

    pool = consumers._GamesInTurnThreadPool(1)
    started, release = threading.Event(), threading.Event()
    done: list[str] = []

    def work(name: str) -> None:
        if name == "close 0":
            started.set()
            release.wait(WAIT)
        done.append(name)

    def queue(game: int, name: str):
        token = consumers._work_of_game.set(game)
        try:
            return pool.submit(work, name)
        finally:
            consumers._work_of_game.reset(token)

    futures = [queue(1, "close 0")]
    assert started.wait(WAIT)
    futures += [queue(1, f"close {i}") for i in range(1, 6)] + [queue(2, "room")]
    release.set()
    for future in futures:
        future.result(WAIT)
    assert done == ["close 0", "close 1", "room", "close 2", "close 3", "close 4", "close 5"]

    class Socket:  # a consumer's calls are queued under its game
        game_id = 7

        @consumers.in_live_threads
        def which_game(self):
            return queued_under.pop()

    queued_under: list = []
    submit = consumers._live_threads.submit

    def recording_submit(fn, /, *args, **kwargs):
        queued_under.append(consumers._work_of_game.get())
        return submit(fn, *args, **kwargs)

    consumers._live_threads.submit = recording_submit
    try:
        assert asyncio.run(Socket().which_game()) == 7
    finally:
        del consumers._live_threads.submit
