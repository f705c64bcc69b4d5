"""Hextension pages: the lobby of open games and the form that opens one."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from games import selectors, services
from games.errors import GameError
from games.hextension import services as hextension_services
from games.hextension.engine import KIND
from games.hextension.forms import HextensionGameForm
from games.models import Game
from games.views import error_response


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    games = selectors.with_free_seats(
        Game.objects.filter(kind=KIND, status=Game.Status.OPEN, visibility=Game.Visibility.PUBLIC))
    page = Paginator(games.order_by("-created_at"), 25).get_page(request.GET.get("page"))
    return render(request, "hextension/lobby.html", {"page": page})


@login_required
def new_game(request: HttpRequest) -> HttpResponse:
    form = HextensionGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        players, ai_seats = data["players"], data["ai_seats"]
        try:
            with transaction.atomic():  # opened and started together, or not at all
                game = hextension_services.open_game(request.user, data)
        except GameError as error:
            return error_response(request, error)
        messages.success(request, _("Your game is open.") if players - ai_seats > 1 else _("Your game has started."))
        return redirect("game_detail", game_id=game.pk)
    return render(request, "hextension/new.html", {"form": form}, status=400 if form.errors else 200)
