"""A pushed page equals a reload (issue 45): each game walked through its whole life with a page
open for every role, each page compared after every step with a fresh GET of its address, and
every control it shows posted (rolled back) to check that its viewer may use it.
``tests/e2e/walk.py`` says how the pages are compared and the controls posted.

The games are driven through the services (as the workers and other players would), and through
the pages where the page must follow by itself (leaving, a rematch, a cancel). Moves are random
legal ones from a seeded RNG (each test prints its ``WALK_SEED``; the run's ``HEXSITE_TEST_SEED``
draws everything again, the games' secret seeds included, and ``WALK_SEED=n`` alone the moves); the AI
seats and stand-ins move by their own bots, called directly (no Celery worker runs, so nothing
moves unless the test moves it). Timeouts are applied by calling the timeout service with a
time past the deadline. Game pages need a signed-in viewer: there is no anonymous role."""
from __future__ import annotations

import os
import random
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.hextremadura import services as hextremadura
from games.leagues import services as leagues
from games.leagues.models import League
from games.models import Game
from games.services import adjudication, after_game, chat
from tests.e2e.walk import Walk
from tests.support.play import random_move, time_out

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DASHBOARD = "/games/"


@pytest.fixture
def walk(asgi_live_server, browser, request, settings, monkeypatch):
    """A walk of this test; the server was started before these limits are raised, so they
    apply only to the controls the test posts and rolls back (each attempt counts in Redis)."""
    settings.GAME_MOVE_RATE_LIMIT = (1_000_000, 10)
    monkeypatch.setattr(chat, "RATE", (1_000_000, 10))
    walk = Walk(browser, asgi_live_server, request.node.name)
    yield walk
    print("\n" + walk.report())


@pytest.fixture
def rng(request):
    seed = int(os.environ.get("WALK_SEED") or random.randrange(1_000_000))  # the run's seed decides it (tests/workers.py)
    print(f"\n{request.node.name}: WALK_SEED={seed}")
    return random.Random(seed)


def finished_walk(walk: Walk) -> None:
    assert not walk.differences, walk.report()


# --- moves ----------------------------------------------------------------------------------

def advance(walk: Walk, game: Game, players: dict, rng: random.Random, label: str, *, stop=lambda game: False,
            skip=(), every: int = 1, limit: int = 600) -> Game:
    """Play until ``stop(game)`` or the end: seats played by an AI (or an AI standing in) by
    their bot, the others (but ``skip``) a random legal move; check the pages every ``every``
    moves."""
    for count in range(1, limit + 1):
        game = Game.objects.get(pk=game.pk)
        awaited = [seat for seat in game.awaiting if seat not in skip]
        if game.status != Game.Status.ACTIVE or stop(game) or not awaited:
            return game
        seat, started = awaited[0], time.monotonic()
        if seat in game.ai_seat_indexes():
            who = "AI"
            services.play_ai_move(game_id=game.pk, expected_version=game.version, seat=seat)
        else:
            who = players[seat].username
            services.submit_move(game_id=game.pk, user=players[seat], move=random_move(game, seat, rng),
                                 expected_version=game.version)
        walk.moves += 1
        walk.timings["actions"] += time.monotonic() - started
        if count % every == 0:
            walk.check(f"{label}: move {count} ({who}, seat {seat + 1})")
    raise AssertionError(f"{label}: still going after {limit} moves")


def rematch_of(game: Game):
    return lambda: f"/games/{Game.objects.get(rematch_of=game).pk}/"


# --- Hextension -----------------------------------------------------------------------------

def test_hextension_walk_from_open_seats_to_a_cancelled_rematch(walk, rng, make_user):
    hana, piet, quin, sven = (make_user(name) for name in ("hana", "piet", "quin", "sven"))
    game = services.create_game(kind="hextension", config={"players": 4, "tiles_per_round": 3}, created_by=hana,
                                turn_seconds=86400)
    path = f"/games/{game.pk}/"
    host = walk.open("hana (host)", hana, path)
    piet_page = walk.open("piet", piet, path)
    walk.open("quin", quin, path, viewport="phone")
    walk.open("sven (spectator)", sven, path)
    walk.step("the game is open")

    walk.step("piet takes a seat", lambda: services.join_game(game_id=game.pk, user=piet))
    walk.click(piet_page, "piet leaves", "Leave this game", goes_to=lambda: DASHBOARD)
    walk.go(piet_page, path)
    walk.step("the host gives seat 4 to the AI", lambda: services.set_seat(game_id=game.pk, by_user=hana, index=3,
                                                                            ai_level="random"))
    walk.step("the host gives seat 2 to the AI", lambda: services.set_seat(game_id=game.pk, by_user=hana, index=1,
                                                                            ai_level="greedy"))
    walk.step("the host opens seat 2 again", lambda: services.set_seat(game_id=game.pk, by_user=hana, index=1))
    walk.step("piet takes a seat again", lambda: services.join_game(game_id=game.pk, user=piet))
    walk.step("quin takes the last seat: the game starts", lambda: services.join_game(game_id=game.pk, user=quin))

    players = {0: hana, 1: piet, 2: quin}
    round_of = lambda game: game.turn_started_version  # noqa: E731
    first = round_of(Game.objects.get(pk=game.pk))
    game = advance(walk, game, players, rng, "round 1", stop=lambda g: round_of(g) != first)
    second = round_of(game)
    game = advance(walk, game, players, rng, "round 2", stop=lambda g: round_of(g) != second, skip=(2,))
    walk.step("round 2: quin's time runs out (no-move rule)", lambda: time_out(game))
    walk.step("piet writes in the chat", lambda: chat.post_message(game_id=game.pk, user=piet, text="well placed"))
    game = advance(walk, game, players, rng, "rounds 3 to 7", every=5)
    assert game.status == Game.Status.FINISHED
    walk.step("the game is over")
    walk.step("the worker's after-game steps (hindsight figures)", lambda: after_game.game_finished(game_id=game.pk))

    walk.click(host, "the host asks for a rematch", "Rematch with the same seats", goes_to=rematch_of(game))
    walk.click(piet_page, "piet joins the rematch", "Join the rematch", goes_to=rematch_of(game))
    walk.click(host, "the host cancels the rematch", "Cancel the game", goes_to=lambda: DASHBOARD)
    finished_walk(walk)


# --- A Hextension league game: replaced, removed, ended by the staff ------------------------

def test_league_game_walk_with_a_replacement_a_removal_and_a_staff_result(walk, rng, make_user):
    olga = make_user("olga", is_staff=True, is_superuser=True)  # organiser and staff
    lena, mats, nils = (make_user(name) for name in ("lena", "mats", "nils"))
    league = leagues.create_league(organiser=olga, name="Walk league", tiles_per_round=3, season_games=1,
                                   round_hours=72, starts_at=timezone.now() + timedelta(days=1),
                                   entry=League.Entry.APPROVAL)
    for user in (lena, mats, nils):  # nils asks too, and waits: a replacement must have asked
        entry = leagues.enter_league(league_id=league.pk, user=user)
        if user != nils:
            leagues.decide_entry(league_id=league.pk, entry_id=entry.pk, by_user=olga, approve=True)
    [game] = leagues.start_season(league_id=league.pk, by_user=olga)
    path = f"/games/{game.pk}/"
    walk.open("olga (organiser, staff)", olga, path)
    walk.open("lena", lena, path)
    walk.open("mats", mats, path)
    walk.open("nils (not yet a player)", nils, path, viewport="phone")
    walk.step("the season has started")

    players = {0: lena, 1: mats}
    first_round = game.turn_started_version
    game = advance(walk, game, players, rng, "round 1", stop=lambda g: 0 not in g.awaiting)
    walk.step("the organiser replaces mats by nils",
              lambda: leagues.replace_player(league_id=league.pk, by_user=olga, old_user=mats, new_user=nils))
    walk.step("the organiser removes lena (the AI plays her seat)",
              lambda: leagues.replace_player(league_id=league.pk, by_user=olga, old_user=lena))
    players = {1: nils}
    game = advance(walk, game, players, rng, "rounds 1 and 2",
                   stop=lambda g: g.turn_started_version > first_round and g.awaiting == [1])
    walk.step("the staff end the game with a result",
              lambda: adjudication.end_game(game_id=game.pk, by_user=olga, reason="a walk", scores=[20, 10]))
    walk.step("the worker's after-game steps (the season ends)", lambda: after_game.game_finished(game_id=game.pk))
    finished_walk(walk)


# --- Hexland --------------------------------------------------------------------------------

def test_hexland_walk_from_open_seats_to_a_cancelled_rematch(walk, rng, make_user):
    hana, piet, quin, sven = (make_user(name) for name in ("hana", "piet", "quin", "sven"))
    config = {"players": 4, "timers": "normal", "vp_to_win": 4, "discard_limit": 7, "max_turns": 200,
              "layout": "fixed", "board_seed": 0}
    game = services.create_game(kind="hexland", config=config, created_by=hana, turn_seconds=120)
    path = f"/games/{game.pk}/"
    host = walk.open("hana (host)", hana, path)
    piet_page = walk.open("piet", piet, path, viewport="phone")
    quin_page = walk.open("quin", quin, path)
    walk.open("sven (spectator)", sven, path)
    walk.step("the room is open")

    walk.step("piet takes a seat", lambda: services.join_game(game_id=game.pk, user=piet))
    walk.click(piet_page, "piet leaves", "Leave this game", goes_to=lambda: DASHBOARD)
    walk.go(piet_page, path)
    walk.step("the host gives seat 4 to the AI", lambda: services.set_seat(game_id=game.pk, by_user=hana, index=3,
                                                                            ai_level="easy"))
    walk.step("the host lowers the points to win",
              lambda: services.update_settings(game_id=game.pk, by_user=hana, config={**config, "vp_to_win": 3}))
    walk.step("piet takes a seat again", lambda: services.join_game(game_id=game.pk, user=piet))
    walk.step("quin takes the last seat: the game starts", lambda: services.join_game(game_id=game.pk, user=quin))

    players = {0: hana, 1: piet, 2: quin}
    # Quin's timeouts, the stand-in and taking the seat back come early: a race to 3 points may
    # end soon after the setup (which gives every seat 2).
    quins_turn = lambda game: game.awaiting == [2]  # noqa: E731
    game = advance(walk, game, players, rng, "setup", stop=quins_turn, every=2)
    walk.step("quin's time runs out", lambda: time_out(game))
    game = advance(walk, game, players, rng, "to quin's next move", stop=quins_turn, every=2)
    walk.step("quin's time runs out again: the AI stands in", lambda: time_out(game))
    game = advance(walk, game, players, rng, "to quin's next move", stop=quins_turn, every=2)
    walk.step("the AI plays for quin", lambda: services.play_ai_move(game_id=game.pk, seat=2,
                                                                     expected_version=game.version))
    walk.step("quin takes the seat back", lambda: services.take_seat_back(game_id=game.pk, user=quin))
    walk.step("piet writes in the chat", lambda: chat.post_message(game_id=game.pk, user=piet, text="good luck"))
    walk.step("piet resigns", lambda: services.resign_game(game_id=game.pk, user=piet))
    game = advance(walk, game, players, rng, "to the end", every=8)
    assert game.status == Game.Status.FINISHED
    walk.step("the game is over")
    walk.step("the worker's after-game steps", lambda: after_game.game_finished(game_id=game.pk))

    walk.click(host, "the host asks for a rematch", "Rematch with the same seats", goes_to=rematch_of(game))
    walk.click(quin_page, "quin joins the rematch", "Join the rematch", goes_to=rematch_of(game))
    walk.click(host, "the host cancels the rematch", "Cancel the game", goes_to=lambda: DASHBOARD)
    finished_walk(walk)


# --- Hextremadura ---------------------------------------------------------------------------

def test_hextremadura_walk_casual_undo_staff_abort_and_a_watched_daily(walk, rng, make_user):
    ines, jon = make_user("ines"), make_user("jon")
    staff = make_user("olga", is_staff=True)
    daily = hextremadura.start_daily_game(user=jon)  # jon finishes today's puzzle: he may watch ines's
    advance(walk, daily, {0: jon}, rng, "jon's daily", every=10_000)

    casual = hextremadura.start_casual_game(user=ines)
    path = f"/games/{casual.pk}/"
    player = walk.open("ines (player)", ines, path)
    watcher = walk.open("jon (not a player)", jon, path)
    walk.step("a casual game has started")
    casual = advance(walk, casual, {0: ines}, rng, "casual", stop=lambda g: g.version >= 3)
    walk.step("ines takes her move back (undo)", lambda: services.undo_last_move(
        game_id=casual.pk, user=ines, expected_version=Game.objects.get(pk=casual.pk).version))
    casual = advance(walk, casual, {0: ines}, rng, "casual", stop=lambda g: g.version >= 6)
    walk.step("the staff abort the game", lambda: adjudication.abort_game(game_id=casual.pk, by_user=staff,
                                                                          reason="a walk"))

    game = walk.step("ines starts today's puzzle", lambda: hextremadura.start_daily_game(user=ines))
    for viewer in (player, watcher):
        walk.go(viewer, f"/games/{game.pk}/")
    walk.step("ines's daily puzzle, open for both")
    game = advance(walk, game, {0: ines}, rng, "the daily puzzle")
    assert game.status == Game.Status.FINISHED
    walk.step("the worker's after-game steps", lambda: after_game.game_finished(game_id=game.pk))
    finished_walk(walk)
