"""The API's endpoints (/api/v1/): thin, over the pages' services and selectors. Each is
declared with its scope, body and answer schemas (``api.http.operation``), from which both
the URLs and the OpenAPI document are made."""
from __future__ import annotations

from accounts import bots
from api import limits, new_games, schemas, suggestions
from api import selectors as api_selectors
from api.http import Call, game_error_response, operation
from api.models import Scope
from games import move_input, ratelimit, selectors, services
from games.errors import GameError
from games.models import Game
from games.services import chat
from games.sites import get_site

ID = [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}]
GAME_REFUSALS = (400, 401, 403, 404, 409, 429)


@operation("GET", "/account", name="account", summary="Your account", scope=Scope.READ,
           answer=schemas.ref("Account"), refusals=(401, 403))
def account(call: Call):
    return api_selectors.account(call.user)


@operation("POST", "/bot/account/upgrade", name="upgradeToBot", summary="Make your account a bot account (for good)",
           scope=Scope.BOT, answer=schemas.ref("Account"), refusals=(401, 403, 409),
           description="Only an account that has never taken a seat may become a bot; it cannot be undone. "
                       "A bot plays through the API only (its play tokens need the `bot` scope), and carries a "
                       "BOT badge on the pages. Asked again, the answer is the same.")
def upgrade_to_bot(call: Call):
    try:
        bots.make_bot(call.user)
    except GameError as error:
        return game_error_response(error)
    return api_selectors.account(call.user)


@operation("POST", "/games", name="createGame", summary="Open a game", scope=Scope.PLAY,
           body=schemas.new_game_body(), answer_status=201, answer=schemas.ref("CreatedGame"),
           refusals=(400, 401, 403, 409), rate=limits.CREATE,
           description="You take the first seat and the AI the last `ai` seats; the game starts when every "
                       "seat is taken (at once when the others are all AI). Settings left out have the "
                       "new-game page's defaults.")
def create_game(call: Call):
    try:
        game = new_games.open_game(call.user, call.body)
    except GameError as error:
        return game_error_response(error)
    return {"id": game.pk, "url": api_selectors.game_url(call.request, game)}


@operation("GET", "/games/{id}", name="getGame", summary="A game as you may see it", scope=Scope.READ,
           answer=schemas.ref("Game"), refusals=(401, 403, 404), parameters=ID)
def game(call: Call, id: int):
    try:
        found = api_selectors.game_for(id, call.user)
    except GameError as error:
        return game_error_response(error)
    return api_selectors.game_state(found, call.user)


@operation("POST", "/games/{id}/moves", name="playMove", summary="Play a move", scope=Scope.PLAY,
           body=schemas.move_body(), checked_body=schemas.move_body_checked(), answer=schemas.ref("Version"), refusals=GAME_REFUSALS, parameters=ID,
           description="`version` is the game's version your move was chosen at; `move` is one of the "
                       "game's `legal_moves`. A stale version is refused with 409 and the current `version`.")
def play_move(call: Call, id: int):
    try:
        found = selectors.game_for_viewer(id, call.user)
        ratelimit.check_move(call.user, found.pk)  # every attempt counts, refused ones too
        site_engine = get_site(found.kind).engine
        move_input.validate_move(site_engine, call.body["move"])
        applied = services.submit_move(game_id=found.pk, user=call.user, move=call.body["move"],
                                       expected_version=call.body["version"])
    except GameError as error:
        return game_error_response(error, lambda: api_selectors.current_version(id))
    return {"version": applied.game.version}


@operation("GET", "/games/{id}/suggestion", name="getSuggestion", summary="The site's AI's move for your seat (bots)",
           scope=Scope.BOT, answer=schemas.ref("Suggestion"), refusals=GAME_REFUSALS, rate=limits.SUGGEST,
           parameters=[*ID, {"name": "level", "in": "query", "required": True, "schema": {"type": "string"},
                             "description": "the AI's level: hextension random, greedy or strong; "
                                            "hexland easy, medium or hard"}],
           description="For bot accounts only: a person may not ask the AI for their move. The move the "
                       "site's own AI of `level` would play for your seat now, chosen from your seat's view "
                       "alone, as the move endpoint takes it (one of `legal_moves`; a Hexland discard may be "
                       "of several cards at once, which `legal_moves` lists one card at a time), with the "
                       "`version` it was chosen at. 409 with the current `version` when it is not your move. "
                       "Rate limited as moves are, in a count of its own (the AI thinks on the server: "
                       "milliseconds; Hexland's levels stop at their time budget, at most 0.85 s).")
def suggestion(call: Call, id: int):
    try:
        found = selectors.game_for_viewer(id, call.user)
        return suggestions.suggestion(found, call.user, call.request.GET.get("level", ""))
    except GameError as error:
        return game_error_response(error, lambda: api_selectors.current_version(id))


@operation("POST", "/games/{id}/resign", name="resignGame", summary="Resign (the AI plays your seat on)",
           scope=Scope.PLAY, answer=schemas.ref("Version"), refusals=GAME_REFUSALS, parameters=ID)
def resign(call: Call, id: int):
    try:
        selectors.game_for_viewer(id, call.user)
        game = services.resign_game(game_id=id, user=call.user)
    except GameError as error:
        return game_error_response(error)
    return {"version": game.version}


@operation("POST", "/games/{id}/chat", name="postChat", summary="Write in the game's chat", scope=Scope.PLAY,
           body=schemas.chat_body(), answer_status=201, answer=schemas.ref("ChatPosted"), refusals=GAME_REFUSALS,
           parameters=ID)
def post_chat(call: Call, id: int):
    try:
        selectors.game_for_viewer(id, call.user)
        message = chat.post_message(game_id=id, user=call.user, text=call.body["text"])
    except GameError as error:
        return game_error_response(error)
    return {"id": message.pk}


@operation("POST", "/games/{id}/join", name="joinGame", summary="Take a free seat", scope=Scope.PLAY,
           body=schemas.join_body(), answer=schemas.ref("Seat"), refusals=GAME_REFUSALS, parameters=ID,
           description="A public game by its id; a private one with its invitation's `invite` code "
                       "(the last part of its invitation link).")
def join(call: Call, id: int):
    try:
        invite = call.body.get("invite")
        game = Game.objects.filter(pk=id).first()
        if game is None or not (invite and invite == game.invite_token):
            selectors.game_for_viewer(id, call.user)  # public, or refused as the page refuses it
        seat = services.join_game(game_id=id, user=call.user)
    except GameError as error:
        return game_error_response(error)
    return {"seat": seat.index}


@operation("POST", "/games/{id}/leave", name="leaveGame", summary="Leave a game that has not started",
           scope=Scope.PLAY, answer=schemas.ref("Left"), refusals=GAME_REFUSALS, parameters=ID)
def leave(call: Call, id: int):
    try:
        selectors.game_for_viewer(id, call.user)
        services.leave_game(game_id=id, user=call.user)
    except GameError as error:
        return game_error_response(error)
    return {"left": True}


@operation("GET", "/games/{id}/stream", name="streamGame", summary="The game as it changes (NDJSON)",
           scope=Scope.READ, stream=True, refusals=(400, 401, 403, 404, 429), parameters=[
               *ID, {"name": "since", "in": "query", "required": False,
                     "schema": {"type": "integer", "minimum": 0},
                     "description": "Resume: versions up to this one are not sent again."}],
           description="One JSON object a line: `gameFull` (the body of GET /games/{id}), then `gameState` "
                       "for each new version you may see (a slow reader may skip versions, never reorder "
                       "them), then `gameFinish`. A blank line at least every 10 s. Served by the socket "
                       "processes; a stream counts among your open game pages (429 over the limit).")
def stream_game(call: Call, id: int):  # served by api/streams.py
    raise AssertionError("streams are served by the socket processes")


@operation("GET", "/stream/events", name="streamEvents", summary="Your events (NDJSON)", scope=Scope.READ,
           stream=True, refusals=(401, 403, 429),
           description="One JSON object a line: `gameStart`, `yourTurn` (a Hextension round opening "
                       "counts), `gameFinish`, `invitation`; first every one still pending. A blank line "
                       "at least every 10 s. Served by the socket processes.")
def stream_events(call: Call):  # served by api/streams.py
    raise AssertionError("streams are served by the socket processes")

