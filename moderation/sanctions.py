"""Where sanctions bite: the checks the services of chat, games and leagues make, and the reads
pages use. The platform asks them through its policy hook (games/policy.py): ``Sanctions`` is
registered there by ModerationConfig.ready(), so the platform imports nothing of moderation."""
from __future__ import annotations

from django.db.models import F, Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games import policy
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


def end_text(sanction: Sanction) -> str:
    """When the sanction ends, in the active language and time zone: "5 Dec 2026, 14:00 UTC"
    (the language's own date, a 24-hour time); "" for one without an end."""
    if sanction.ends_at is None:
        return ""
    when = timezone.localtime(sanction.ends_at)
    return f"{date_format(when, 'DATE_FORMAT')}, {date_format(when, 'H:i')} {when.tzname()}"


def until(sanction: Sanction, limited: str, unlimited: str, **values) -> str:
    """One of two whole sentences, translated by the caller: ``limited`` with ``%(when)s`` for
    a sanction with an end, ``unlimited`` ("… until further notice …") for one without."""
    if sanction.ends_at is None:
        return unlimited % values
    return limited % {**values, "when": end_text(sanction)}


def check_may_chat(user) -> None:
    notice = mute_notice(user)
    if notice:
        raise Sanctioned(notice)


def mute_notice(user) -> str:
    """What a muted user reads where the chat form would be ("" when not muted)."""
    sanction = active(user, Sanction.Kind.MUTE)
    if sanction is None:
        return ""
    return until(sanction, _("You are muted in chat until %(when)s. Reason: %(reason)s"),
                 _("You are muted in chat until further notice. Reason: %(reason)s"), reason=sanction.reason)


def check_may_play(user) -> None:
    """Refuse creating or joining a game, or entering a league, during a play ban."""
    sanction = active(user, Sanction.Kind.PLAY_BAN)
    if sanction is not None:
        raise Sanctioned(until(
            sanction,
            _("You are banned from play until %(when)s, so you cannot create or join games or enter leagues. "
              "Reason: %(reason)s"),
            _("You are banned from play until further notice, so you cannot create or join games or enter "
              "leagues. Reason: %(reason)s"),
            reason=sanction.reason))


def blocked_by(user):
    """The users ``user`` has blocked, as a subquery (``exclude(author_id__in=...)``): one
    statement with the query it filters instead of a read of its own."""
    if user is None or not getattr(user, "pk", None):
        return Block.objects.none().values("blocked_id")
    return Block.objects.filter(blocker=user).values("blocked_id")


def has_blocked(user, other_id: int | None) -> bool:
    return bool(other_id) and Block.objects.filter(blocker=user, blocked_id=other_id).exists()


class Sanctions(policy.Policy):
    """The platform's policy (games/policy.py): play bans, mutes and blocks."""

    def check_may_play(self, user) -> None:
        check_may_play(user)

    def check_may_chat(self, user) -> None:
        check_may_chat(user)

    def mute_notice(self, user) -> str:
        return mute_notice(user)

    def blocked_by(self, user):
        return blocked_by(user)

    def has_blocked(self, user, other_id: int | None) -> bool:
        return has_blocked(user, other_id)
