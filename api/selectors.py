"""The API's reads: what a token's user may see, as JSON. Built on the pages' selectors
(``games.selectors``): the same rule of who may watch, the same seat's view."""
from __future__ import annotations

from django.urls import reverse

from games import selectors, state_store
from games.hextension.engine import KIND as LEAGUE_GAME  # leagues play Hextension seasons
from games.models import Game, Invitation, Rating, Seat
from games.sites import get_site

# The platform's statuses as the API names them: three, as the contract says. A paused league
# game is still being played; a cancelled one is over, with no result.
STATUSES = {Game.Status.OPEN: "open", Game.Status.ACTIVE: "active", Game.Status.PAUSED: "active",
            Game.Status.FINISHED: "finished", Game.Status.CANCELLED: "finished"}


def account(user) -> dict:
    ratings = {rating.kind: {"rating": round(rating.ordinal, 2), "mu": round(rating.mu, 4),
                             "sigma": round(rating.sigma, 4), "games": rating.games}
               for rating in Rating.objects.filter(user=user).order_by("kind")}
    return {"username": user.username, "bot": user.is_bot, "language": user.language or "", "ratings": ratings}


def game_for(game_id: int, user) -> Game:
    """The game, if ``user`` may watch it (else GameNotFound or NotYourSeat, as the pages)."""
    return selectors.game_for_viewer(game_id, user)


def game_state(game: Game, user) -> dict:
    """The game as ``user`` may see it: their seat's view (or the spectator's), and the moves
    they may send now, each as the move endpoint takes it."""
    seat = selectors.seat_of(game, user)
    site = get_site(game.kind)
    engine = site.engine
    to_move = selectors.is_to_move(game, seat)
    view, legal = {}, []
    if game.status != Game.Status.OPEN:
        state = state_store.load(game)
        view = engine.view(state, seat)
        if site.shown_view is not None and view:
            view = site.shown_view(view, selectors.seats_with_users(game))
        if to_move:
            legal = engine.legal_moves(state, seat)
    return {"id": game.pk, "game": game.kind, "status": STATUSES.get(game.status, "finished"), "version": game.version,
            "your_seat": seat, "to_move": to_move, "legal_moves": legal, "view": view,
            "result": game.result if game.status == Game.Status.FINISHED else None}


def game_url(request, game: Game) -> str:
    return request.build_absolute_uri(reverse("game_detail", args=[game.pk]))


def current_version(game_id: int) -> int | None:
    game = selectors.game_version_of(game_id)
    return game.version if game is not None else None


def events_of(user) -> list[dict]:
    """The user's pending events, oldest first: a game of theirs that has started (gameStart,
    for a game they have not yet moved in is not told apart: every active game is announced),
    each game waiting for their move (yourTurn), then each invitation waiting for their answer
    (invitation). A stream sends these first."""
    events = []
    seats = dict(Seat.objects.filter(user=user, resigned_at__isnull=True).values_list("game_id", "index"))
    games = Game.objects.filter(pk__in=seats, status__in=[Game.Status.ACTIVE, Game.Status.PAUSED]).order_by("started_at", "pk")
    for game in games.only("id", "kind", "version", "awaiting", "status"):
        events.append(game_event("gameStart", game))
        if game.status == Game.Status.ACTIVE and seats[game.pk] in game.awaiting:
            events.append(game_event("yourTurn", game))
    events.extend(invitation_event(invitation) for invitation in selectors.invitations_for(user))
    return events


def invitation_target(invitation: Invitation) -> dict:
    """What an invitation is to: ``{"game": {...}}`` or ``{"league": {...}}``."""
    if invitation.game_id is not None:
        game = invitation.game
        return {"game": {"id": game.pk, "game": game.kind, "version": game.version, "title": str(game)}}
    league = invitation.league
    return {"league": {"id": league.pk, "name": league.name, "game": LEAGUE_GAME}}


def invitation_json(invitation: Invitation) -> dict:
    """An invitation as GET /invitations lists it."""
    return {"id": invitation.pk, "status": invitation.status, **invitation_target(invitation),
            "from": invitation.invited_by.username, "from_bot": invitation.invited_by.is_bot,
            "to": invitation.invited.username, "created": invitation.created_at.isoformat()}


def invitation_event(invitation: Invitation) -> dict:
    """The events stream's line for an invitation waiting for the user's answer."""
    return {"type": "invitation", "id": invitation.pk, **invitation_target(invitation),
            "from": invitation.invited_by.username}


def game_event(kind: str, game: Game) -> dict:
    return {"type": kind, "game": {"id": game.pk, "game": game.kind, "version": game.version}}
