"""Timers, AI moves and the deadline sweeper, run by a real Celery worker over Redis."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, state_store, tasks
from games.models import Game, MoveEvent
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db(transaction=True)


def wait_for(predicate, seconds: float = 20.0):
    """Poll the database until the worker has done its job (not a speed assertion)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_an_ai_seat_moves_by_itself_after_a_human_move(celery_worker_thread, make_user, settings):
    settings.GAME_AI_DELAY_SECONDS = 0
    ana = make_user()
    game = toy_game(ana, ai_seats={1: "easy"}, target=100)
    services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 3}, expected_version=0)
    assert wait_for(lambda: Game.objects.get(pk=game.pk).version == 2)
    event = MoveEvent.objects.get(game=game, seq=2)
    assert (event.kind, event.seat, event.payload) == ("ai", 1, {"type": "add", "n": 1})
    assert Game.objects.get(pk=game.pk).awaiting == [0]


def test_a_short_turn_timer_plays_the_timeout_move(celery_worker_thread, make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo, turn_seconds=1)
    assert wait_for(lambda: MoveEvent.objects.filter(game=game, kind="timeout").exists())
    first = MoveEvent.objects.filter(game=game).order_by("seq").first()
    assert (first.seq, first.seat, first.kind) == (1, 0, "timeout")


def test_a_stale_timer_task_does_nothing(celery_worker_thread, make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo, turn_seconds=3600)
    marker = toy_game(make_user(), make_user(), turn_seconds=3600)
    services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 1}, expected_version=0)
    Game.objects.filter(pk__in=[game.pk, marker.pk]).update(deadline_at=timezone.now() - timedelta(seconds=1))
    tasks.apply_timeouts.apply_async((game.pk, 0))  # made for version 0: the game has moved on
    tasks.apply_timeouts.apply_async((marker.pk, 0))  # a current timer, queued after it (one worker, in order)
    assert wait_for(lambda: MoveEvent.objects.filter(game=marker, kind="timeout").exists())
    assert list(MoveEvent.objects.filter(game=game).values_list("kind", flat=True)) == ["move"]
    tasks.sweep_deadlines.apply_async()  # the sweeper finds the passed deadline and applies it, once
    assert wait_for(lambda: MoveEvent.objects.filter(game=game).count() == 2)
    assert list(MoveEvent.objects.filter(game=game).values_list("kind", flat=True)) == ["move", "timeout"]


def test_several_ai_seats_play_a_hextension_round_with_the_worker(celery_worker_thread, make_user, settings):
    from games.hextension import engine as hextension

    settings.GAME_AI_DELAY_SECONDS = 0
    ana = make_user()
    game = services.create_game(kind="hextension", config={"players": 4, "tiles_per_round": 2}, created_by=ana,
                                turn_seconds=86400, ai_seats={1: "greedy", 2: "random", 3: "greedy"})
    services.start_game(game_id=game.pk, by_user=ana)
    game.refresh_from_db()
    assert wait_for(lambda: Game.objects.get(pk=game.pk).awaiting == [0])  # the three AIs have moved
    view = hextension.view(state_store.load(Game.objects.get(pk=game.pk)), 0)
    cells = [c for c in hextension.CELLS][:2]
    services.submit_move(game_id=game.pk, user=ana, expected_version=Game.objects.get(pk=game.pk).version,
                         move={"type": "place", "placements": dict(zip(view["drawn"], cells))})
    assert wait_for(lambda: Game.objects.get(pk=game.pk).awaiting == [0])  # round 2: the AIs again
    game.refresh_from_db()
    assert MoveEvent.objects.filter(game=game, kind="ai").count() == 6  # each AI once per round
    assert hextension.view(state_store.load(game), 0)["round"] == 2


def test_an_ai_move_lost_with_its_task_is_asked_again_by_the_sweeper(make_user, settings):
    """A broker outage lost the AI's task: the seat is owed a move until the sweeper asks again."""
    from hexsite.celery import app
    from tests.conftest import celery_worker

    settings.GAME_AI_DELAY_SECONDS = 0
    ana = make_user()
    game = toy_game(ana, ai_seats={1: "easy"}, target=100)
    # No worker runs yet, so none can take the AI's task before it is lost. (A running worker
    # told to stop consuming may still take it on a busy machine: the test was flaky so.)
    services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 3}, expected_version=0)
    app.control.purge()  # the AI's task is lost
    assert Game.objects.get(pk=game.pk).awaiting == [1]
    assert services.sweep_owed_ai_moves() == 0  # not owed long enough yet
    with celery_worker():
        assert services.sweep_owed_ai_moves(now=timezone.now() + timedelta(minutes=5)) == 1
        assert wait_for(lambda: Game.objects.get(pk=game.pk).version == 2)
    assert MoveEvent.objects.get(game=game, seq=2).kind == "ai"
