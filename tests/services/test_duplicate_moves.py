"""A move sent twice (a double click, a retry after a lost answer) is stored once; a deliberate
repeat, made from a page that shows the first, is a move of its own."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import services, state_store
from games.errors import StaleVersion
from games.hextension import engine as hextension
from games.models import Game, MoveEvent
from tests.support.concurrency import run_at_once
from tests.support.factories import toy_game


def hextension_game(ana, bo) -> Game:
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2},
                                players=[ana, bo], turn_seconds=86400)
    services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def placement(game: Game, seat: int, cells=("E1", "E2")) -> dict:
    drawn = hextension.view(state_store.load(game), seat)["drawn"]
    return {"type": "place", "placements": dict(zip(drawn, cells))}


@pytest.mark.django_db
def test_the_same_round_submission_sent_twice_is_one_event(make_user):
    ana, bo = make_user(), make_user()
    game = hextension_game(ana, bo)
    move = placement(game, 0)
    services.submit_move(game_id=game.pk, user=ana, move=move, expected_version=0)
    services.submit_move(game_id=game.pk, user=ana, move=move, expected_version=0)  # answered, not stored
    assert list(MoveEvent.objects.filter(game=game).values_list("seat", "kind")) == [(0, "move")]
    assert Game.objects.get(pk=game.pk).version == 1
    # A different choice in the same round is a replacement, and stored.
    services.submit_move(game_id=game.pk, user=ana, move=placement(game, 0, ("D1", "D2")), expected_version=0)
    assert MoveEvent.objects.filter(game=game).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_double_click_racing_itself_is_one_event(make_user):
    ana, bo = make_user(), make_user()
    game = hextension_game(ana, bo)
    move = placement(game, 0)
    outcomes = run_at_once(lambda: services.submit_move(game_id=game.pk, user=ana, move=move, expected_version=0), 3)
    assert not [o for o in outcomes if isinstance(o, Exception)]
    assert MoveEvent.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_a_turn_based_retry_is_answered_and_a_deliberate_repeat_is_played(make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo, target=100)
    add_one = {"type": "add", "n": 1}
    services.submit_move(game_id=game.pk, user=ana, move=add_one, expected_version=0)
    services.submit_move(game_id=game.pk, user=ana, move=add_one, expected_version=0)  # retry: no 409, no event
    with pytest.raises(StaleVersion):  # another move from the old page is still refused
        services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 2}, expected_version=0)
    services.submit_move(game_id=game.pk, user=bo, move=add_one, expected_version=1)
    services.submit_move(game_id=game.pk, user=ana, move=add_one, expected_version=2)  # seen the first: a new move
    assert list(MoveEvent.objects.filter(game=game).order_by("seq").values_list("seq", "seat")) == [(1, 0), (2, 1), (3, 0)]


@pytest.mark.django_db
def test_a_form_posted_twice_gets_two_answers_and_one_event(make_user):
    ana, bo = make_user(), make_user()
    game = hextension_game(ana, bo)
    client = Client()
    client.force_login(ana)
    import json

    data = {"move": json.dumps(placement(game, 0)), "version": "0"}
    first = client.post(f"/games/{game.pk}/move/", data, HTTP_HX_REQUEST="true")
    second = client.post(f"/games/{game.pk}/move/", data, HTTP_HX_REQUEST="true")
    assert (first.status_code, second.status_code) == (200, 200)
    assert MoveEvent.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_under_the_lock_a_submission_makes_one_read_and_one_write(make_user, django_capture_on_commit_callbacks):
    """Every round trip under the game's row lock is time the other seats of a large round wait:
    the lock, the seats and the check for a repeat go in one; the events, with the game's row, in
    the other."""
    ana, bo = make_user(), make_user()
    game = hextension_game(ana, bo)
    with django_capture_on_commit_callbacks(execute=True):  # the state is cached after commit, as in production
        services.submit_move(game_id=game.pk, user=bo, move=placement(game, 1), expected_version=0)
    with CaptureQueriesContext(connection) as queries:  # ana's page is from before bo's move
        services.submit_move(game_id=game.pk, user=ana, move=placement(game, 0), expected_version=0)
    sql = [query["sql"] for query in queries if "SAVEPOINT" not in query["sql"]]  # the test's own transaction
    locked = next(i for i, statement in enumerate(sql) if "FOR UPDATE" in statement)
    read, write = sql[locked:]
    assert read.startswith("SELECT") and 'FROM "games_seat"' in read and '"games_moveevent"' in read
    assert 'INSERT INTO "games_moveevent"' in write and 'UPDATE "games_game"' in write
    assert list(MoveEvent.objects.filter(game=game).order_by("seq").values_list("seq", "seat")) == [(1, 1), (2, 0)]
    written = Game.objects.get(pk=game.pk)
    assert (written.version, written.turn_started_version) == (2, 2)  # the round closed, in the same write
