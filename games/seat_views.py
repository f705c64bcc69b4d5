"""HTTP edges of seats: before the start the host's seat and settings tools, leaving and
cancelling; during a game resigning and taking a seat back from the AI. Each calls one service."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from games import selectors, services
from games.errors import BadMove, GameError
from games.sites import get_site
from games.views import error_response


def _act(request: HttpRequest, game_id: int, action, done: str, *, to_dashboard: bool = False) -> HttpResponse:
    try:
        selectors.game_for_viewer(game_id, request.user)
        action()
    except GameError as error:
        return error_response(request, error, game_id)
    messages.success(request, done)
    return redirect("dashboard") if to_dashboard else redirect("game_detail", game_id=game_id)


@login_required
@require_POST
def set_seat(request: HttpRequest, game_id: int, index: int) -> HttpResponse:
    level = request.POST.get("ai_level", "")
    return _act(request, game_id, lambda: services.set_seat(game_id=game_id, by_user=request.user, index=index,
                                                            ai_level=level),
                f"Seat {index + 1} is now played by the AI ({level})." if level else f"Seat {index + 1} is open.")


@login_required
@require_POST
def change_settings(request: HttpRequest, game_id: int) -> HttpResponse:
    def change():
        game = selectors.game_for_viewer(game_id, request.user)
        form_class = get_site(game.kind).settings_form
        if form_class is None:
            raise BadMove("This game's settings cannot be changed.")
        form = form_class(request.POST)
        if not form.is_valid():
            problems = "; ".join(f"{form.fields[name].label or name}: {' '.join(errs)}" if name in form.fields
                                 else " ".join(errs) for name, errs in form.errors.items())
            raise BadMove(f"These settings cannot be used: {problems}")
        services.update_settings(game_id=game_id, by_user=request.user, config={**game.config, **form.config()},
                                 turn_seconds=form.turn_seconds())

    return _act(request, game_id, change, "The settings have been changed.")


@login_required
@require_POST
def start(request: HttpRequest, game_id: int) -> HttpResponse:
    fill = request.POST.get("fill_with_ai", "")
    return _act(request, game_id, lambda: services.start_game(game_id=game_id, by_user=request.user,
                                                              fill_with_ai=fill), "The game has started.")


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    return _act(request, game_id, lambda: services.leave_game(game_id=game_id, user=request.user),
                "You have left the game.", to_dashboard=True)


@login_required
@require_POST
def cancel(request: HttpRequest, game_id: int) -> HttpResponse:
    return _act(request, game_id, lambda: services.cancel_game(game_id=game_id, by_user=request.user),
                "The game has been cancelled.", to_dashboard=True)


@login_required
@require_POST
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    return _act(request, game_id, lambda: services.resign_game(game_id=game_id, user=request.user),
                "You have resigned: the AI plays your seat to the end.")


@login_required
@require_POST
def take_back(request: HttpRequest, game_id: int) -> HttpResponse:
    return _act(request, game_id, lambda: services.take_seat_back(game_id=game_id, user=request.user),
                "Welcome back: your seat is yours again.")


@login_required
@require_POST
def rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        selectors.game_for_viewer(game_id, request.user)
        game = services.rematch(game_id=game_id, user=request.user)
    except GameError as error:
        return error_response(request, error, game_id)
    messages.success(request, "The rematch is open: the other players are invited from the old game's page.")
    return redirect("game_detail", game_id=game.pk)
