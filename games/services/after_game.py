"""What follows moves: reminders, progress e-mails and the end of a game."""
from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import realtime, signals, state_store
from games.models import Game
from games.services import notifications
from games.services.clocks import is_correspondence
from games.services.moves import _each_game, lock_game
from games.sites import get_site

logger = logging.getLogger(__name__)


def send_due_reminders(now: datetime | None = None) -> int:
    """E-mail those who have not moved once 80% of a correspondence turn has passed, once."""
    now = now or timezone.now()
    due = Game.objects.filter(status=Game.Status.ACTIVE, remind_at__lte=now).values_list("pk", flat=True)

    def remind(game_id: int) -> int:
        with transaction.atomic():
            game = lock_game(game_id)
            if game.status != Game.Status.ACTIVE or game.remind_at is None or game.remind_at > now:
                return 0
            game.remind_at = None
            game.save(update_fields=["remind_at"])
            transaction.on_commit(lambda: notifications.reminder(game))
            return 1

    return _each_game(due, remind, "reminders")


def notify_progress(*, game_id: int, turn_changed: bool, timed_out: list[int]) -> None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return
    if timed_out:
        notifications.nmr_applied(game, timed_out)
    if turn_changed and game.status == Game.Status.ACTIVE:
        site = get_site(game.kind)
        view = site.engine.view(state_store.load(game), None)
        notifications.round_opened(game, lambda: site.label_for_turn(view))


def game_finished(*, game_id: int) -> None:
    """What follows the end of a game, each step once: the game's own steps (hindsight
    figures), then every listener of ``signals.game_finished`` (ratings, leagues, e-mail)."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return
    for step in get_site(game.kind).after_game:
        _run_step(step, game)
    for receiver, outcome in signals.game_finished.send_robust(sender=Game, game=game):
        if isinstance(outcome, Exception):  # one failing step must not stop the next league game
            logger.error("%s failed for finished game %s", getattr(receiver, "__qualname__", receiver), game.pk,
                         exc_info=(type(outcome), outcome, outcome.__traceback__))
    if is_correspondence(game):
        _run_step(notifications.game_finished, game)
    realtime.announce_version(game.pk, game.version)  # the hindsight figures are in


def _run_step(step, game: Game) -> None:
    try:
        step(game)
    except Exception:
        logger.exception("%s failed for finished game %s", step.__qualname__, game.pk)
