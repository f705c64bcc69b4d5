"""The event store and the one write path, against real PostgreSQL and Redis."""
from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from games import selectors, services, state_store
from games.errors import BadMove, GameNotActive, GameNotFound, NotYourSeat, StaleVersion
from games.models import Game, MoveEvent
from tests.support import toy_engine
from tests.support.concurrency import run_at_once
from tests.support.factories import toy_game
from tests.support.roles import app_refusal

pytestmark = pytest.mark.django_db


def add(game, user, n, version=None):
    game.refresh_from_db()
    return services.submit_move(
        game_id=game.pk, user=user, move={"type": "add", "n": n}, expected_version=game.version if version is None else version
    )


def test_a_whole_game_is_stored_as_events_and_replays_to_the_same_result(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = toy_game(ana, bo, target=10)
    moves = [(ana, 3), (bo, 3), (ana, 2), (bo, 2)]  # total 10: bo wins on the fourth move
    for user, n in moves:
        add(game, user, n)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.version == 4
    assert game.result["winner"] == 1
    assert game.awaiting == [] and game.deadline_at is None
    assert list(game.events.values_list("seq", "seat", "payload")) == [
        (i + 1, i % 2, {"type": "add", "n": n}) for i, (_, n) in enumerate(moves)
    ]
    with pytest.raises(GameNotActive, match="over"):
        add(game, ana, 1)
    assert state_store.replay(game).winner == 1


def test_the_database_refuses_to_change_or_delete_an_event(make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    add(game, ana, 1)
    event = MoveEvent.objects.get(game=game)
    with pytest.raises(DatabaseError, match=app_refusal("append-only")), transaction.atomic():
        MoveEvent.objects.filter(pk=event.pk).update(payload={"type": "add", "n": 3})
    with pytest.raises(DatabaseError, match=app_refusal("append-only")), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM games_moveevent WHERE id = %s", [event.pk])
    assert MoveEvent.objects.get(pk=event.pk).payload == {"type": "add", "n": 1}


def test_refused_moves_write_nothing_and_say_why(make_user):
    ana, bo, cy = make_user(), make_user(), make_user()
    game = toy_game(ana, bo)
    add(game, ana, 2)
    cases = [
        (dict(user=ana, move={"type": "add", "n": 1}, expected_version=1), BadMove, "not your turn"),
        (dict(user=bo, move={"type": "add", "n": 7}, expected_version=1), BadMove, "1, 2 or 3"),
        (dict(user=bo, move={"type": "jump"}, expected_version=1), BadMove, 'type must be "add"'),
        (dict(user=bo, move="add 2", expected_version=1), BadMove, "JSON object"),
        (dict(user=bo, move={"type": "add", "n": 1}, expected_version=0), StaleVersion, "moved on"),
        (dict(user=cy, move={"type": "add", "n": 1}, expected_version=1), NotYourSeat, "not playing"),
        (dict(user=bo, move={"type": "add", "n": 1}, expected_version=1, seat=0), NotYourSeat, "not yours"),
    ]
    for kwargs, error, message in cases:
        with pytest.raises(error, match=f"(?i){message}"):
            services.submit_move(game_id=game.pk, **kwargs)
    with pytest.raises(GameNotFound):
        services.submit_move(game_id=game.pk + 999, user=bo, move={"type": "add", "n": 1}, expected_version=1)
    game.refresh_from_db()
    assert game.version == 1 and game.events.count() == 1


def test_the_cache_gives_what_replay_from_scratch_gives(make_user, django_capture_on_commit_callbacks):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo, target=50)
    for i in range(12):
        with django_capture_on_commit_callbacks(execute=True):  # the writer caches on commit
            add(game, ana if i % 2 == 0 else bo, 1 + i % 3)
    game.refresh_from_db()
    cached = state_store.cached(game, game.version)
    assert cached is not None
    state_store.forget_local()
    assert state_store.cached(game, game.version) == cached  # from Redis
    assert state_store.replay(game) == cached
    assert state_store.replay(game, upto=5) == state_store.cached(game, 5)


_usernames = itertools.count()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.integers(min_value=1, max_value=3), min_size=1, max_size=20))
def test_the_writers_incremental_states_equal_replay_from_scratch(django_capture_on_commit_callbacks, steps):
    users = [User.objects.create_user(f"prop{next(_usernames)}") for _ in range(2)]
    game = toy_game(*users, target=100)
    for i, n in enumerate(steps):
        with django_capture_on_commit_callbacks(execute=True):
            add(game, users[i % 2], n)
        game.refresh_from_db()
        incremental = state_store.cached(game, game.version)  # built by apply on the previous state
        assert incremental is not None and incremental == state_store.replay(game)
    state_store.forget_local()
    assert state_store.load(game).total == sum(steps)


def test_dashboard_lists_games_waiting_for_my_move_first(make_user):
    ana, bo = make_user(), make_user()
    mine = toy_game(ana, bo)  # ana to move
    theirs = toy_game(bo, ana)  # bo to move
    open_game = services.create_game(kind="toy", config={"players": 3}, created_by=ana)
    board = selectors.dashboard(ana)
    assert [g.pk for g in board.your_move] == [mine.pk]
    assert [g.pk for g in board.waiting] == [theirs.pk]
    assert open_game.pk in [g.pk for g in board.open]
    assert selectors.board_context(mine, ana).view["my_card"] != selectors.board_context(mine, bo).view["my_card"]


def test_a_timer_that_fires_after_the_player_moved_does_nothing(make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo, turn_seconds=60)
    timer_version = game.version
    add(game, ana, 1)
    later = timezone.now() + timedelta(minutes=5)
    assert services.apply_timeouts(game_id=game.pk, expected_version=timer_version, now=later) == 0
    game.refresh_from_db()
    assert game.version == 1
    # The timer set for the current version does act once the deadline has passed.
    assert services.apply_timeouts(game_id=game.pk, expected_version=1, now=later) == 1
    game.refresh_from_db()
    assert game.events.last().kind == MoveEvent.Kind.TIMEOUT and game.awaiting == [0]
    assert game.deadline_at > timezone.now()


def test_one_timer_is_queued_per_deadline_not_per_move(make_user, monkeypatch, django_capture_on_commit_callbacks):
    """A simultaneous round keeps its deadline while its seats move: the timer queued when the
    round opened stands, and only the next round's deadline queues another. A timer set for a
    deadline that was replaced does nothing."""
    import random

    from games import jobs
    from tests.support.play import random_move

    timers = []
    monkeypatch.setattr(jobs, "enqueue", lambda name, *args, **kw: timers.append((args, kw)) if name.endswith(
        "apply_timeouts") else None)
    players = [make_user() for _ in range(3)]
    game = services.create_game(kind="hextension", config={"players": 3}, created_by=players[0], players=players,
                                turn_seconds=300, join=False)
    with django_capture_on_commit_callbacks(execute=True):
        services.start_game(game_id=game.pk)
    game.refresh_from_db()
    first_deadline = game.deadline_at
    assert [kw["eta"] for _args, kw in timers] == [first_deadline]
    rng = random.Random(48)
    for seat, user in enumerate(players[:2]):
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_move(game_id=game.pk, user=user, move=random_move(game, seat, rng), expected_version=game.version)
    assert len(timers) == 1  # two moves inside the round: its timer stands
    with django_capture_on_commit_callbacks(execute=True):
        services.submit_move(game_id=game.pk, user=players[2], move=random_move(game, 2, rng), expected_version=game.version)
    game.refresh_from_db()
    assert game.deadline_at != first_deadline and [kw["eta"] for _args, kw in timers] == [first_deadline, game.deadline_at]
    late = game.deadline_at + timedelta(seconds=1)
    assert services.apply_timeouts(game_id=game.pk, deadline=first_deadline, now=late) == 0  # the replaced round's
    assert services.apply_timeouts(game_id=game.pk, deadline=game.deadline_at, now=late) == 3


def test_a_live_room_queues_a_timer_for_each_deadline_it_sets_and_none_for_the_moves_inside_one(
        make_user, monkeypatch, django_capture_on_commit_callbacks):
    """Hexland's clocks run per phase: rolling, building and trading inside one turn keep the
    turn's deadline. Over random play, the timers queued are exactly the deadlines the room set,
    in order: none repeated, none missed."""
    import random

    from games import jobs
    from tests.support.factories import hexland_room
    from tests.support.play import random_move

    etas = []
    monkeypatch.setattr(jobs, "enqueue", lambda name, *args, **kw: etas.append(kw["eta"]) if name.endswith(
        "apply_timeouts") else None)
    players = [make_user() for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        game = hexland_room(*players, timers="fast")
    deadlines, rng = [game.deadline_at], random.Random(random.getrandbits(64))  # the test's seed (tests/workers.py)
    for _ in range(60):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        seat = game.awaiting[0]
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_move(game_id=game.pk, user=players[seat], move=random_move(game, seat, rng),
                                 expected_version=game.version)
        game.refresh_from_db()
        if game.deadline_at != deadlines[-1]:
            deadlines.append(game.deadline_at)
    assert etas == deadlines
    assert len(etas) < game.version  # (before, one a move: every move of a short clock queued one)


def test_deadline_not_yet_passed_is_left_alone(make_user):
    game = toy_game(make_user(), make_user(), turn_seconds=3600)
    assert services.sweep_deadlines() == 0
    late = timezone.now() + timedelta(minutes=61)
    assert services.sweep_deadlines(now=late) == 1
    assert services.sweep_deadlines(now=late) == 0  # the same sweep run twice
    assert Game.objects.get(pk=game.pk).version == 1


def test_start_and_join_rules(make_user):
    ana, bo, cy = make_user(), make_user(), make_user()
    game = services.create_game(kind="toy", config={"players": 2}, created_by=ana)
    with pytest.raises(GameNotActive, match="not started"):
        services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 1}, expected_version=0)
    with pytest.raises(NotYourSeat, match="Only the player who opened"):
        services.start_game(game_id=game.pk, by_user=bo)
    with pytest.raises(GameNotActive, match="cannot start with 1 player"):
        services.start_game(game_id=game.pk, by_user=ana)
    with pytest.raises(GameNotActive, match="Every seat"):
        services.start_game(game_id=game.pk)
    with pytest.raises(GameNotActive, match="already playing"):
        services.join_game(game_id=game.pk, user=ana)
    services.join_game(game_id=game.pk, user=bo)  # the last seat: the game starts
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    with pytest.raises(GameNotActive, match="already started"):
        services.join_game(game_id=game.pk, user=cy)


def test_a_bad_config_is_refused_before_anything_is_written(make_user):
    with pytest.raises(BadMove, match="2 to 4 players"):
        services.create_game(kind="toy", config={"players": 7}, created_by=make_user())
    assert not Game.objects.exists()


def test_the_engine_module_is_a_real_toy():
    # Guards the fixture itself: the toy engine must refuse moves out of turn.
    state = toy_engine.new_state({"players": 2}, 1)
    with pytest.raises(toy_engine.IllegalMove):
        toy_engine.apply(state, 1, {"type": "add", "n": 1})


@pytest.mark.django_db(transaction=True)
def test_two_clients_racing_for_one_turn_write_exactly_one_event(make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    moves = iter([{"type": "add", "n": 1}, {"type": "add", "n": 2}])  # two different moves (the same one twice is a retry)
    outcomes = run_at_once(
        lambda: services.submit_move(game_id=game.pk, user=ana, move=next(moves), expected_version=0)
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["Applied", "StaleVersion"]
    assert MoveEvent.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == 1


@pytest.mark.django_db(transaction=True)
def test_two_sweepers_at_once_apply_a_timeout_exactly_once(make_user):
    game = toy_game(make_user(), make_user(), turn_seconds=60)
    later = timezone.now() + timedelta(minutes=2)
    assert sorted(run_at_once(lambda: services.sweep_deadlines(now=later))) == [0, 1]
    assert list(MoveEvent.objects.filter(game=game).values_list("kind", flat=True)) == ["timeout"]
