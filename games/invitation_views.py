"""HTTP edges of invitations: a host invites a player to their open game (and cancels), the
invited player accepts or declines from their dashboard. Each calls one service
(games/services/invitations.py). Forms work without JavaScript: a refused invitation comes back
on a page of its own with the error beside the field and the name typed kept; declining, which
cannot be undone, asks first."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import selectors
from games.errors import GameError
from games.forms import InviteForm
from games.seat_views import _go
from games.services import invitations
from games.views import error_response, live_answer


@login_required
def invite(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET: the form alone; POST: invite, then back to the game page (htmx: its regions, and the
    note beside the form)."""
    try:
        game = selectors.game_for_viewer(game_id, request.user)
    except GameError as error:
        return error_response(request, error)
    form = InviteForm(request.POST or None)
    if request.method != "POST":
        return render(request, "games/invite.html", {"game": game, "form": form})
    if form.is_valid():
        name = form.cleaned_data["username"].strip()
        try:
            invitations.invite_to_game(game_id=game_id, by_user=request.user, username=name)
            return _back_to_game(request, game_id, _("%(player)s is invited: they see it on their dashboard.")
                                 % {"player": name})
        except GameError as error:
            if request.htmx:
                return error_response(request, error, game_id)
            form.add_error("username", error.message)
            status = error.status
    else:
        if request.htmx:
            return error_response(request, GameError(form.errors["username"][0]), game_id)
        status = 400
    return render(request, "games/invite.html", {"game": game, "form": form}, status=status)


@login_required
@require_POST
def cancel(request: HttpRequest, invitation_id: int) -> HttpResponse:
    try:
        invitation = invitations.cancel(invitation_id=invitation_id, by_user=request.user)
    except GameError as error:
        return error_response(request, error)
    done = _("The invitation of %(player)s is cancelled.") % {"player": invitation.invited.username}
    if invitation.game_id is not None:
        return _back_to_game(request, invitation.game_id, done)
    messages.success(request, done)
    return _go(request, reverse("dashboard"))


def _back_to_game(request: HttpRequest, game_id: int, done: str) -> HttpResponse:
    """After the host's write: the live page's regions and the note beside the form (htmx), or
    the game page with the note."""
    if request.htmx:
        return live_answer(request, selectors.game_for_viewer(game_id, request.user), notice=done)
    messages.success(request, done)
    return redirect("game_detail", game_id=game_id)


@login_required
@require_POST
def accept(request: HttpRequest, invitation_id: int) -> HttpResponse:
    try:
        accepted = invitations.accept(invitation_id=invitation_id, user=request.user)
    except GameError as error:
        return error_response(request, error)
    if accepted.seat is not None:
        messages.success(request, _("You have joined the game."))
        return _go(request, reverse("game_detail", args=[accepted.invitation.game_id]))
    messages.success(request, _("You have accepted the invitation to the league."))
    return _go(request, reverse("league_detail", args=[accepted.invitation.league_id]))


@login_required
@require_POST
def decline(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """The first POST answers a page saying what declining does; its button posts ``confirm=1``."""
    if request.POST.get("confirm") != "1":
        try:
            invitation = invitations.addressed_to(invitation_id, request.user)
        except GameError as error:
            return error_response(request, error)
        return render(request, "games/invitation_decline.html", {"invitation": invitation})
    try:
        invitations.decline(invitation_id=invitation_id, user=request.user)
    except GameError as error:
        return error_response(request, error)
    messages.success(request, _("You have declined the invitation."))
    return _go(request, reverse("dashboard"))
