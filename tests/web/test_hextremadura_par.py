"""Hextremadura's par on the site: computed by the new solver for the daily puzzle and for
every casual game, shown as "proved best" or "best found", and the solver's game stepped
through once the player's own game is over."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games import jobs, services, state_store
from games.hextremadura import engine as hextremadura
from games.hextremadura import services as solo
from games.hextremadura.engine.rules import MAX_SCORE
from games.hextremadura.models import CasualPar, DailyPuzzle
from games.models import Game

pytestmark = pytest.mark.django_db


def finish(game, user):
    """Play the first legal placement until the game is over."""
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        move = hextremadura.legal_moves(state_store.load(game), 0)[0]
        services.submit_move(game_id=game.pk, user=user, move=move, expected_version=game.version)


def test_the_daily_par_comes_from_the_new_solver_with_its_proof_and_game():
    puzzle = DailyPuzzle.objects.create(date=solo.today(), seed=1)  # a shuffle with a quick 15
    assert solo.compute_par(puzzle.pk, budget_s=30) == MAX_SCORE
    puzzle.refresh_from_db()
    assert puzzle.par == MAX_SCORE and puzzle.par_proved
    state = hextremadura.replay({}, 1, puzzle.par_moves)
    assert hextremadura.result(state)["score"] == MAX_SCORE
    assert solo.compute_par(puzzle.pk) is None  # stored once


def test_a_casual_game_queues_its_par_and_the_task_stores_it(make_user, monkeypatch, django_capture_on_commit_callbacks):
    queued = []
    monkeypatch.setattr(jobs, "enqueue", lambda name, *args, **kw: queued.append((name, args)))
    ana = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        game = solo.start_casual_game(user=ana)
    assert queued == [("games.tasks.compute_casual_par", (game.pk,))]
    score = solo.compute_casual_par(game.pk, budget_s=1.0)
    par = CasualPar.objects.get(game=game)
    assert par.par == score and par.par_proved == (score == MAX_SCORE)
    assert hextremadura.result(hextremadura.replay({}, game.seed, par.par_moves))["score"] == score
    assert solo.compute_casual_par(game.pk) is None  # once


def test_a_puzzle_without_a_par_is_queued_again_but_not_at_every_visit(monkeypatch, django_capture_on_commit_callbacks):
    # As after migration 0002, which cleared the old beam's pars.
    queued = []
    monkeypatch.setattr(jobs, "enqueue", lambda name, *args, **kw: queued.append((name, args)))
    puzzle = DailyPuzzle.objects.create(date=solo.today(), seed=3, par=None)
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            assert solo.ensure_puzzle().pk == puzzle.pk
    assert queued == [("games.tasks.compute_daily_par", (puzzle.pk,))]
    DailyPuzzle.objects.filter(pk=puzzle.pk).update(par=15, par_proved=True)
    other = DailyPuzzle.objects.create(date=solo.today().replace(year=2001), seed=4, par=12, par_proved=False)
    with django_capture_on_commit_callbacks(execute=True):
        solo.ensure_puzzle(other.date)
    assert len(queued) == 1  # a puzzle with a par is left alone


def test_the_home_page_says_proved_best_or_best_found(client, make_user):
    client.force_login(make_user())
    puzzle = DailyPuzzle.objects.create(date=solo.today(), par=None)
    page = client.get(reverse("hextremadura_home")).content.decode()
    assert "still working out the par" in page
    DailyPuzzle.objects.filter(pk=puzzle.pk).update(par=14, par_proved=False)
    page = client.get(reverse("hextremadura_home")).content.decode()
    assert 'data-par="14"' in page and "best found" in page and "proved best" not in page
    DailyPuzzle.objects.filter(pk=puzzle.pk).update(par=15, par_proved=True)
    page = client.get(reverse("hextremadura_home")).content.decode()
    assert 'data-par="15"' in page and "proved best" in page and "best found" not in page
    board = client.get(reverse("hextremadura_leaderboard", args=[puzzle.date.isoformat()])).content.decode()
    assert "proved best" in board


def test_the_solver_game_is_shown_step_by_step_only_after_the_game(client, make_user):
    ana, bo = make_user(), make_user()
    game = solo.start_casual_game(user=ana)
    solo.compute_casual_par(game.pk, budget_s=1.0)
    par = CasualPar.objects.get(game=game)
    url = reverse("hextremadura_solver_game", args=[game.pk])
    client.force_login(ana)
    early = client.get(url)
    assert early.status_code == 409 and "once yours is over" in early.content.decode()
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Step through the solver" not in page  # the moves would show the shuffle

    finish(game, ana)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert f'data-par="{par.par}"' in page and url in page
    assert ("proved best" if par.par_proved else "best found") in page
    step = client.get(url, {"at": 3})
    text = step.content.decode()
    assert step.status_code == 200 and "After placement <strong>3</strong>" in text
    third = par.par_moves[2]
    assert f"{third['tile']} at ({third['q']}, {third['r']})" in text
    assert text.count("<li") >= len(par.par_moves)
    last = client.get(url, {"at": 999}).content.decode()  # clamped to the end
    assert f"After placement <strong>{len(par.par_moves)}</strong>" in last
    assert f"score now {par.par} of 15" in last
    assert client.get(url, {"at": "x"}).status_code == 400

    client.force_login(bo)  # a casual game is private: only its player
    assert client.get(url).status_code == 403


def test_no_par_yet_is_a_clear_404(client, make_user):
    ana = make_user()
    game = finish(solo.start_casual_game(user=ana), ana)
    client.force_login(ana)
    response = client.get(reverse("hextremadura_solver_game", args=[game.pk]))
    assert response.status_code == 404 and "not played this shuffle yet" in response.content.decode()
