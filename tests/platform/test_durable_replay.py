"""Replays are durable: a timeout stores the decision it resolved to, so replaying a game never
runs a bot; old timeout events (stored empty) still replay; and a cached state that no longer
loads is a cache miss, replayed from the events."""
from __future__ import annotations

import pickle
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse

from games import services, state_store
from games.hextension import engine as hextension
from games.hextension.engine import ai as hextension_ai
from games.models import Game, MoveEvent
from games.sites import get_engine

pytestmark = pytest.mark.django_db

DAY = 86400


def started_game(*users, tiles_per_round=2) -> Game:
    game = services.create_game(
        kind="hextension", config={"players": len(users), "tiles_per_round": tiles_per_round},
        created_by=users[0], players=list(users), join=False, turn_seconds=DAY,
    )
    services.start_game(game_id=game.pk)
    game.refresh_from_db()
    return game


def first_free_placement(state, seat: int) -> dict:
    board = hextension.view(state, seat)["seats"][seat]["board"]
    tiles = hextension.view(state, seat)["drawn"]
    return {"type": "place", "placements": dict(zip(tiles, [c for c in hextension.CELLS if c not in board]))}


def submit_first_free(game: Game, user, seat: int) -> None:
    game.refresh_from_db()
    move = first_free_placement(state_store.load(game), seat)
    services.submit_move(game_id=game.pk, user=user, move=move, expected_version=game.version)


def views(state, seats: int) -> list[dict]:
    """What every seat and a spectator see: two states that show the same are the same game."""
    return [hextension.view(state, seat) for seat in [*range(seats), None]]


def break_the_bots(monkeypatch) -> None:
    """From here on any run of the Hextension AI fails the test."""
    def bot_ran(*args, **kwargs):
        raise AssertionError("replay ran a bot")

    for name in ("place", "choose_move", "_strong", "_search", "_greedy", "_expectation"):
        monkeypatch.setattr(hextension_ai, name, bot_ran)


def forget_every_cached_state() -> None:
    state_store.forget_local()
    cache.clear()


def test_a_timeout_stores_the_ai_placement_and_replay_never_runs_the_ai(make_user, monkeypatch,
                                                                       django_capture_on_commit_callbacks):
    ana, bo = make_user(), make_user()
    game = started_game(ana, bo)
    submit_first_free(game, bo, 1)
    game.refresh_from_db()
    before = state_store.load(game)
    with django_capture_on_commit_callbacks(execute=True):  # the writer caches what it built
        assert services.sweep_deadlines(now=game.deadline_at + timedelta(seconds=1)) == 1

    event = MoveEvent.objects.get(game=game, kind=MoveEvent.Kind.TIMEOUT)
    assert event.seat == 0
    # The first NMR: the strong AI's placement of the round's tiles, stored as it was decided.
    tiles = hextension.view(before, 0)["drawn"]
    assert event.payload == {"placements": hextension_ai.place({}, tiles, "strong", seen=[])}
    assert sorted(event.payload["placements"]) == sorted(tiles)
    game.refresh_from_db()
    written = state_store.cached(game, game.version)
    assert written is not None and hextension.view(written, 0)["round"] == 2

    break_the_bots(monkeypatch)
    forget_every_cached_state()
    assert views(state_store.replay(game), 2) == views(written, 2)
    assert views(state_store.load(game), 2) == views(written, 2)
    submit_first_free(game, ana, 0)  # play goes on from the replayed state
    submit_first_free(game, bo, 1)
    assert state_store.replay(game).round == 2  # the third round is open


def test_an_old_timeout_stored_empty_still_replays_to_the_state_it_gave(make_user):
    """Events from before stored resolutions: a timeout's payload is {} and replay runs the
    engine's timeout rule. Such rows are written here the way the old code wrote them."""
    ana, bo = make_user(), make_user()
    game = started_game(ana, bo, tiles_per_round=1)
    engine = get_engine("hextension")
    start = engine.new_state(game.config, game.seed)
    bos_move = first_free_placement(start, 1)
    MoveEvent.objects.bulk_create([
        MoveEvent(game=game, seq=1, seat=1, kind=MoveEvent.Kind.MOVE, payload=bos_move, created_by=bo),
        MoveEvent(game=game, seq=2, seat=0, kind=MoveEvent.Kind.TIMEOUT, payload={}),
    ])
    Game.objects.filter(pk=game.pk).update(version=2)
    game.refresh_from_db()

    after_bo = engine.apply(start, 1, bos_move)
    # What replay of this event always gave: the first NMR placed by the strong AI of that
    # time, kept as the level ``strong-v1`` (the strong level has a new value and search since).
    tiles = hextension.view(after_bo, 0)["drawn"]
    old_placement = hextension_ai.place({}, tiles, "strong-v1", seen=[])
    as_before = engine.apply_timeout(after_bo, 0, {"placements": old_placement})
    replayed = state_store.replay(game)
    assert views(replayed, 2) == views(as_before, 2)
    assert replayed.nmr == (1, 0) and replayed.round == 1 and len(replayed.boards[0]) == 1
    assert replayed.boards[0] == {cell: tile for tile, cell in old_placement.items()}
    # And the game plays on through the write path.
    submit_first_free(game, ana, 0)
    assert state_store.replay(game).round == 1  # Ana's move of round 2; Bo is awaited


def cache_under_the_current_key(game: Game, blob: bytes) -> None:
    state_store.forget_local()
    cache.set(state_store._key(game, game.version), blob)


class RenamedSince:  # a class that an old pickle names, moved away below
    pass


@pytest.mark.parametrize("blob", [
    b"not a pickle at all",
    # A state pickled before its class was renamed: the name it refers to is gone.
    pickle.dumps(RenamedSince(), protocol=0).replace(b"RenamedSince", b"RenamedAfterwards"),
    # ... or before its module moved.
    pickle.dumps(RenamedSince(), protocol=0).replace(b"tests.platform.test_durable_replay", b"tests.platform.moved_away"),
], ids=["garbage", "renamed-class", "moved-module"])
def test_a_cached_state_that_no_longer_loads_is_a_miss_that_replays(make_user, client, blob):
    ana, bo = make_user(), make_user()
    game = started_game(ana, bo)
    submit_first_free(game, bo, 1)
    game.refresh_from_db()
    truth = views(state_store.replay(game), 2)
    cache_under_the_current_key(game, blob)
    with pytest.raises(Exception):
        pickle.loads(blob)

    assert state_store.cached(game, game.version) is None
    assert views(state_store.load(game), 2) == truth  # replayed, and cached again
    assert views(state_store.cached(game, game.version), 2) == truth
    cache_under_the_current_key(game, blob)
    client.force_login(ana)
    page = client.get(reverse("game_detail", args=[game.pk]))
    assert page.status_code == 200  # not a 500


def test_the_cache_key_carries_the_engines_version(make_user, monkeypatch):
    ana, bo = make_user(), make_user()
    game = started_game(ana, bo)
    submit_first_free(game, bo, 1)
    game.refresh_from_db()
    state = state_store.load(game)
    assert state_store.cached(game, game.version) is state
    engine = get_engine("hextension")
    monkeypatch.setattr(engine, "ENGINE_VERSION", f"{engine.ENGINE_VERSION}-next")
    assert state_store.cached(game, game.version) is None  # a new engine never reads an old state
    assert views(state_store.load(game), 2) == views(state, 2)
