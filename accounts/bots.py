"""Bot accounts: an account that plays only through the API (api/), shown with a BOT badge.

An account becomes a bot at its owner's request (``POST /api/v1/bot/account/upgrade`` with a
token of the ``bot`` scope), only before it has taken any seat, and for good: its games and
its rating would otherwise mix a person's play with a program's. A bot is rated like anyone,
in the same pool (docs/api.md, "Bot accounts").
"""
from __future__ import annotations

from django.db import transaction
from django.http import HttpResponseForbidden
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from accounts.models import User
from games.errors import GameError


class BotRefused(GameError):
    status = 409


def has_played(user: User) -> bool:
    from games.models import Seat

    return Seat.objects.filter(user=user).exists()


def make_bot(user: User) -> User:
    """Make ``user`` a bot account (once and for all); BotRefused when they have taken a seat in
    any game. A bot already stays one."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.is_bot:
            return locked
        if has_played(locked):
            raise BotRefused(_("Only an account that has never taken a seat in a game may become a bot."))
        locked.is_bot = True
        locked.save(update_fields=["is_bot"])
    user.is_bot = True
    return locked


# Where a bot's page requests may still write: its account and profile (language, tokens, sign
# out), the API's own pages. Everything under /games/ is play (moves, seats, chat, leagues).
BOT_PAGE_WRITES_REFUSED = ("/games/",)


class BotPlaysThroughTheApiMiddleware:
    """A signed-in bot account's writes to the game pages are refused (403, with a sentence):
    a bot plays through the API only. Reading pages, its profile and its tokens stay open."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (request.method not in ("GET", "HEAD", "OPTIONS") and getattr(user, "is_bot", False)
                and request.path_info.startswith(BOT_PAGE_WRITES_REFUSED)):
            return HttpResponseForbidden(render_to_string("accounts/bot_refused.html", request=request))
        return self.get_response(request)
