"""The API's invitations: those waiting for the token's user, accepting and declining them, and a
host inviting a player by username to their open game. Thin, over
``games.services.invitations`` (the pages' own service: the same rules and sentences)."""
from __future__ import annotations

from api import schemas
from api import selectors as api_selectors
from api.http import Call, game_error_response, operation
from api.models import Scope
from games import selectors
from games.errors import GameError
from games.services import invitations

ID = [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}]
REFUSALS = (401, 403, 404, 409, 429)


@operation("GET", "/invitations", name="listInvitations", summary="Invitations waiting for your answer",
           scope=Scope.READ, answer=schemas.ref("Invitations"), refusals=(401, 403),
           description="To games that still take players and leagues that still take entries, oldest first. "
                       "The events stream sends each as an `invitation` line too.")
def list_invitations(call: Call):
    return {"invitations": [api_selectors.invitation_json(found) for found in selectors.invitations_for(call.user)]}


@operation("POST", "/invitations/{id}/accept", name="acceptInvitation", summary="Accept an invitation",
           scope=Scope.PLAY, answer=schemas.ref("InvitationAccepted"), refusals=REFUSALS, parameters=ID,
           description="A game's: you take a free seat as joining does (refused when the game is full, has "
                       "started, or you may not play); an invitation reserves no seat, the first to accept takes "
                       "the last one. A league's: you enter it as its entry rules say (`entry`: `pending` waits "
                       "for the organiser's approval).")
def accept(call: Call, id: int):
    try:
        accepted = invitations.accept(invitation_id=id, user=call.user)
    except GameError as error:
        return game_error_response(error)
    entry = None
    if accepted.invitation.league_id is not None:
        entry = accepted.invitation.league.entries.filter(user=call.user).values_list("status", flat=True).first()
    return {"invitation": api_selectors.invitation_json(accepted.invitation),
            "seat": accepted.seat.index if accepted.seat is not None else None, "entry": entry}


@operation("POST", "/invitations/{id}/decline", name="declineInvitation", summary="Decline an invitation",
           scope=Scope.PLAY, answer=schemas.ref("Invitation"), refusals=REFUSALS, parameters=ID)
def decline(call: Call, id: int):
    try:
        declined = invitations.decline(invitation_id=id, user=call.user)
    except GameError as error:
        return game_error_response(error)
    return api_selectors.invitation_json(declined)


@operation("POST", "/games/{id}/invite", name="invitePlayer", summary="Invite a player to your open game",
           scope=Scope.PLAY, body=schemas.invite_body(), answer_status=201, answer=schemas.ref("Invitation"),
           refusals=(400, *REFUSALS), parameters=ID,
           description="Only the game's host, while it has not started and has a free seat. The player (a bot "
                       "account too) sees it on their dashboard and in their events stream; it reserves no "
                       "seat. At most 20 of your invitations wait for an answer at once.")
def invite(call: Call, id: int):
    try:
        selectors.game_for_viewer(id, call.user)  # a private game: its players only
        invitation = invitations.invite_to_game(game_id=id, by_user=call.user, username=call.body["username"])
    except GameError as error:
        return game_error_response(error)
    return api_selectors.invitation_json(invitation)
