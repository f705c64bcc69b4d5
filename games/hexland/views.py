"""Hexland pages: the lobby of rooms and the form that opens one. The room itself is the
platform's game page with Hexland's board."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from games.errors import GameError
from games.hexland import selectors, services, words
from games.hexland.engine import KIND
from games.hexland.engine.state import TIMER_PRESETS
from games.hexland.forms import TIMER_CHOICES, RoomForm
from games.sites import get_site
from games.views import error_response


@login_required
@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.open_rooms(), 25).get_page(request.GET.get("page"))
    return render(request, "hexland/lobby.html", {"page": page, "mine": selectors.rooms_of(request.user)[:25],
                                                  "to_watch": selectors.rooms_to_watch()[:25]})


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
        messages.success(request, _("Your room has started.") if game.status == "active" else _("Your room is open."))
        return redirect("game_detail", game_id=game.pk)
    return render(request, "hexland/new.html", {"form": form}, status=400 if form.errors else 200)


def _duration(seconds: int) -> str:
    if seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("%(count)s day", "%(count)s days", days) % {"count": days}
    if seconds % 60 == 0:
        # Translators: a timer's length in minutes, abbreviated ("2 min").
        return _("%(count)s min") % {"count": seconds // 60}
    # Translators: a timer's length in seconds, abbreviated ("30 s").
    return _("%(count)s s") % {"count": seconds}


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    site = get_site(KIND)  # the page states the site's own timers and stand-in rule
    timers = [{"label": words.TIMER_NAMES[name], **dict(zip(("setup", "turn", "discard"), map(_duration, TIMER_PRESETS[name])))}
              for name, _label in TIMER_CHOICES]
    return render(request, "hexland/rules.html", {"timers": timers, "standin_after": site.standin_after_timeouts,
                                                  "standin_level": words.ai_level(site.standin_level)})
