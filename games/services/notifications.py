"""E-mail to players of correspondence games, by each user's preference.

``each``: one e-mail per event; ``digest``: kept for the daily digest; ``none``: nothing.
Times are written in the recipient's own time zone. Nothing hidden is ever written: the
messages speak of rounds, deadlines and scores, never of undrawn tiles.
"""
from __future__ import annotations

import logging
import zoneinfo
from contextlib import contextmanager
from datetime import datetime
from typing import Callable, Iterable

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Game, PendingNotification, Seat

logger = logging.getLogger(__name__)


@contextmanager
def in_language_of(user: User):
    """Write what follows in the recipient's language (English when they never chose one)."""
    with translation.override(user.language or settings.LANGUAGE_CODE):
        yield


def _local(when: datetime, user: User) -> str:
    """A moment in the recipient's time zone, written in the active language's format."""
    try:
        zone = zoneinfo.ZoneInfo(user.timezone or "UTC")
    except zoneinfo.ZoneInfoNotFoundError:
        zone = zoneinfo.ZoneInfo("UTC")
    local = timezone.localtime(when, zone)
    # The language's own date ("4. Dezember 2026"), a 24-hour time: no a.m./p.m. to misread.
    return f"{formats.date_format(local, 'DATE_FORMAT')}, {formats.date_format(local, 'H:i')} {local.tzname()}"


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
    the user chose for game news, since it is not game news. The caller writes ``subject`` and
    ``body`` inside ``in_language_of(user)``."""
    if user.email:
        with in_language_of(user):
            prefixed = _("hexsite: %(subject)s") % {"subject": subject}
        send_mail(prefixed, body, None, [user.email])


def _players(game: Game, seats: Iterable[int] | None = None) -> list[tuple[int, User]]:
    rows = Seat.objects.filter(game=game, user__isnull=False).select_related("user")
    if seats is not None:
        rows = rows.filter(index__in=list(seats))
    return [(row.index, row.user) for row in rows]


def _awaited_players(game: Game) -> list[tuple[int, User]]:
    """The players the game waits for, but those who resigned: the AI plays their seat."""
    resigned = set(Seat.objects.filter(game=game, resigned_at__isnull=False).values_list("index", flat=True))
    return [(index, user) for index, user in _players(game, game.awaiting) if index not in resigned]


def round_opened(game: Game, round_label: Callable[[], str]) -> None:
    """``round_label`` names the round ("Round 2 of 19") in the active language."""
    for _seat, user in _awaited_players(game):
        with in_language_of(user):
            names = {"round": round_label(), "game": str(game)}
            deadline = (_("Deadline: %(when)s.") % {"when": _local(game.deadline_at, user)} + "\n"
                        if game.deadline_at else "")
            deliver(
                user,
                _("%(game)s: %(round)s is open") % names,
                _("%(round)s of %(game)s is open and waiting for your move.") % names
                + f"\n{deadline}\n{_game_url(game)}\n",
            )


def reminder(game: Game) -> None:
    for _seat, user in _awaited_players(game):
        with in_language_of(user):
            deliver(
                user,
                _("Reminder: %(game)s is waiting for your move") % {"game": game},
                _("You have not moved yet in %(game)s. The deadline is %(when)s.")
                % {"game": game, "when": _local(game.deadline_at, user)} + "\n"
                + _("Without a move, the rules play it for you (first by the AI, then at random), and a "
                    "third missed round puts you out of the game.") + f"\n\n{_game_url(game)}\n",
            )


def nmr_applied(game: Game, seats: Iterable[int]) -> None:
    for _seat, user in _players(game, seats):
        with in_language_of(user):
            deliver(
                user,
                _("%(game)s: the deadline passed without your move") % {"game": game},
                _("The deadline of %(game)s passed before you moved, so the no-move rule was applied.")
                % {"game": game} + f"\n\n{_game_url(game)}\n",
            )


def game_finished(game: Game) -> None:
    result = game.result or {}
    scores, ranks = result.get("scores") or [], result.get("ranks") or []
    for index, user in _players(game):
        with in_language_of(user):
            line = ""
            if index < len(scores) and index < len(ranks):
                line = _("You scored %(score)s and finished in place %(rank)s of %(players)s.") % {
                    "score": scores[index], "rank": ranks[index], "players": len(scores)} + "\n"
            deliver(user, _("%(game)s is over") % {"game": game},
                    _("%(game)s has finished.") % {"game": game} + f"\n{line}\n{_game_url(game)}\n")


def league_announcement(league, text: str, recipients: Iterable[User]) -> None:
    for user in recipients:
        with in_language_of(user):
            names = {"league": league, "organiser": league.organiser}
            deliver(user, _("%(league)s: announcement") % names,
                    f"{text}\n\n— " + _("%(organiser)s, organiser of %(league)s") % names + "\n")


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
                with in_language_of(items[0].user):
                    subject = _("hexsite: your daily digest (%(count)s)") % {"count": len(items)}
                send_mail(subject, body, None, [items[0].user.email])
                PendingNotification.objects.filter(pk__in=[item.pk for item in items]).delete()
                sent += 1
        except Exception:
            logger.exception("daily digest failed for user %s", user_id)
    return sent
