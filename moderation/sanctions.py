"""Where sanctions bite: the checks the services of chat, games and leagues call, and the reads
pages use. Only models are imported here, so the platform's services may call it."""
from __future__ import annotations

from django.db.models import F, Q
from django.utils import timezone
from django.utils.formats import date_format

from games.errors import GameError
from moderation.models import Block, Sanction


class Sanctioned(GameError):
    """The user's sanction forbids this (403), with until when and why."""

    status = 403


def active(user, kind: str, now=None) -> Sanction | None:
    """The user's active sanction of ``kind`` lasting longest (None: none)."""
    if user is None or not getattr(user, "pk", None):
        return None
    now = now or timezone.now()
    running = Sanction.objects.filter(user=user, kind=kind, lifted_at__isnull=True, starts_at__lte=now).filter(
        Q(ends_at__isnull=True) | Q(ends_at__gt=now))
    return running.order_by(F("ends_at").desc(nulls_first=True)).first()  # no end: the longest


def until(sanction: Sanction) -> str:
    """"until 5 December 2026, 14:00 UTC" in the active time zone, or "until further notice"."""
    if sanction.ends_at is None:
        return "until further notice"
    when = timezone.localtime(sanction.ends_at)
    return f"until {date_format(when, 'j F Y, H:i')} {when.tzname()}"


def check_may_chat(user) -> None:
    notice = mute_notice(user)
    if notice:
        raise Sanctioned(notice)


def mute_notice(user) -> str:
    """What a muted user reads where the chat form would be ("" when not muted)."""
    sanction = active(user, Sanction.Kind.MUTE)
    return f"You are muted in chat {until(sanction)}. Reason: {sanction.reason}" if sanction else ""


def check_may_play(user) -> None:
    """Refuse creating or joining a game, or entering a league, during a play ban."""
    sanction = active(user, Sanction.Kind.PLAY_BAN)
    if sanction is not None:
        raise Sanctioned(f"You are banned from play {until(sanction)}, so you cannot create or join games or "
                         f"enter leagues. Reason: {sanction.reason}")


def blocked_ids(user) -> set[int]:
    """The users ``user`` has blocked."""
    if user is None or not getattr(user, "pk", None):
        return set()
    return set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def has_blocked(user, other_id: int | None) -> bool:
    return bool(other_id) and Block.objects.filter(blocker=user, blocked_id=other_id).exists()
