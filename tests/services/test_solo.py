"""Hextremadura solo play: undo as an event, the daily puzzle, its leaderboard, hints."""
from __future__ import annotations

import datetime as dt
from datetime import timedelta

import pytest

from games import services, state_store
from games.hextremadura import selectors as solo_selectors
from games.hextremadura import services as solo
from games.hextremadura import engine as hextremadura
from games.errors import BadMove, GameNotActive
from games.hextremadura.models import DailyAttempt, DailyPuzzle
from games.models import Game, MoveEvent

pytestmark = pytest.mark.django_db


def play(game, user, moves: int):
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        move = hextremadura.legal_moves(state_store.load(game), 0)[0]
        services.submit_move(game_id=game.pk, user=user, move=move, expected_version=game.version)


def test_undo_is_an_event_and_replay_agrees(make_user, django_capture_on_commit_callbacks):
    ana = make_user()
    game = solo.start_casual_game(user=ana)
    play(game, ana, 3)
    game.refresh_from_db()
    before_third = state_store.replay(game, upto=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.undo_last_move(game_id=game.pk, user=ana, expected_version=3)
    game.refresh_from_db()
    assert game.version == 4 and list(game.events.values_list("kind", flat=True)) == ["move"] * 3 + ["undo"]
    assert hextremadura.view(state_store.load(game), 0) == hextremadura.view(before_third, 0)
    state_store.forget_local()
    assert hextremadura.view(state_store.replay(game), 0) == hextremadura.view(before_third, 0)
    services.undo_last_move(game_id=game.pk, user=ana, expected_version=4)
    services.undo_last_move(game_id=game.pk, user=ana, expected_version=5)
    with pytest.raises(BadMove, match="no move to undo"):
        services.undo_last_move(game_id=game.pk, user=ana, expected_version=6)
    assert MoveEvent.objects.filter(game=game, kind="undo").count() == 3
    game.refresh_from_db()
    assert hextremadura.view(state_store.replay(game), 0) == hextremadura.view(state_store.replay(game, upto=0), 0)


def test_the_daily_puzzle_is_one_shuffle_one_attempt_no_undo_no_hint(make_user):
    ana, bo = make_user(), make_user()
    day = dt.date(2026, 11, 30)
    first, second = solo.start_daily_game(user=ana, day=day), solo.start_daily_game(user=bo, day=day)
    assert first.seed == second.seed == DailyPuzzle.objects.get(date=day).seed
    assert hextremadura.view(state_store.load(first), 0)["available"] == hextremadura.view(state_store.load(second), 0)["available"]
    with pytest.raises(GameNotActive, match="one attempt each"):
        solo.start_daily_game(user=ana, day=day)
    play(first, ana, 1)
    with pytest.raises(BadMove, match="not allowed"):
        services.undo_last_move(game_id=first.pk, user=ana, expected_version=1)
    with pytest.raises(BadMove, match="no hints"):
        solo_selectors.hint(first, 0)
    casual = solo.start_casual_game(user=ana)
    assert casual.seed != first.seed
    move = solo_selectors.hint(casual, 0)
    hextremadura.apply(state_store.load(casual), 0, move)  # a legal suggestion


def test_leaderboard_orders_by_score_then_time(make_user):
    puzzle = DailyPuzzle.objects.create(date=dt.date(2026, 1, 1))
    users = [make_user(f"p{i}") for i in range(3)]
    base = dt.datetime(2026, 1, 1, 12, tzinfo=dt.timezone.utc)
    for user, score, minutes in zip(users, (12, 12, 14), (9, 5, 30)):
        game = Game.objects.create(kind="hextremadura", created_by=user, status=Game.Status.FINISHED,
                                   started_at=base, finished_at=base + timedelta(minutes=minutes),
                                   result={"score": score, "scores": [score], "ranks": [1]})
        DailyAttempt.objects.create(puzzle=puzzle, user=user, game=game)
    rows = solo_selectors.leaderboard(puzzle)
    assert [(r.rank, r.name, r.score, r.seconds) for r in rows] == [(1, "p2", 14, 1800), (2, "p1", 12, 300), (3, "p0", 12, 540)]
