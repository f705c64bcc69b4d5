"""Players' side of moderation: report a player, block one, see one's reports."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games import selectors
from games.errors import GameError
from games.models import ChatMessage
from games.views import error_response
from moderation import services
from moderation.forms import ReportForm
from moderation.models import Block, Report


def _person(username: str) -> User:
    if "\x00" in username:
        raise Http404("No such player.")
    return get_object_or_404(User, username=username, is_active=True)


def _whole(value) -> int | None:
    return int(value) if value and str(value).isdigit() and len(str(value)) < 12 else None


@login_required
def report_player(request: HttpRequest, username: str) -> HttpResponse:
    """The report form (GET ``?game=`` or ``?message=`` give the context); POST files it."""
    target = _person(username)
    params = request.POST if request.method == "POST" else request.GET
    game = message = None
    try:
        if (message_id := _whole(params.get("message"))) is not None:
            message = ChatMessage.objects.filter(pk=message_id, author=target, hidden_at__isnull=True).first()
            if message is None:
                raise Http404("No such message.")
            game = selectors.game_for_viewer(message.game_id, request.user)  # only a message one may read
        elif (game_id := _whole(params.get("game"))) is not None:
            game = selectors.game_for_viewer(game_id, request.user)
    except GameError as error:
        return error_response(request, error)
    form = ReportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.file_report(reporter=request.user, target=target, reason=form.cleaned_data["reason"],
                                 text=form.cleaned_data["text"], game=game, chat_message=message)
        except GameError as error:
            return error_response(request, error)
        messages.success(request, _("Thank you: staff will look at your report about %(name)s.")
                         % {"name": target.public_name})
        return redirect("my_reports")
    context = {"target": target, "form": form, "game": game, "chat_message": message}
    return render(request, "moderation/report.html", context, status=400 if form.errors else 200)


@login_required
@require_GET
def my_reports(request: HttpRequest) -> HttpResponse:
    reports = Report.objects.filter(reporter=request.user).select_related("target").order_by("-created_at")[:50]
    blocks = Block.objects.filter(blocker=request.user).select_related("blocked")
    return render(request, "moderation/my_reports.html", {"reports": reports, "blocks": blocks})


@login_required
@require_POST
def block_player(request: HttpRequest, username: str) -> HttpResponse:
    target = _person(username)
    try:
        if request.POST.get("unblock"):
            services.unblock(blocker=request.user, blocked=target)
            messages.success(request, _("You no longer block %(name)s.") % {"name": target.public_name})
        else:
            services.block(blocker=request.user, blocked=target)
            messages.success(request, _("You block %(name)s: you no longer see their chat messages or their "
                                        "invitations.") % {"name": target.public_name})
    except GameError as error:
        return error_response(request, error)
    return redirect("player", username=target.username)
