"""The API's NDJSON streams, served by the socket processes as asynchronous HTTP (Channels'
``AsyncHttpConsumer``, routed in hexsite/asgi.py): no thread is held per stream. They are fed
by the announcements the live pages' sockets get (``games.realtime``: a game's group), and read
the game on the sockets' own threads (``games.consumers.in_live_threads``) when one arrives.

- ``GET /api/v1/games/{id}/stream[?since=V]``: ``gameFull`` (the body of GET /games/{id}), then
  ``gameState`` for each later version the viewer may see (a version announced while the last
  one was being read is covered by the next read: skipped, never reordered), then
  ``gameFinish``. With ``since``, nothing up to version V is sent again.
- ``GET /api/v1/stream/events``: the user's pending events first (``api.selectors.events_of``),
  then ``gameStart``, ``yourTurn`` and ``gameFinish`` as their games change, and ``invitation``
  when one is sent to them (announced to the user's own group, ``games.realtime``).

Both send a blank line every ``KEEPALIVE_SECONDS``; on the same beat an expired token ends them,
a revoked one at once (revoking announces it to the user's group), and every
``TOKEN_CHECK_SECONDS`` they read the token again for what nobody announces; every
``STALE_CHECK_SECONDS``, read the versions themselves, should an announcement have been lost.
Behind gunicorn (pages) the stream addresses answer 307 to the socket processes' port.
"""
from __future__ import annotations

import asyncio
import json
import time
from urllib.parse import parse_qs

from channels.exceptions import StopConsumer
from channels.generic.http import AsyncHttpConsumer
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _

from api import limits
from api import selectors as api_selectors
from api.bearer import bearer_for_secret
from api.http import Problem, bearer_secret, check_scope, problem_response
from api.models import Scope
from games import presence, realtime
from games import selectors as games_selectors
from games.consumers import in_live_threads
from games.errors import GameError
from games.models import Game, Seat

KEEPALIVE_SECONDS = getattr(settings, "API_STREAM_KEEPALIVE_SECONDS", 8.0)
# How often a stream reads its token again, for what is not announced to it (an owner made
# inactive, a token revoked by its app or in the admin). Revoking from the profile page is
# announced (ends it at once) and an expiry is known in advance (ends it on the beat after).
TOKEN_CHECK_SECONDS = 30.0
STALE_CHECK_SECONDS = 30.0
NDJSON = b"application/x-ndjson"


def line(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


class _Stream(AsyncHttpConsumer):
    """What both streams share: the token, the answer's head, the beat, the groups."""

    scope_needed = Scope.READ
    stale_check_seconds = STALE_CHECK_SECONDS

    async def handle(self, body: bytes) -> None:
        self.groups_joined: set[str] = set()
        self.beat: asyncio.Task | None = None
        self.finished = False
        self.checked_at = self.token_checked_at = time.monotonic()
        self.user, self.token, self.language = None, None, settings.LANGUAGE_CODE
        self.arrived = False
        refusal = await self._authenticate()
        if refusal is None:
            refusal = await self.open()
        if refusal is None:
            refusal = await self._arrive()
        if refusal is not None:
            await self.send_response(refusal.status_code, refusal.content, headers=[
                (name.encode(), value.encode()) for name, value in refusal.items()])
            raise StopConsumer()
        await self.send_headers(status=200, headers=[(b"Content-Type", NDJSON), (b"Cache-Control", b"no-store"),
                                                     (b"X-Accel-Buffering", b"no")])
        # Every stream hears what concerns its user: a revoked token ends it at once.
        user_group = realtime.user_group_name(self.user.pk)
        await self.channel_layer.group_add(user_group, self.channel_name)
        self.groups_joined.add(user_group)
        await self.started()
        if not self.finished:
            self.beat = asyncio.get_running_loop().create_task(self._beat())

    @in_live_threads
    def _authenticate(self) -> HttpResponse | None:
        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in self.scope["headers"]}
        request_language = headers.get("accept-language", "").split(",")[0].split(";")[0].strip() or settings.LANGUAGE_CODE
        secret = bearer_secret(headers.get("authorization"))
        token = bearer_for_secret(secret) if secret else None
        self.language = (token.owner.language if token is not None and token.owner.language else request_language)
        with translation.override(self.language):
            if token is None:
                detail = (_("Send your API token in the header Authorization: Bearer <token>.") if secret is None
                          else _("This API token is not valid: it is unknown, revoked or expired."))
                return problem_response(401, detail, {"WWW-Authenticate": 'Bearer realm="api"'})
            try:
                check_scope(token, self.scope_needed)
            except Problem as problem:
                return problem_response(problem.status, problem.detail, **problem.extensions)
        self.user, self.token = token.owner, token
        return None

    async def open(self) -> HttpResponse | None:
        """Check what is asked; None to start the stream, else the refusal to send."""
        return None

    # The game a stream is counted on among the user's sockets (games.presence); the events
    # stream is counted on no game (0), in the user's total only.
    presence_game = 0

    @in_live_threads
    def _arrive(self) -> HttpResponse | None:
        """A stream counts as one of the user's sockets: the same limits (games.presence); and as
        one of its token's streams (api.limits)."""
        if not limits.open_stream(self.token.limit_key):
            with translation.override(self.language):
                return problem_response(429, _("This token has too many streams open: close one first."),
                                        {"Retry-After": "60"})
        if presence.arrive(self.presence_game, self.user.pk):
            self.arrived = True
            return None
        limits.close_stream(self.token.limit_key)
        with translation.override(self.language):
            return problem_response(429, _("You have too many streams and game pages open: close one first."),
                                    {"Retry-After": "60"})

    @in_live_threads
    def _leave(self) -> None:
        presence.leave(self.presence_game, self.user.pk)
        limits.close_stream(self.token.limit_key)

    async def started(self) -> None:
        """Send the first lines and join the groups."""

    async def send_lines(self, lines: list[bytes]) -> None:
        if lines and not self.finished:
            await self.send_body(b"".join(lines), more_body=True)

    async def join(self, game_id: int) -> None:
        group = realtime.group_name(game_id)
        if group not in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.add(group)

    async def leave(self, game_id: int) -> None:
        group = realtime.group_name(game_id)
        if group in self.groups_joined:
            self.groups_joined.discard(group)
            await self.channel_layer.group_discard(group, self.channel_name)

    async def finish(self) -> None:
        if not self.finished:
            self.finished = True
            await self.send_body(b"", more_body=False)
            await self._release()

    async def _beat(self) -> None:
        try:
            while not self.finished:
                await asyncio.sleep(KEEPALIVE_SECONDS)
                if self.token.has_expired() or (time.monotonic() - self.token_checked_at >= TOKEN_CHECK_SECONDS
                                                and not await self._token_usable()):
                    await self.finish()
                    return
                await self.send_body(b"\n", more_body=True)
                if time.monotonic() - self.checked_at >= self.stale_check_seconds:
                    self.checked_at = time.monotonic()
                    await self.check_again()
        except asyncio.CancelledError:
            pass

    async def check_again(self) -> None:
        """Read again what an announcement would have said (one may have been lost)."""

    async def user_tokens_revoked(self, event) -> None:
        if not self.finished and not await self._token_usable():
            await self.finish()

    # What the user's group carries for the events stream only.
    async def user_seated(self, event) -> None:
        pass

    async def user_invitation(self, event) -> None:
        pass

    @in_live_threads
    def _token_usable(self) -> bool:
        self.token_checked_at = time.monotonic()
        return self.token.is_still_usable()

    async def __call__(self, scope, receive, send):
        # A handler that raised, or a stream cancelled, never reaches disconnect(): its place
        # among the user's sockets would stay counted (as games.consumers.GameConsumer).
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._release()

    async def _release(self) -> None:
        if self.__dict__.pop("arrived", False):
            await self._leave()
        for group in list(getattr(self, "groups_joined", ())):
            await self.channel_layer.group_discard(group, self.channel_name)
        getattr(self, "groups_joined", set()).clear()
        beat = self.__dict__.pop("beat", None)
        if beat is not None and beat is not asyncio.current_task():
            beat.cancel()

    async def disconnect(self) -> None:
        self.finished = True
        await self._release()

    async def http_request(self, message):
        # AsyncHttpConsumer ends the consumer when handle() returns; a stream goes on until it
        # finishes or the client leaves (http.disconnect), so the request is handled here.
        if "body" in message:
            self.body.append(message["body"])
        if not message.get("more_body"):
            await self.handle(b"".join(self.body))

    # Announcements the live pages use and a stream does not.
    async def game_chat(self, event) -> None:
        pass

    async def game_presence(self, event) -> None:
        pass

    async def game_probe(self, event) -> None:
        pass

    async def channel_layer_lost(self, event) -> None:
        """Announcements may have been lost with Redis: end the stream; the client resumes (``since``)."""
        await self.finish()


class GameStream(_Stream):
    async def open(self) -> HttpResponse | None:
        self.game_id = self.presence_game = int(self.scope["url_route"]["kwargs"]["id"])
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        since = query.get("since", [None])[0]
        with translation.override(self.language):
            if since is not None and not (since.isdigit() and len(since) < 16):
                return problem_response(400, _("since must be a whole number of at least 0."))
        self.sent_version = int(since) if since is not None else -1
        # What of the game beside its version the last line showed (shape_of); resuming, the
        # reader has seen version ``since`` as it is.
        self.sent_shape = RESUMED if since is not None else None
        return await self._may_watch()

    @in_live_threads
    def _may_watch(self) -> HttpResponse | None:
        try:
            api_selectors.game_for(self.game_id, self.user)
        except GameError as error:
            return problem_response(error.status, error.message)
        return None

    async def started(self) -> None:
        # Joined before the first read: a version committed after it is announced to this stream.
        await self.join(self.game_id)
        await self.send_lines(await self._lines("gameFull"))

    async def game_version(self, event) -> None:
        version = event.get("version")
        # An announcement of the version already sent may still say more: a game starts, is
        # paused or is cancelled without a move, so the version stays.
        if isinstance(version, int) and version < self.sent_version:
            return
        await self.send_lines(await self._lines("gameState"))

    async def check_again(self) -> None:
        await self.send_lines(await self._lines("gameState"))

    @in_live_threads
    def _lines(self, kind: str) -> list[bytes]:
        return game_lines(self, kind)

    async def send_lines(self, lines: list[bytes]) -> None:
        await super().send_lines(lines)
        if getattr(self, "ended", False):
            await self.finish()


def game_lines(stream, kind: str) -> list[bytes]:
    """The lines a game's stream sends now: nothing when the viewer has seen this version;
    else ``kind`` (or gameFinish once it is over) with the body of GET /games/{id}."""
    try:
        game = api_selectors.game_for(stream.game_id, stream.user)
    except GameError:  # the game went private, or is gone: nothing more to show
        stream.ended = True
        return []
    shape = shape_of(game)
    if stream.sent_shape is RESUMED and game.version == stream.sent_version:
        stream.sent_shape = shape
    if (game.version < stream.sent_version or (game.version == stream.sent_version and shape == stream.sent_shape)) \
            and game.status not in (Game.Status.FINISHED, Game.Status.CANCELLED):
        return []
    body = api_selectors.game_state(game, stream.user)
    stream.sent_version, stream.sent_shape = game.version, shape
    lines = [line({"type": kind, **body})] if kind == "gameFull" or game.status not in (
        Game.Status.FINISHED, Game.Status.CANCELLED) else []
    if game.status in (Game.Status.FINISHED, Game.Status.CANCELLED):
        lines.append(line({"type": "gameFinish", **body}))
        stream.ended = True
    return lines


RESUMED = object()


def shape_of(game: Game) -> tuple:
    """What a game's answer may change by without a new version: its status (a game starts,
    pauses, is cancelled), who is awaited and the seats taken (a player joins or leaves)."""
    return (game.status, tuple(game.awaiting or ()), game.seats.filter(user__isnull=False).count())


class EventStream(_Stream):
    # Also how soon a game the user joined since is followed: one small read a beat.
    stale_check_seconds = 0.0

    # How often invitations are read again, should an announcement to the user have been lost.
    invitation_check_seconds = STALE_CHECK_SECONDS

    async def started(self) -> None:
        self.known: dict[int, tuple] = {}
        self.invitations_sent: set[int] = set()
        self.invitations_read_at = time.monotonic()
        # The user's group was joined before the first read (handle): an invitation sent after it
        # is announced to this stream.
        first, game_ids = await self._pending()
        for game_id in game_ids:
            await self.join(game_id)
        await self.send_lines(first)

    @in_live_threads
    def _pending(self) -> tuple[list[bytes], list[int]]:
        events = api_selectors.events_of(self.user)
        self.invitations_sent.update(event["id"] for event in events if event["type"] == "invitation")
        return [line(event) for event in events], self._watch_list()

    async def user_seated(self, event) -> None:
        """The user took a seat (``games.realtime.announce_seat_taken``): follow the game now."""
        lines, game_ids = await self._new_games()
        for game_id in game_ids:
            await self.join(game_id)
        await self.send_lines(lines)

    async def user_invitation(self, event) -> None:
        """An invitation was sent to the user (``games.realtime.announce_invitation``)."""
        await self.send_lines(await self._new_invitations())

    @in_live_threads
    def _new_invitations(self) -> list[bytes]:
        """Invitations waiting for the user's answer not yet sent on this stream (one from a
        player they blocked never is: ``games.selectors.invitations_for``)."""
        self.invitations_read_at = time.monotonic()
        lines = []
        for invitation in games_selectors.invitations_for(self.user):
            if invitation.pk not in self.invitations_sent:
                self.invitations_sent.add(invitation.pk)
                lines.append(line(api_selectors.invitation_event(invitation)))
        return lines

    def _watch_list(self) -> list[int]:
        """The user's games that may still change, each remembered as it is now."""
        seats = dict(Seat.objects.filter(user=self.user, resigned_at__isnull=True).values_list("game_id", "index"))
        games = Game.objects.filter(pk__in=seats, status__in=[Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.PAUSED])
        for game in games.only("id", "status", "awaiting", "turn_started_version"):
            self.known.setdefault(game.pk, _standing(game, seats[game.pk]))
        return list(self.known)

    async def game_version(self, event) -> None:
        await self.send_lines(await self._changes())

    async def check_again(self) -> None:
        await self.send_lines(await self._changes())
        lines, game_ids = await self._new_games()
        for game_id in game_ids:
            await self.join(game_id)
        await self.send_lines(lines)
        if time.monotonic() - self.invitations_read_at >= self.invitation_check_seconds:
            await self.send_lines(await self._new_invitations())

    @in_live_threads
    def _new_games(self) -> tuple[list[bytes], list[int]]:
        """Games the user took a seat in since the stream opened, followed from now on. One that
        has already started (their seat was its last: a link, an accepted invitation) is told
        as it would have been, gameStart and yourTurn, else nothing would ever say so."""
        before = set(self.known)
        new = [game_id for game_id in self._watch_list() if game_id not in before]
        lines = []
        started = Game.objects.filter(pk__in=new, status__in=[Game.Status.ACTIVE, Game.Status.PAUSED])
        for game in started.only("id", "kind", "version").order_by("pk"):
            lines.append(line(api_selectors.game_event("gameStart", game)))
            if self.known[game.pk][1]:
                lines.append(line(api_selectors.game_event("yourTurn", game)))
        return lines, new

    @in_live_threads
    def _changes(self) -> list[bytes]:
        """Events of the user's games since they were last looked at."""
        lines = []
        seats = dict(Seat.objects.filter(user=self.user, game_id__in=list(self.known)).values_list("game_id", "index"))
        for game in Game.objects.filter(pk__in=list(self.known)).only("id", "kind", "version", "status", "awaiting",
                                                                       "turn_started_version"):
            before = self.known[game.pk]
            now = _standing(game, seats.get(game.pk))
            if now == before:
                continue
            self.known[game.pk] = now
            status, to_move, turn = now
            if status in (Game.Status.ACTIVE, Game.Status.PAUSED) and before[0] == Game.Status.OPEN:
                lines.append(line(api_selectors.game_event("gameStart", game)))
            if to_move and (not before[1] or turn != before[2]):
                lines.append(line(api_selectors.game_event("yourTurn", game)))
            if status in (Game.Status.FINISHED, Game.Status.CANCELLED):
                lines.append(line(api_selectors.game_event("gameFinish", game)))
                del self.known[game.pk]
        return lines


def _standing(game: Game, seat: int | None) -> tuple:
    """What the events stream tells apart: the status, whether it is the seat's move, which turn."""
    to_move = game.status == Game.Status.ACTIVE and seat is not None and seat in (game.awaiting or [])
    return (game.status, to_move, game.turn_started_version)


def stream_elsewhere(request: HttpRequest) -> HttpResponse:
    """A stream asked of a page process: the socket processes serve it (307 to their port, the
    same path and query); a client that keeps its Authorization header across ports follows it."""
    port = getattr(settings, "LIVE_SOCKET_PORT", None)
    if port:
        host = request.get_host().rsplit(":", 1)[0]
        response = HttpResponse(status=307)
        response["Location"] = f"{request.scheme}://{host}:{port}{request.get_full_path()}"
        return response
    return problem_response(404, _("Streams are served by the socket processes (hexsite.asgi); this server has none."))
