"""Hextremadura pages: the solo home, casual games, the daily puzzle, hints and undo."""
from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from games import selectors, services, solo
from games.errors import GameError, GameNotActive, NotYourSeat
from games.models import DailyPuzzle
from games.views import error_response, game_board_response


@login_required
def home(request: HttpRequest) -> HttpResponse:
    puzzle = solo.todays_puzzle()
    context = {
        "puzzle": puzzle,
        "attempt": solo.daily_attempt(request.user, puzzle),
        "leaderboard": solo.leaderboard(puzzle, limit=10),
        "stats": solo.solo_stats(request.user),
    }
    return render(request, "games/hextremadura/home.html", context)


@login_required
@require_POST
def new_casual_game(request: HttpRequest) -> HttpResponse:
    game = solo.start_casual_game(user=request.user)
    return redirect("game_detail", game_id=game.pk)


@login_required
@require_POST
def start_daily(request: HttpRequest) -> HttpResponse:
    try:
        game = solo.start_daily_game(user=request.user)
    except GameNotActive as error:
        attempt = solo.daily_attempt(request.user, solo.todays_puzzle())
        if attempt is None:
            return error_response(request, error)
        messages.info(request, error.message)
        return redirect("game_detail", game_id=attempt.pk)
    return redirect("game_detail", game_id=game.pk)


@login_required
def daily_leaderboard(request: HttpRequest, date: str) -> HttpResponse:
    try:
        day = dt.date.fromisoformat(date)
    except ValueError:
        return error_response(request, GameError("That is not a date (use YYYY-MM-DD)."))
    puzzle = get_object_or_404(DailyPuzzle, date=day)
    return render(request, "games/hextremadura/leaderboard.html",
                  {"puzzle": puzzle, "rows": solo.leaderboard(puzzle), "attempt": solo.daily_attempt(request.user, puzzle)})


@login_required
@require_GET
def hint(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = selectors.game_for_viewer(game_id, request.user)
        seat = selectors.seat_of(game, request.user)
        if seat is None:
            raise NotYourSeat("You are not playing in this game.")
        move = solo.hint(game, seat)
    except GameError as error:
        return error_response(request, error, game_id)
    return render(request, "games/hextremadura/_hint.html", {"game": game, "hint": move})


@login_required
@require_POST
def undo(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        selectors.game_for_viewer(game_id, request.user)
        version = int(request.POST.get("version", "-1"))
        services.undo_last_move(game_id=game_id, user=request.user, expected_version=version)
    except ValueError:
        return error_response(request, GameError("The form is missing the game version; reload the page."), game_id)
    except GameError as error:
        return error_response(request, error, game_id)
    return game_board_response(request, game_id, "Your last placement was taken back.")
