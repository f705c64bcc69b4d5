"""Game chat: a platform part every multiplayer game shows. Plain text (escaped when shown),
at most 500 characters, rate limited; players post, spectators read unless the game's config
says ``spectator_chat``. Messages are kept with the game; hiding one keeps it."""
from __future__ import annotations

import unicodedata

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import policy, ratelimit, realtime, selectors
from games.errors import BadMove, GameNotFound, NotYourSeat, RateLimited
from games.models import ChatMessage, Game

MAX_CHARS = 500
RATE = (5, 10)  # messages per user and game, per seconds


def clean_text(text: str) -> str:
    """Plain text on one or more lines: control characters (NUL and the like) are dropped."""
    kept = "".join(ch for ch in str(text) if ch in "\n\t" or unicodedata.category(ch)[0] != "C")
    return kept.strip()


def post_message(*, game_id: int, user, text: str) -> ChatMessage:
    text = clean_text(text)
    if not text:
        raise BadMove(_("Write something first."))
    if len(text) > MAX_CHARS:
        raise BadMove(_("A message has at most %(most)s characters; this one has %(count)s.") % {"most": MAX_CHARS, "count": len(text)})
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(_("There is no such game."))
    if not selectors.may_chat(game, user):
        raise NotYourSeat(_("Only the players of this game can write in its chat."))
    policy.check_may_chat(user)  # muted: refused, with until when and why
    limit, window = RATE
    if not ratelimit.hit("chat", f"{user.pk}:{game_id}", limit, window):
        raise RateLimited(_("You are writing too fast; wait a few seconds."), retry_after=window)
    with transaction.atomic():
        message = ChatMessage.objects.create(game=game, author=user, text=text)
        transaction.on_commit(lambda: realtime.announce_chat(game_id, message.pk))
    return message


def hide_message(*, message_id: int, by_user) -> ChatMessage:
    """Staff hide a message from the players; it stays stored."""
    if not (by_user and by_user.is_staff):
        raise NotYourSeat(_("Only staff can hide chat messages."))
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise GameNotFound(_("There is no such message."))
        if message.hidden_at is None:
            message.hidden_at, message.hidden_by = timezone.now(), by_user
            message.save(update_fields=["hidden_at", "hidden_by"])
            transaction.on_commit(lambda: realtime.announce_chat(message.game_id, message.pk))
    return message
