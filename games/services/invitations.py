"""Invitations addressed to one player: a game's host invites by username to a game not yet
started; a league's organiser to a league taking entries (games/leagues/services.py). The
invited player accepts or declines; whoever sent it may cancel it.

An invitation reserves nothing: accepting takes a seat through ``join_game`` (its refusals:
full, started, a play ban), so when several invited players race for the last seat, the first
to take it wins and the game's start expires the other invitations. A game that starts, is
cancelled or has no free seat left expires its pending invitations (``expire_if_closed``).

A player who has blocked the inviter never sees their invitations (``games.policy``): nothing
tells the inviter, the invitation stays pending until it expires or is cancelled. Each inviter
has at most ``MAX_PENDING`` invitations waiting for an answer at once.

Locks: the game (or the league) first, then the invitation row (League, Game, Invitation).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from games import policy, realtime, selectors
from games.errors import BadMove, GameError, GameNotActive, GameNotFound, NotYourSeat
from games.models import Game, Invitation, Seat
from games.services import lifecycle
from games.services.moves import lock_game

MAX_PENDING = getattr(settings, "INVITATIONS_PENDING_PER_INVITER", 20)


@dataclass(frozen=True)
class Accepted:
    invitation: Invitation
    seat: Seat | None  # a game's: the seat taken; a league's: None


def user_named(username: str):
    """The user of that username (as typed, spaces around dropped), else a refusal to show
    beside the field."""
    name = (username or "").strip()
    user = get_user_model().objects.filter(username=name).first() if name else None
    if user is None:
        raise BadMove(_("There is no player with the username %(name)s.") % {"name": name})
    return user


# --- sending ------------------------------------------------------------------------------------


def invite_to_game(*, game_id: int, by_user, username: str) -> Invitation:
    """The host invites ``username`` to their game while it is open with a free seat."""
    policy.check_may_play(by_user)
    invited = user_named(username)
    with transaction.atomic():
        game = lock_game(game_id)
        if game.created_by_id != by_user.pk:
            raise NotYourSeat(_("Only the player who opened this game can invite players to it."))
        if game.status != Game.Status.OPEN:
            raise GameNotActive(_("This game has already started."))
        seats = list(game.seats.all())
        if not any(not seat.user_id and not seat.ai_level for seat in seats):
            raise GameNotActive(_("This game is full."))
        if invited.pk != by_user.pk and any(seat.user_id == invited.pk for seat in seats):  # self: below
            raise GameNotActive(_("%(player)s already plays in this game.") % {"player": invited.username})
        invitation = create(invited=invited, by_user=by_user, game=game)
        game.touch()  # the host's page lists it
        transaction.on_commit(lambda: realtime.announce_version(game.pk, game.version))
    return invitation


def create(*, invited, by_user, game: Game | None = None, league=None) -> Invitation:
    """Write an invitation to a locked game or league (the caller checked it takes players):
    the checks every invitation shares, then the row, then the invited player's streams told."""
    if invited.pk == by_user.pk:
        raise BadMove(_("You cannot invite yourself."))
    target = Q(game=game) if game is not None else Q(league=league)
    earlier = set(Invitation.objects.filter(target, invited=invited).values_list("status", flat=True))
    if Invitation.Status.PENDING in earlier:
        raise GameNotActive(_("%(player)s is already invited.") % {"player": invited.username})
    if Invitation.Status.DECLINED in earlier:
        raise GameNotActive(_("%(player)s has declined an invitation here already.") % {"player": invited.username})
    waiting = Invitation.objects.filter(selectors.open_invitations(), invited_by=by_user).count()
    if waiting >= MAX_PENDING:
        raise GameNotActive(ngettext(
            "You have %(count)s invitation waiting for an answer, the most at once: cancel one or wait for answers.",
            "You have %(count)s invitations waiting for an answer, the most at once: cancel one or wait for answers.",
            waiting) % {"count": waiting})
    invitation = Invitation.objects.create(game=game, league=league, invited=invited, invited_by=by_user)
    if not policy.has_blocked(invited, by_user.pk):  # blocked: refused silently, never shown
        transaction.on_commit(lambda: realtime.announce_invitation(invited.pk, invitation.pk))
    return invitation


# --- answering --------------------------------------------------------------------------------


def addressed_to(invitation_id: int, user) -> Invitation:
    """The invitation, if it is addressed to ``user`` and they may see it (not from someone they
    blocked); else "no such invitation", as for one that does not exist."""
    invitation = (Invitation.objects.select_related("game", "league", "invited_by")
                  .filter(pk=invitation_id, invited_id=getattr(user, "pk", None)).first())
    if invitation is None or policy.has_blocked(user, invitation.invited_by_id):
        raise GameNotFound(_("There is no such invitation."))
    return invitation


def locked_pending(invitation_id: int) -> Invitation:
    """The invitation row, locked (after its game or league), refused unless still pending."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation_id)
    refusal = _closed_refusal(invitation)
    if refusal is not None:
        raise refusal
    return invitation


def _closed_refusal(invitation: Invitation) -> GameError | None:
    if invitation.status == Invitation.Status.PENDING:
        return None
    if invitation.status == Invitation.Status.CANCELLED:
        return GameNotActive(_("This invitation was cancelled."))
    if invitation.status == Invitation.Status.EXPIRED:
        if invitation.game_id is not None:
            return GameNotActive(_("This invitation has expired: the game has started, filled up or been cancelled."))
        return GameNotActive(_("This invitation has expired: the league's season has started."))
    return GameNotActive(_("This invitation has already been answered."))


def close(invitation: Invitation, status: str) -> None:
    invitation.status, invitation.closed_at = status, timezone.now()
    invitation.save(update_fields=["status", "closed_at"])


# What accepting a league's invitation does belongs to the leagues app, which registers it from
# its AppConfig.ready() (the platform calls no feature by name): f(invitation_id, user) -> None.
_league_acceptor: Callable[[int, object], None] | None = None


def register_league_acceptor(accept: Callable[[int, object], None]) -> None:
    global _league_acceptor
    _league_acceptor = accept


def accept(*, invitation_id: int, user) -> Accepted:
    """Take the seat the invitation offers, through ``join_game`` (its refusals are this one's),
    or enter the league as its entry rules say."""
    invitation = addressed_to(invitation_id, user)
    if invitation.league_id is not None:
        if _league_acceptor is None:
            raise GameNotFound(_("There is no such invitation."))
        _league_acceptor(invitation.pk, user)
        invitation.refresh_from_db()
        return Accepted(invitation, None)
    with transaction.atomic():
        lock_game(invitation.game_id)
        invitation = locked_pending(invitation.pk)
        seat = Seat.objects.filter(game_id=invitation.game_id, user=user).first()  # joined by the link meanwhile
        if seat is None:
            seat = lifecycle.join_game(game_id=invitation.game_id, user=user)
        # After the join: a start it caused has expired the pending invitations, this one included.
        close(invitation, Invitation.Status.ACCEPTED)
        transaction.on_commit(lambda: realtime.announce_seat_taken(user.pk, invitation.game_id))
    return Accepted(invitation, seat)


def decline(*, invitation_id: int, user) -> Invitation:
    invitation = addressed_to(invitation_id, user)
    return _close_pending(invitation, Invitation.Status.DECLINED)


def cancel(*, invitation_id: int, by_user) -> Invitation:
    """Whoever sent an invitation calls it off (nobody else learns it exists)."""
    invitation = Invitation.objects.filter(pk=invitation_id, invited_by_id=getattr(by_user, "pk", None)).first()
    if invitation is None:
        raise GameNotFound(_("There is no such invitation."))
    return _close_pending(invitation, Invitation.Status.CANCELLED)


def _close_pending(invitation: Invitation, status: str) -> Invitation:
    with transaction.atomic():
        game = lock_game(invitation.game_id) if invitation.game_id is not None else None
        invitation = locked_pending(invitation.pk)
        close(invitation, status)
        if game is not None:
            game.touch()  # the host's list
            transaction.on_commit(lambda: realtime.announce_version(game.pk, game.version))
    return invitation


# --- expiry -------------------------------------------------------------------------------------


def expire_if_closed(game: Game) -> None:
    """On a locked game: its pending invitations expire once it no longer takes players
    (started, cancelled, or no free seat left)."""
    pending = Invitation.objects.filter(game=game, status=Invitation.Status.PENDING)
    if game.status == Game.Status.OPEN and game.seats.filter(user__isnull=True, ai_level="").exists():
        return
    pending.update(status=Invitation.Status.EXPIRED, closed_at=timezone.now())


def expire_for_league(league) -> None:
    """On a locked league whose season has started: its pending invitations expire."""
    Invitation.objects.filter(league=league, status=Invitation.Status.PENDING).update(
        status=Invitation.Status.EXPIRED, closed_at=timezone.now())
