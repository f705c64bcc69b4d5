"""Rate limits on move submission (finding 9), and submissions that race each other."""
from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games import ratelimit, services, state_store
from games.models import Game, MoveEvent
from tests.support.concurrency import run_at_once
from tests.support.factories import toy_game

LIMIT = ratelimit.MOVES[0]
WINDOW = 600  # longer than the tests take, however slow the machine: no timing in them
TOO_FAST = "You are sending moves too fast; wait a few seconds."


@pytest.fixture(autouse=True)
def _long_window(settings):
    settings.GAME_MOVE_RATE_LIMIT = (LIMIT, WINDOW)


def open_hextension(ana, bo) -> Game:
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2}, created_by=ana,
                                turn_seconds=86400)
    services.join_game(game_id=game.pk, user=bo)
    game.refresh_from_db()
    return game


def a_placement(game: Game, seat: int) -> dict:
    from games.hextension import engine as hextension

    return hextension.legal_moves(state_store.load(game), seat)[0]


def post_move(client, game: Game, move: dict, version: int, htmx: bool = False):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("game_move", args=[game.pk]), {"move": json.dumps(move), "version": version}, **headers)


def test_hit_counts_per_scope_and_key_and_opens_a_new_window_when_the_last_one_expires():
    assert [ratelimit.hit("test", "a", 3, 60) for _ in range(5)] == [True, True, True, False, False]
    assert ratelimit.hit("test", "b", 3, 60) and ratelimit.hit("other", "a", 3, 60)  # counted apart
    cache.delete("ratelimit:test:a")  # what Redis does when the window's time is up
    assert ratelimit.hit("test", "a", 3, 60)


@pytest.mark.django_db
def test_thirty_rapid_submissions_write_at_most_the_limit_and_the_rest_are_429(client, make_user):
    ana, bo = make_user(), make_user()
    game = open_hextension(ana, bo)
    from games.hextension import engine as hextension

    moves = hextension.legal_moves(state_store.load(game), 0)[:2]
    move, version = moves[0], game.version
    client.force_login(ana)
    # A Hextension player may replace a submission: each accepted one is an event. (Each from
    # the page the previous one left, alternating two choices: the same move sent again from
    # the same page would be a retry, answered without a new event.)
    statuses = [post_move(client, game, moves[i % 2], Game.objects.get(pk=game.pk).version).status_code
                for i in range(30)]
    assert statuses == [302] * LIMIT + [429] * (30 - LIMIT)
    assert MoveEvent.objects.filter(game=game).count() == LIMIT
    response = post_move(client, game, move, version)
    assert response.status_code == 429 and TOO_FAST in response.content.decode()
    assert response["Retry-After"] == str(WINDOW)
    response = post_move(client, game, move, version, htmx=True)  # htmx: shown beside the control used
    assert response.status_code == 429 and response.json()["type"] == "error"
    assert TOO_FAST in response.content.decode()
    assert MoveEvent.objects.filter(game=game).count() == LIMIT
    # The limit is per user and game: bo plays on, and ana in another game.
    client.force_login(bo)
    assert post_move(client, game, a_placement(game, 1), game.version).status_code == 302
    other = open_hextension(ana, bo)
    client.force_login(ana)
    assert post_move(client, other, a_placement(other, 0), other.version).status_code == 302


@pytest.mark.django_db
def test_refused_attempts_count_too(client, make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    client.force_login(ana)
    statuses = {post_move(client, game, {"type": "add", "n": 9}, 0).status_code for _ in range(LIMIT)}
    assert statuses == {400}
    response = post_move(client, game, {"type": "add", "n": 1}, 0)
    assert response.status_code == 429 and Game.objects.get(pk=game.pk).version == 0


@pytest.mark.django_db(transaction=True)
def test_two_identical_submissions_at_once_make_one_move(make_user):
    """Two connections send the same move for the same turn: the row lock serialises them,
    one is played and the other finds it already played (a double click): both are answered
    as played, and there is one event."""
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)

    def submit():
        client = Client()
        client.force_login(ana)
        return post_move(client, game, {"type": "add", "n": 2}, 0).status_code

    assert sorted(run_at_once(submit)) == [302, 302]
    game.refresh_from_db()
    assert game.version == 1 and list(game.events.values_list("seq", "seat", "payload")) == [(1, 0, {"type": "add", "n": 2})]
    assert state_store.replay(game).total == 2


@pytest.mark.django_db(transaction=True)
def test_both_players_submitting_at_once_close_the_round_once(make_user):
    """Hextension's last two submissions of a round arrive together: both are stored and the
    round closes exactly once, as replay agrees."""
    from games.hextension import engine as hextension

    ana, bo = make_user(), make_user()
    game = open_hextension(ana, bo)
    moves = {ana: a_placement(game, 0), bo: a_placement(game, 1)}
    players = iter([ana, bo])

    def submit():
        user = next(players)
        client = Client()
        client.force_login(user)
        return post_move(client, game, moves[user], 0).status_code

    assert run_at_once(submit) == [302, 302]
    game.refresh_from_db()
    assert game.version == 2 and sorted(game.events.values_list("seq", flat=True)) == [1, 2]
    replayed = state_store.replay(game)
    assert hextension.view(replayed, 0)["round"] == 2
    assert hextension.view(state_store.load(game), 0) == hextension.view(replayed, 0)
