"""Hexland pages: the lobby of rooms and the form that opens one. The room itself is the
platform's game page with Hexland's board."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from games.errors import GameError
from games.hexland import selectors, services
from games.hexland.forms import RoomForm
from games.views import error_response


@login_required
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.open_rooms(), 25).get_page(request.GET.get("page"))
    return render(request, "hexland/lobby.html", {"page": page, "mine": selectors.rooms_of(request.user)[:25]})


@login_required
def new_room(request: HttpRequest) -> HttpResponse:
    form = RoomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.open_room(host=request.user, title=form.cleaned_data["title"],
                                      visibility=form.cleaned_data["visibility"], config=form.config(),
                                      ai_seats=form.ai_seats(), turn_seconds=form.turn_seconds())
        except GameError as error:
            return error_response(request, error)
        messages.success(request, "Your room has started." if game.status == "active" else "Your room is open.")
        return redirect("game_detail", game_id=game.pk)
    return render(request, "hexland/new.html", {"form": form}, status=400 if form.errors else 200)


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "hexland/rules.html")
