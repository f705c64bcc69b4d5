"""Staff adjudication: abort a game (no result, no ratings) or end it with a result staff
decide. Both append one ``staff`` event (who, why, what) to the game's event store, so its
replay shows the decision; replay skips the event (``state_store.effective_events``), so the
position and every earlier replay stay as they were. Players are told by e-mail.

An aborted game is ``cancelled`` and sends no ``game_finished`` (no ratings, no standings); a
game ended by staff is ``finished`` with the staff's scores and ranks and goes through the usual
follow-ups (ratings, leagues, result e-mails).
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy

from games import jobs, realtime
from games.errors import BadMove, GameNotActive, NotYourSeat
from games.models import Game, MoveEvent
from games.services import notifications
from games.services.moves import lock_game

RUNNING = (Game.Status.ACTIVE, Game.Status.PAUSED)


def _staff(by_user) -> None:
    if not (by_user and by_user.is_authenticated and by_user.is_staff):
        raise NotYourSeat(_("Only staff can adjudicate a game."))


def _append_staff_event(game: Game, by_user, payload: dict) -> MoveEvent:
    """The staff event, appended after the game's last event (the game row is locked)."""
    event = MoveEvent.objects.create(game=game, seq=game.version + 1, seat=None, kind=MoveEvent.Kind.STAFF,
                                     payload={**payload, "by": by_user.username}, created_by=by_user)
    game.version += 1
    return event


def _close(game: Game) -> None:
    game.finished_at = timezone.now()
    game.deadline_at = game.remind_at = None
    game.awaiting = []
    game.paused_remaining = None
    game.clock = {}


def _staff_reason(by_user, reason: str) -> str:
    """Only staff decide, and never without a reason."""
    _staff(by_user)
    reason = (reason or "").strip()
    if not reason:
        raise BadMove(_("Give the reason for the decision."))
    return reason


def abort_game(*, game_id: int, by_user, reason: str) -> Game:
    """Call off a running game: no result, no rating change."""
    reason = _staff_reason(by_user, reason)
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status not in RUNNING:
            raise GameNotActive(_("Only a game in play can be aborted."))
        if game.league_id is not None:
            raise BadMove(_("A league game counts in its season: end it with a result instead of aborting it."))
        _append_staff_event(game, by_user, {"action": "abort", "reason": reason})
        game.status = Game.Status.CANCELLED
        _close(game)
        game.save(update_fields=["version", "status", "finished_at", "deadline_at", "remind_at", "awaiting",
                                 "paused_remaining", "clock"])
        transaction.on_commit(lambda: _announce(game, ABORTED, reason))
    return game


def end_game(*, game_id: int, by_user, reason: str, scores: list[int]) -> Game:
    """End a running game with the scores staff decide (one per seat, higher is better); ranks
    follow the scores, ties sharing a rank. Ratings and leagues then take it as any result."""
    reason = _staff_reason(by_user, reason)
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status not in RUNNING:
            raise GameNotActive(_("Only a game in play can be ended by the staff."))
        seats = game.seats.count()
        if len(scores) != seats or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
            raise BadMove(_("Give one whole-number score per seat (%(seats)s).") % {"seats": seats})
        ranks = [1 + sum(other > mine for other in scores) for mine in scores]
        result = {"scores": scores, "ranks": ranks, "staff": True}
        if seats == 1:
            result["score"] = scores[0]  # solo games read their one score here
        _append_staff_event(game, by_user, {"action": "result", "reason": reason, "scores": scores, "ranks": ranks})
        game.status = Game.Status.FINISHED
        game.result = result
        _close(game)
        game.save(update_fields=["version", "status", "result", "finished_at", "deadline_at", "remind_at",
                                 "awaiting", "paused_remaining", "clock"])
        transaction.on_commit(lambda: (_announce(game, ENDED, reason),
                                       jobs.enqueue("games.tasks.game_finished", game.pk)))
    return game


# The e-mail's subject, in each player's language.
ABORTED = gettext_lazy("%(game)s was aborted by the staff")
ENDED = gettext_lazy("%(game)s was ended by the staff")


def _announce(game: Game, subject, reason: str) -> None:
    realtime.announce_version(game.pk, game.version)
    for _seat, user in notifications._players(game):
        with notifications.in_language_of(user):
            title = str(subject) % {"game": game}
            notifications.deliver(user, title, f"{title}.\n" + _("Reason: %(reason)s") % {"reason": reason}
                                  + f"\n\n{notifications._game_url(game)}\n")


def staff_decision(game: Game) -> MoveEvent | None:
    """The staff event that ended a game, if staff ended it."""
    if game.status not in (Game.Status.FINISHED, Game.Status.CANCELLED) or not game.version:
        return None
    return game.events.filter(kind=MoveEvent.Kind.STAFF).select_related("created_by").order_by("-seq").first()
