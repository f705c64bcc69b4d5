"""The read every page, move and push starts with (``selectors._game_with_seats``): one round
trip, and the very objects the ORM's ``prefetch_related``/``select_related`` read gives."""
from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Prefetch
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import selectors, services, state_store
from games.errors import GameNotFound
from games.hextension import engine as hextension
from games.models import Game, MoveEvent, Seat

pytestmark = pytest.mark.django_db


def orm_read(game_id: int) -> Game:
    return Game.objects.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user"))).get(pk=game_id)


def fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


def attributes(instance) -> dict:
    """What the instance holds besides its caches: the same attributes as the ORM's, as loaded
    from the database (an update, not an insert, on save)."""
    assert instance._state.adding is False and instance._state.db == "default"
    return {name: value for name, value in vars(instance).items() if name not in ("_state", "_prefetched_objects_cache", "_shared_memo")}


def assert_same_game(read: Game, expected: Game) -> None:
    assert fields(read) == fields(expected)
    with CaptureQueriesContext(connection) as asked:
        seats = list(read.seats.all())
        users = [seat.user for seat in seats]
        games = [seat.game for seat in seats]
        labels = [seat.label for seat in seats]  # what pages show of the players
    assert len(asked) == 0, [q["sql"] for q in asked]  # all in the one read
    assert labels == [seat.label for seat in expected.seats.all()]
    assert all(game is read for game in games)
    orm_seats = list(expected.seats.all())
    for instance, orm in [(read, expected), *zip(seats, orm_seats)]:
        assert type(instance) is type(orm) and attributes(instance) == attributes(orm)
    for user, seat in zip(users, orm_seats):
        if user is None:
            assert seat.user is None
            continue
        # The columns no page shows are left out, deferred as QuerySet.defer leaves them...
        assert user.get_deferred_fields() == set(selectors.USER_LEFT_OUT)
        assert attributes(user) == {name: value for name, value in attributes(seat.user).items()
                                    if name not in selectors.USER_LEFT_OUT}
    # ...and read when asked for: every field as the ORM has it.
    assert [fields(seat) for seat in seats] == [fields(seat) for seat in orm_seats]
    assert [fields(user) if user else None for user in users] == [fields(seat.user) if seat.user else None for seat in orm_seats]


def play_rounds(game: Game, users, rounds: int) -> None:
    for _ in range(rounds):
        for seat, user in enumerate(users):
            current = Game.objects.get(pk=game.pk)
            view = hextension.view(state_store.load(current), seat)
            empty = next(c for c in hextension.CELLS if c not in view["seats"][seat]["board"])
            services.submit_move(game_id=game.pk, user=user, move={"type": "place", "placements": {view["drawn"][0]: empty}},
                                 expected_version=current.version)


def test_a_game_is_read_in_one_round_trip_as_the_orm_reads_it(make_user):
    ana, bo, cy = make_user(), make_user(), make_user()
    bo.display_name = "Bo"
    bo.save()
    game = services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 1}, created_by=None,
                                players=[ana, bo, cy], turn_seconds=86400)
    services.start_game(game_id=game.pk)
    play_rounds(game, [ana, bo, cy], 12)  # 36 events: more than a snapshot names
    Seat.objects.filter(game=game, index=2).update(resigned_at=timezone.now(), standin_level="greedy")
    expected = orm_read(game.pk)
    assert expected.config and expected.awaiting and expected.clock  # JSON fields, read as the ORM converts them

    with CaptureQueriesContext(connection) as asked:
        snapshot = selectors.game_snapshot(game.pk)
    assert len(asked) == 1
    assert_same_game(snapshot.game, expected)
    latest = MoveEvent.objects.filter(game=game).order_by("-seq").values_list("seq", "seat")[:selectors.RECENT_EVENTS]
    assert snapshot.recent_events == tuple(reversed(latest)) and len(snapshot.recent_events) == selectors.RECENT_EVENTS

    with CaptureQueriesContext(connection) as asked:
        watched = selectors.game_for_viewer(game.pk, bo)
    assert len(asked) == 1
    assert_same_game(watched, expected)


def test_an_open_game_with_free_and_ai_seats_and_a_missing_game(make_user):
    ana = make_user()
    game = services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 1}, created_by=ana,
                                ai_seats={1: "greedy"}, turn_seconds=86400)
    expected = orm_read(game.pk)
    assert [seat.user for seat in expected.seats.all()][1:] == [None, None]
    assert_same_game(selectors.game_for_viewer(game.pk, ana), expected)
    assert selectors.game_snapshot(game.pk).recent_events == ()

    assert selectors.game_snapshot(game.pk + 1000) is None
    with pytest.raises(GameNotFound):
        selectors.game_for_viewer(game.pk + 1000, ana)



def test_a_model_with_an_init_receiver_is_made_through_its_init(make_user):
    """The read makes instances without ``Model.__init__`` (games/rows.py) only while nothing
    listens to the init signals: a receiver connected later still hears every instance."""
    from django.db.models.signals import post_init

    from accounts.models import User

    ana, bo = make_user(), make_user()
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 1}, created_by=None,
                                players=[ana, bo], turn_seconds=86400)
    heard = []

    def receiver(sender, instance, **kwargs):
        heard.append(instance.pk)

    post_init.connect(receiver, sender=User)
    try:
        read = selectors.game_snapshot(game.pk).game
    finally:
        post_init.disconnect(receiver, sender=User)
    assert sorted(heard) == sorted([ana.pk, bo.pk])
    assert_same_game(read, orm_read(game.pk))
    heard.clear()
    selectors.game_snapshot(game.pk)
    assert heard == []


def test_what_a_snapshot_works_out_once_is_what_each_viewers_own_read_gives(make_user):
    """A snapshot's game keeps what is the same for every viewer (``selectors.shared``): each
    socket's copy answers as a game read for that viewer alone, and the next read starts anew."""
    from django.contrib.auth.models import AnonymousUser

    from games import live

    ana, bo, cy, watcher = make_user(), make_user(), make_user(), make_user()
    game = services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 1}, created_by=None,
                                players=[ana, bo, cy], turn_seconds=86400)
    services.start_game(game_id=game.pk)
    play_rounds(game, [ana, bo, cy], 1)
    Seat.objects.filter(game=game, index=2).update(resigned_at=timezone.now(), standin_level="greedy")

    def as_seen(read: Game, user) -> tuple:
        view = live.LiveView(read, user)
        return view.seat, live.current_keys(view), selectors.plays_in(read, user), selectors.turn_token(read)

    snapshot = selectors.game_snapshot(game.pk)
    for user in [ana, bo, cy, watcher, AnonymousUser()]:
        assert as_seen(selectors.watched_in(snapshot, user), user) == as_seen(selectors.game_for_viewer(game.pk, user), user)
    memo = snapshot.game.__dict__["_shared_memo"]
    assert {"seats_by_user", "turn_token", "status_seats"} <= set(memo)  # worked out once, for all of them
    assert memo["seats_by_user"] == {ana.pk: 0, bo.pk: 1, cy.pk: 2}

    play_rounds(game, [ana, bo], 1)  # a new version: a new read keeps nothing of the old one
    later = selectors.game_snapshot(game.pk)
    assert later.game.__dict__["_shared_memo"] == {}
    assert as_seen(selectors.watched_in(later, bo), bo) == as_seen(selectors.game_for_viewer(game.pk, bo), bo)
    assert as_seen(selectors.watched_in(later, bo), bo)[1] != as_seen(selectors.watched_in(snapshot, bo), bo)[1]
