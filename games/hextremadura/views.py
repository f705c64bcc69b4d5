"""Hextremadura pages: the solo home, casual games, the daily puzzle and its leaderboard."""
from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import selectors as platform_selectors
from games.errors import BadMove, GameError, GameNotActive, GameNotFound
from games.hextremadura import selectors, services
from games.views import error_response


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    puzzle = selectors.puzzle_of(services.today())  # made by the first player to start it
    context = {
        "today": services.today(),
        "puzzle": puzzle,
        "par": selectors.par_info(puzzle),
        "attempt": selectors.daily_attempt(request.user, puzzle),
        "leaderboard": selectors.leaderboard(puzzle, limit=10),
        "stats": selectors.solo_stats(request.user),
    }
    return render(request, "hextremadura/home.html", context)


@login_required
@require_POST
def new_casual_game(request: HttpRequest) -> HttpResponse:
    try:
        game = services.start_casual_game(user=request.user)
    except GameError as error:  # a play ban
        return error_response(request, error)
    return redirect("game_detail", game_id=game.pk)


@login_required
@require_POST
def start_daily(request: HttpRequest) -> HttpResponse:
    try:
        game = services.start_daily_game(user=request.user)
    except GameNotActive as error:
        attempt = selectors.daily_attempt(request.user, selectors.puzzle_of(services.today()))
        if attempt is None:
            return error_response(request, error)
        messages.info(request, error.message)
        return redirect("game_detail", game_id=attempt.pk)
    except GameError as error:  # a play ban
        return error_response(request, error)
    return redirect("game_detail", game_id=game.pk)


@login_required
@require_GET
def daily_leaderboard(request: HttpRequest, date: str) -> HttpResponse:
    try:
        day = dt.date.fromisoformat(date)
    except ValueError:
        return error_response(request, GameError(_("That is not a date (use YYYY-MM-DD).")))
    puzzle = selectors.puzzle_of(day)
    if puzzle is None:
        return error_response(request, GameNotFound(_("There was no puzzle that day.")))
    return render(request, "hextremadura/leaderboard.html",
                  {"puzzle": puzzle, "rows": selectors.leaderboard(puzzle), "par": selectors.par_info(puzzle),
                   "attempt": selectors.daily_attempt(request.user, puzzle)})


@login_required
@require_GET
def solver_game(request: HttpRequest, game_id: int) -> HttpResponse:
    """The solver's game on a finished game's shuffle, placement by placement (``?at=N``)."""
    try:
        game = platform_selectors.game_for_viewer(game_id, request.user)
        at = int(request.GET.get("at", 0))
        step = selectors.solver_game(game, at)
    except ValueError:
        return error_response(request, BadMove(_("Give the step as a whole number.")), game_id)
    except GameError as error:
        return error_response(request, error, game_id)
    return render(request, "hextremadura/solver_game.html", {"step": step, "game": game, "par": step.par})
