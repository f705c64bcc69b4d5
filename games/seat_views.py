"""HTTP edges of seats: before the start the host's seat and settings tools, leaving and
cancelling; during a game resigning and taking a seat back from the AI. Each calls one service."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import selectors, services
from games.ai_names import level_name
from games.errors import BadMove, GameError
from games.sites import get_site
from games.views import error_response, live_answer


def _act(request: HttpRequest, game_id: int, action, done: str, *, to_dashboard: bool = False) -> HttpResponse:
    try:
        selectors.game_for_viewer(game_id, request.user)
        action()
    except GameError as error:
        return error_response(request, error, game_id)
    if request.htmx and not to_dashboard:
        # The live page that asked: its regions at the new version, and the note beside the control.
        return live_answer(request, selectors.game_for_viewer(game_id, request.user), notice=done)
    messages.success(request, done)
    return _go(request, reverse("dashboard") if to_dashboard else reverse("game_detail", args=[game_id]))


def _go(request: HttpRequest, url: str) -> HttpResponse:
    """To another page: a plain redirect, or for htmx (which would follow a redirect inside its
    request and swap nothing) an instruction to the browser to go there (the note waits there)."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
@require_POST
def set_seat(request: HttpRequest, game_id: int, index: int) -> HttpResponse:
    level = request.POST.get("ai_level", "")
    return _act(request, game_id, lambda: services.set_seat(game_id=game_id, by_user=request.user, index=index,
                                                            ai_level=level),
                _("Seat %(number)s is now played by the AI (%(level)s).") % {"number": index + 1, "level": level_name(level)}
                if level else _("Seat %(number)s is open.") % {"number": index + 1})


@login_required
@require_POST
def change_settings(request: HttpRequest, game_id: int) -> HttpResponse:
    def change():
        game = selectors.game_for_viewer(game_id, request.user)
        form_class = get_site(game.kind).settings_form
        if form_class is None:
            raise BadMove(_("This game's settings cannot be changed."))
        form = form_class(request.POST)
        if not form.is_valid():
            # Translators: one refused setting of a game: its label, then why ("Players: Choose 2 to 4.").
            problems = "; ".join(_("%(field)s: %(errors)s") % {"field": form.fields[name].label or name, "errors": " ".join(errs)}
                                 if name in form.fields else " ".join(errs) for name, errs in form.errors.items())
            raise BadMove(_("These settings cannot be used: %(problems)s") % {"problems": problems})
        services.update_settings(game_id=game_id, by_user=request.user, config={**game.config, **form.config()},
                                 turn_seconds=form.turn_seconds())

    return _act(request, game_id, change, _("The settings have been changed."))


@login_required
@require_POST
def start(request: HttpRequest, game_id: int) -> HttpResponse:
    fill = request.POST.get("fill_with_ai", "")
    return _act(request, game_id, lambda: services.start_game(game_id=game_id, by_user=request.user,
                                                              fill_with_ai=fill), _("The game has started."))


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    return _act(request, game_id, lambda: services.leave_game(game_id=game_id, user=request.user),
                _("You have left the game."), to_dashboard=True)


@login_required
@require_POST
def cancel(request: HttpRequest, game_id: int) -> HttpResponse:
    return _act(request, game_id, lambda: services.cancel_game(game_id=game_id, by_user=request.user),
                _("The game has been cancelled."), to_dashboard=True)


@login_required
@require_POST
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    return _act(request, game_id, lambda: services.resign_game(game_id=game_id, user=request.user),
                _("You have resigned: the AI plays your seat to the end."))


@login_required
@require_POST
def take_back(request: HttpRequest, game_id: int) -> HttpResponse:
    return _act(request, game_id, lambda: services.take_seat_back(game_id=game_id, user=request.user),
                _("Welcome back: your seat is yours again."))


@login_required
@require_POST
def rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        selectors.game_for_viewer(game_id, request.user)
        game = services.rematch(game_id=game_id, user=request.user)
    except GameError as error:
        return error_response(request, error, game_id)
    messages.success(request, _rematch_notice(game, request.user))
    return _go(request, reverse("game_detail", args=[game.pk]))


def _rematch_notice(game, user) -> str:
    """What the player who asked is told: the one who opened the rematch, or one who joined it."""
    if game.created_by_id == user.pk:
        if game.status == game.Status.ACTIVE:
            return _("The rematch has started.")
        return _("The rematch is open: the other players are invited from the old game's page.")
    if game.status == game.Status.OPEN:
        return _("You have joined the rematch: it starts when every seat is taken, or when its host starts it.")
    if game.status == game.Status.ACTIVE:
        return _("You have joined the rematch: it has started.")
    return _("This rematch has already started without you.")
