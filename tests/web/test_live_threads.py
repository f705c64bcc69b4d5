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
