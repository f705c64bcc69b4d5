"""HTTP edges of game chat: read the messages, post one."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import selectors
from games.errors import GameError
from games.services import chat
from games.views import error_response


@login_required
@require_http_methods(["GET", "POST"])
def game_chat(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = selectors.game_for_viewer(game_id, request.user)
        if request.method == "POST":
            chat.post_message(game_id=game.pk, user=request.user, text=request.POST.get("text", ""))
    except GameError as error:
        if request.htmx:
            response = render(request, "games/_chat_error.html", {"error": error.message}, status=error.status)
            response["HX-Retarget"], response["HX-Reswap"] = "#chat-error", "outerHTML"
            return response
        return error_response(request, error, game_id)
    if request.htmx:
        return render(request, "games/_chat.html", selectors.chat_context(game, request.user))
    if request.method == "POST":
        messages.success(request, _("Your message has been posted."))
    return redirect("game_detail", game_id=game_id)
