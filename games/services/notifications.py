"""E-mail to players of correspondence games, by each user's preference.

``each``: one e-mail per event; ``digest``: kept for the daily digest; ``none``: nothing.
Times are written in the recipient's own time zone. Nothing hidden is ever written: the
messages speak of rounds, deadlines and scores, never of undrawn tiles.
"""
from __future__ import annotations

import logging
import zoneinfo
from datetime import datetime
from typing import Iterable

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import Game, PendingNotification, Seat

logger = logging.getLogger(__name__)


def _local(when: datetime, user: User) -> str:
    try:
        zone = zoneinfo.ZoneInfo(user.timezone or "UTC")
    except zoneinfo.ZoneInfoNotFoundError:
        zone = zoneinfo.ZoneInfo("UTC")
    return timezone.localtime(when, zone).strftime("%A %d %B %Y, %H:%M %Z")


def _game_url(game: Game) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("game_detail", args=[game.pk])


def deliver(user: User, subject: str, body: str) -> None:
    """Send now, keep for the digest, or drop, as the user chose."""
    preference = user.email_notifications
    if preference == User.EmailPreference.NONE or not user.email:
        return
    if preference == User.EmailPreference.DIGEST:
        PendingNotification.objects.create(user=user, subject=subject, body=body)
        return
    send_mail(subject, body, None, [user.email])


def account_notice(user: User, subject: str, body: str) -> None:
    """A notice about the account itself (a moderation action, a report closed): sent whatever
    the user chose for game news, since it is not game news."""
    if user.email:
        send_mail(f"hexsite: {subject}", body, None, [user.email])


def _players(game: Game, seats: Iterable[int] | None = None) -> list[tuple[int, User]]:
    rows = Seat.objects.filter(game=game, user__isnull=False).select_related("user")
    if seats is not None:
        rows = rows.filter(index__in=list(seats))
    return [(row.index, row.user) for row in rows]


def round_opened(game: Game, round_label: str) -> None:
    for _, user in _players(game, game.awaiting):
        deadline = f"Deadline: {_local(game.deadline_at, user)}.\n" if game.deadline_at else ""
        deliver(
            user,
            f"{game}: {round_label} is open",
            f"{round_label} of {game} is open and waiting for your move.\n{deadline}\n{_game_url(game)}\n",
        )


def reminder(game: Game) -> None:
    for _, user in _players(game, game.awaiting):
        deliver(
            user,
            f"Reminder: {game} is waiting for your move",
            f"You have not moved yet in {game}. The deadline is {_local(game.deadline_at, user)}.\n"
            f"Without a move, the rules play it for you (first by the AI, then at random), and a third "
            f"missed round puts you out of the game.\n\n{_game_url(game)}\n",
        )


def nmr_applied(game: Game, seats: Iterable[int]) -> None:
    for _, user in _players(game, seats):
        deliver(
            user,
            f"{game}: the deadline passed without your move",
            f"The deadline of {game} passed before you moved, so the no-move rule was applied.\n\n{_game_url(game)}\n",
        )


def game_finished(game: Game) -> None:
    result = game.result or {}
    scores, ranks = result.get("scores") or [], result.get("ranks") or []
    for index, user in _players(game):
        line = ""
        if index < len(scores) and index < len(ranks):
            line = f"You scored {scores[index]} and finished {ordinal(ranks[index])} of {len(scores)}.\n"
        deliver(user, f"{game} is over", f"{game} has finished.\n{line}\n{_game_url(game)}\n")


def league_announcement(league, text: str, recipients: Iterable[User]) -> None:
    for user in recipients:
        deliver(user, f"{league}: announcement", f"{text}\n\n— {league.organiser}, organiser of {league}\n")


def send_daily_digests() -> int:
    """One e-mail per user gathering what was kept for them; returns e-mails sent. Each user
    is done on their own: one failing address neither blocks nor repeats the others."""
    sent = 0
    for user_id in PendingNotification.objects.values_list("user_id", flat=True).distinct():
        try:
            with transaction.atomic():
                items = list(PendingNotification.objects.select_for_update(skip_locked=True)
                             .filter(user_id=user_id).select_related("user").order_by("created_at"))
                if not items:
                    continue
                body = "\n\n".join(f"== {item.subject}\n{item.body}" for item in items)
                send_mail(f"hexsite: your daily digest ({len(items)})", body, None, [items[0].user.email])
                PendingNotification.objects.filter(pk__in=[item.pk for item in items]).delete()
                sent += 1
        except Exception:
            logger.exception("daily digest failed for user %s", user_id)
    return sent


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
