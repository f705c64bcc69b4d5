"""Reads for the edges: who may see what, and the page context built from a seat's view."""
from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TypeVar

from django.conf import settings
from django.db import connection
from django.db.models import BooleanField, Count, ExpressionWrapper, Q, QuerySet, Value
from django.utils.translation import gettext as _

from games import policy, presence, rows, state_store
from games.errors import GameNotFound, NotYourSeat
from games.models import ChatMessage, Game, Invitation, MoveEvent, Rating, RatingChange, Seat
from games.sites import get_site, offered_sites


def game_for_viewer(game_id: int, user) -> Game:
    """The game, if ``user`` may watch it: public games, or private ones they sit at."""
    game, _recent = _game_with_seats(game_id)
    if game is None:
        raise GameNotFound(_("There is no such game."))
    if not can_watch(game, user):
        raise NotYourSeat(_("This game is private: only its players can see it."))
    return game


def game_as_written(read: Game, written: Game) -> Game | None:
    """``read`` (``game_for_viewer``'s, with its seats and their users) brought up to ``written``,
    the row a move saved under the game's lock, when the seats that move read under the lock are
    the ones ``read`` holds and the move changed none: the mover's answer is then drawn without
    reading the game again. None when a seat changed in between (read the game again)."""
    seats, revision = getattr(written, "seats_under_lock", (None, None))
    if seats is None or written.revision != revision:
        return None
    held = {seat.index: [seat.user_id, seat.ai_level, seat.standin_level, seat.resigned_at] for seat in read.seats.all()}
    if held != seats:
        return None
    for field in Game._meta.concrete_fields:
        setattr(read, field.attname, getattr(written, field.attname))
    read._ai_seat_indexes = {index for index, (_user, ai, standin, _resigned) in seats.items() if ai or standin}
    return read


def watched_game(game_id: int, user) -> Game | None:
    """The game's row alone, without its seats, if ``user`` may watch it."""
    game = Game.objects.filter(pk=game_id).first()
    return game if game is not None and can_watch(game, user) else None


# How many of a game's latest events a snapshot names the seats of: enough for a socket a few
# versions behind to tell whether its viewer's seat moved since (games.consumers).
RECENT_EVENTS = 32
T = TypeVar("T")


@dataclass(frozen=True)
class GameSnapshot:
    """One read of a game for everyone a process pushes one announcement to: its row with its
    seats and their users (what ``game_for_viewer`` reads), and who made each of its latest
    ``RECENT_EVENTS`` events, ``(seq, seat)``, oldest first."""

    game: Game
    recent_events: tuple[tuple[int, int | None], ...]

    def seat_moved_since(self, seat: int, version: int) -> bool | None:
        """Did ``seat`` make an event after ``version``? None: not known (older than the snapshot's events)."""
        if version >= self.game.version:
            return False
        if not self.recent_events or self.recent_events[0][0] > version + 1:
            return None
        return any(by == seat for seq, by in self.recent_events if seq > version)


def game_version_of(game_id: int) -> Game | None:
    """The game with only its version and revision (its stamp), or None: one small read."""
    return Game.objects.only("version", "revision").filter(pk=game_id).first()


def game_snapshot(game_id: int) -> GameSnapshot | None:
    game, recent = _game_with_seats(game_id, recent_events=RECENT_EVENTS)
    if game is None:
        return None
    game.__dict__[_SHARED_MEMO] = {}
    return GameSnapshot(game, recent)


# A snapshot's game is read once and answers every socket of an announcement (each gets a
# shallow copy: ``watched_in``), and it is never written to. What is the same for every viewer
# (whose seat a user has, the seats as the status bar shows them, a public region's key) is
# worked out once for all of them and kept on it; the copies share the one dict. At 100 seats
# each socket walked the seats four times for it, for every submission of a round.
_SHARED_MEMO = "_shared_memo"


def shared(game: Game, name: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, once per snapshot read for all its viewers; every time for another game."""
    memo = game.__dict__.get(_SHARED_MEMO)
    if memo is None:
        return compute()
    try:
        return memo[name]
    except KeyError:
        value = memo[name] = compute()  # threads racing compute the same value
        return value


def _seats_by_user(game: Game) -> dict[int, int]:
    """Each player's seat (the first, should a user hold several)."""
    found: dict[int, int] = {}
    for seat in game.seats.all():
        if seat.user_id is not None:
            found.setdefault(seat.user_id, seat.index)
    return found


# --- the game with its seats, in one round trip ---------------------------------------------
#
# Every page, move and socket push of a game starts with this read: the game's row, its seats
# with their users, and (for a push) who made its latest events. Through the ORM that is three
# queries, each compiled again (``Prefetch`` of the seats with ``select_related``): 1.9 ms of
# CPU and three round trips, a quarter of the sockets' process's samples under `make load`.
# Here it is one execute of three statements, the rows made into instances as the ORM makes
# them (games/rows.py): the same objects, ``game.seats.all()`` served from them
# (tests/web/test_game_read.py compares the two reads field by field).

# What no page, move or push shows of the players at a table, left out of the read (deferred: a
# use reads it then): the password's hash, and two times that each cost a parse in Python per
# user (psycopg's timestamp loader, as Django subclasses it), 200 of them at 100 seats.
USER_LEFT_OUT = ("password", "last_login", "date_joined")


@functools.cache
def _game_read() -> str:
    from accounts.models import User

    game, seat, user = rows.columns(Game, "g"), rows.columns(Seat, "s"), rows.columns(User, "u", USER_LEFT_OUT)
    return (f'SELECT {game.sql} FROM "{Game._meta.db_table}" g WHERE g."id" = %(game)s; '
            f'SELECT {seat.sql}, {user.sql} FROM "{Seat._meta.db_table}" s '
            f'LEFT JOIN "{User._meta.db_table}" u ON u."id" = s."user_id" WHERE s."game_id" = %(game)s ORDER BY s."index"; '
            f'SELECT e."seq", e."seat" FROM "{MoveEvent._meta.db_table}" e WHERE e."game_id" = %(game)s '
            f'AND e."seq" <= (SELECT "version" FROM "{Game._meta.db_table}" WHERE "id" = %(game)s) '
            f'ORDER BY e."seq" DESC LIMIT %(recent)s')


def _game_with_seats(game_id: int, recent_events: int = 0) -> tuple[Game | None, tuple[tuple[int, int | None], ...]]:
    """The game with its seats and their users (as ``prefetch_related`` of the seats with
    ``select_related("user")`` gives them), and the latest ``recent_events`` events' (seq, seat),
    oldest first; (None, ()) when there is no such game."""
    from accounts.models import User

    with connection.cursor() as cursor:
        cursor.execute(_game_read(), {"game": int(game_id), "recent": max(0, recent_events)})
        row = cursor.fetchone()
        cursor.nextset()
        seat_rows = cursor.fetchall()
        cursor.nextset()
        events = cursor.fetchall()
    if row is None:
        return None, ()
    game = rows.columns(Game, "g").instance(row)
    seat_columns, user_columns = rows.columns(Seat, "s"), rows.columns(User, "u", USER_LEFT_OUT)
    width, user_field, seats = len(seat_columns.attnames), Seat._meta.get_field("user"), []
    for values in seat_rows:
        seat = seat_columns.instance(values[:width])
        user_field.set_cached_value(seat, user_columns.instance(values[width:]) if values[width] is not None else None)
        seats.append(seat)
    rows.with_seats(game, seats)
    return game, tuple(reversed(events))


def watched_in(snapshot: GameSnapshot | None, user) -> Game | None:
    """What ``watched_game`` answers, from a snapshot shared by many sockets."""
    if snapshot is None:
        return None
    shared = snapshot.game
    if not can_watch(shared, user):
        return None
    return copy.copy(shared)  # the snapshot is shared: each socket's answer is its own object


def plays_in(game: Game, user) -> bool:
    return bool(user and user.is_authenticated and user.pk in shared(game, "seats_by_user", lambda: _seats_by_user(game)))


def can_watch(game: Game, user) -> bool:
    """Public games: anyone. Private ones: their players. A game's site may decide otherwise
    (a daily puzzle shows the day's secret shuffle)."""
    site_rule = get_site(game.kind).can_watch
    decided = site_rule(game, user) if site_rule else None
    if decided is not None:
        return decided
    return game.visibility == Game.Visibility.PUBLIC or plays_in(game, user)


def seat_of(game: Game, user) -> int | None:
    if not (user and user.is_authenticated):
        return None
    return shared(game, "seats_by_user", lambda: _seats_by_user(game)).get(user.pk)


def is_to_move(game: Game, seat: int | None) -> bool:
    """Is it the move of ``seat``'s player: the game waits for the seat, and they have not
    resigned from it (the AI then plays the seat to the end and would refuse their moves; the
    engine still waits for the seat)."""
    if game.status != Game.Status.ACTIVE or seat is None or seat not in game.awaiting:
        return False
    resigned = shared(game, "resigned_seats", lambda: frozenset(s.index for s in game.seats.all() if s.resigned_at))
    return seat not in resigned


@dataclass
class BoardContext:
    game: Game
    seat: int | None
    view: dict
    your_move: bool
    seats: list[Seat] = field(default_factory=list)
    viewer: object = None

    @property
    def shown_view(self) -> dict:
        """The view as the reader reads it (``GameSite.shown_view``: e.g. an AI seat's name in
        the active language); the engine's view when the site has nothing to change."""
        shown = get_site(self.game.kind).shown_view
        return shown(self.view, self.seats) if shown is not None and self.view else self.view

    def as_dict(self) -> dict:
        return {
            "user": self.viewer,  # pages have it from the request; socket pushes from here
            "game": self.game,
            "seat": self.seat,
            "view": self.shown_view,
            "your_move": self.your_move,
            "seats": self.seats,
            "analysis": self.game.analysis,
            "board_template": get_site(self.game.kind).board_template,
            "your_seat": next((s for s in self.seats if s.index == self.seat), None),
            # Players the AI stands in for: picked here, as a template's loop over a hundred
            # seats costs a millisecond for every viewer.
            "stood_in": [s for s in self.seats if s.standin_level and s.user_id],
            "may_resign": self.game.status == Game.Status.ACTIVE and bool(get_site(self.game.kind).standin_level),
            **(open_game_context(self.game, self.viewer) if self.game.status == Game.Status.OPEN else {}),
        }


def open_game_context(game: Game, viewer=None) -> dict:
    """What the page of a game not yet started shows: its seats and, for its host, the tools
    (``viewer``: who reads it; its host also sees the invitations waiting for an answer)."""
    site = get_site(game.kind)
    form_class = site.settings_form
    settings_form = None
    if form_class is not None:
        initial = form_class.initial_from(game.config) if hasattr(form_class, "initial_from") else {}
        settings_form = form_class(initial=initial)
    return {"ai_levels": site.engine.ai_levels(), "settings_form": settings_form,
            "free_seats": sum(1 for seat in game.seats.all() if not seat.user_id and not seat.ai_level),
            # A socket push has no request to take the host from: the site's own address then.
            "site_url": settings.SITE_URL.rstrip("/"),
            "game_invitations": (invitations_of_game(game) if viewer is not None and game.created_by_id
                                 and game.created_by_id == getattr(viewer, "pk", None) else [])}


def invitations_of_game(game: Game) -> list[Invitation]:
    """The invitations to ``game`` waiting for an answer, oldest first (its host's list)."""
    return list(Invitation.objects.filter(game=game, status=Invitation.Status.PENDING).select_related("invited"))


def open_invitations() -> Q:
    """Invitations waiting for an answer to a game that still takes players or a league that
    still takes entries (one whose game started is expired by then; this holds meanwhile too)."""
    return Q(status=Invitation.Status.PENDING) & (Q(game__status=Game.Status.OPEN) | Q(league__status="enrolling"))


def invitations_for(user) -> list[Invitation]:
    """The invitations waiting for ``user``'s answer, oldest first: to games that still take
    players and leagues that still take entries, none from a player they blocked."""
    if user is None or not getattr(user, "pk", None):
        return []
    return list(Invitation.objects.filter(open_invitations(), invited=user)
                .exclude(invited_by_id__in=policy.blocked_by(user))
                .select_related("game", "league", "invited_by").order_by("created_at", "pk"))


def join_context(game: Game, user) -> dict:
    """What the invitation page shows before a seat is taken: the host, every seat, how many are
    free, the game's settings in words, and whether the viewer already sits here or may watch."""
    seats = seats_with_users(game)
    describe = get_site(game.kind).describe_settings
    return {"game": game, "seats": seats, "host": game.created_by,
            "free_seats": sum(1 for seat in seats if not seat.user_id and not seat.ai_level),
            "game_settings": describe(game) if describe else [],
            "your_seat": next((seat for seat in seats if user.is_authenticated and seat.user_id == user.pk), None),
            "may_watch": can_watch(game, user)}


def with_free_seats(games: QuerySet) -> QuerySet:
    """Games annotated with ``seat_count`` and ``free_seats`` (neither a player nor an AI), for
    lobbies and lists that say how many seats are left."""
    return games.annotate(seat_count=Count("seats", distinct=True),
                          free_seats=Count("seats", filter=Q(seats__user__isnull=True, seats__ai_level=""), distinct=True))


def board_context(game: Game, user) -> BoardContext:
    """What one user sees of a game: their own seat's view, or a spectator's."""
    seat = seat_of(game, user)
    view = {}
    if game.status != Game.Status.OPEN:
        view = get_site(game.kind).engine.view(state_store.load(game), seat)
    return BoardContext(game=game, seat=seat, view=view, your_move=is_to_move(game, seat), seats=list(game.seats.all()),
                        viewer=user)


def turn_token(game: Game) -> str:
    """Changes whenever a board must be drawn again as a whole: a new turn or round, the status,
    the clock, the hindsight figures. Unlike ``Game.board_token`` it ignores moves within a turn."""
    return shared(game, "turn_token", lambda: _turn_token(game))


def _turn_token(game: Game) -> str:
    deadline = int(game.deadline_at.timestamp()) if game.deadline_at else 0
    return f"{game.turn_started_version}.{game.status}.{deadline}.{int(bool(game.analysis))}.{game.revision}"


@dataclass
class Dashboard:
    your_move: list[Game]
    waiting: list[Game]
    open: list[Game]
    finished: list[Game]
    invitations: list[Invitation] = field(default_factory=list)


def dashboard(user, finished_limit: int = 20) -> Dashboard:
    """The user's games, those waiting for their move first."""
    held = list(Seat.objects.filter(user=user).values_list("game_id", "index", "resigned_at"))
    seats = {game_id: index for game_id, index, _resigned_at in held}
    # A seat its player resigned from is the AI's to the end: never their move.
    resigned = {game_id for game_id, _index, resigned_at in held if resigned_at is not None}
    games = list(
        Game.objects.filter(pk__in=seats, status__in=[Game.Status.OPEN, Game.Status.ACTIVE]).order_by("deadline_at", "-created_at")
    )
    your_move = [g for g in games if g.status == Game.Status.ACTIVE and seats[g.pk] in g.awaiting and g.pk not in resigned]
    waiting = [g for g in games if g.status == Game.Status.ACTIVE and g not in your_move]
    open_games = list(with_free_seats(Game.objects.filter(pk__in=[g.pk for g in games if g.status == Game.Status.OPEN]))
                      .order_by("-created_at"))
    finished = list(Game.objects.filter(pk__in=seats, status=Game.Status.FINISHED).order_by("-finished_at")[:finished_limit])
    return Dashboard(your_move=your_move, waiting=waiting, open=open_games, finished=finished,
                     invitations=invitations_for(user))


@dataclass(frozen=True)
class PlayerStats:
    games: int
    average_score: float | None
    best_score: int | None
    average_rank: float | None


def player_stats(user, kind: str) -> PlayerStats:
    """Games, average and best score, average rank, from the user's finished games of ``kind``."""
    scores, ranks = [], []
    seats = Seat.objects.filter(user=user, game__kind=kind, game__status=Game.Status.FINISHED).select_related("game")
    for seat in seats:
        result = seat.game.result or {}
        if seat.index < len(result.get("scores", [])):
            scores.append(result["scores"][seat.index])
            ranks.append(result["ranks"][seat.index])
    return PlayerStats(
        games=len(scores),
        average_score=sum(scores) / len(scores) if scores else None,
        best_score=max(scores) if scores else None,
        average_rank=sum(ranks) / len(ranks) if ranks else None,
    )


@dataclass(frozen=True)
class GameRating:
    """A player's rating in one game, and its history (one figure after each rated game)."""

    rating: Rating | None
    history: list[RatingChange]


def game_rating(user, kind: str) -> GameRating:
    return GameRating(rating=Rating.objects.filter(user=user, kind=kind).first(),
                      history=list(RatingChange.objects.filter(user=user, game__kind=kind).order_by("created_at")))


@dataclass(frozen=True)
class ProfileSection:
    kind: str
    title: str
    parts: list[tuple[str, object]]  # (template, its stats)
    rating: GameRating | None  # None: the game is not rated


def profile_sections(user) -> list[ProfileSection]:
    """One section of a player's page per game: the game's own figures (e.g. points, solo
    records), and for a rated game its rating in that game."""
    return [
        ProfileSection(site.kind, site.title, [(template, stats_for(user)) for template, stats_for in site.profile_sections],
                       game_rating(user, site.kind) if site.rated else None)
        for site in offered_sites()
        if site.profile_sections or site.rated
    ]


CHAT_SHOWN = 100


def may_chat(game: Game, user) -> bool:
    """Players write in a game's chat; spectators too when the game's config says so."""
    if not (user and user.is_authenticated):
        return False
    return plays_in(game, user) or bool(game.config.get("spectator_chat"))


def chat_context(game: Game, user) -> dict:
    """The latest visible chat messages of a game (oldest first) and whether ``user`` may write."""
    # Messages of players the viewer blocked (moderation.Block) are set apart among the latest:
    # counted, and shown only when the viewer opens them (games/_chat.html).
    latest = ChatMessage.objects.filter(game=game, hidden_at__isnull=True)
    blocked = policy.blocked_by(user)
    if isinstance(blocked, (tuple, list)) and not blocked:
        latest = latest.annotate(from_blocked=Value(False))
    else:
        latest = latest.annotate(from_blocked=ExpressionWrapper(Q(author_id__in=blocked), output_field=BooleanField()))
    latest = list(reversed(latest.select_related("author").order_by("-created_at", "-pk")[:CHAT_SHOWN]))
    return {"game": game, "chat_messages": [m for m in latest if not m.from_blocked],
            "chat_blocked": [m for m in latest if m.from_blocked], "chat_may_post": may_chat(game, user), "user": user,
            "chat_muted": policy.mute_notice(user)}


@dataclass
class ReplayStep:
    board: BoardContext
    at: int
    last: int
    event: object | None
    template: str = ""
    # The steps at which a new turn (a round, a player's turn) began, 0 first: for jumping by turns.
    turns: list[int] = field(default_factory=list)
    turn_label: str = ""

    @property
    def previous_turn(self) -> int | None:
        earlier = [seq for seq in self.turns if seq < self.at]
        return earlier[-1] if earlier else None

    @property
    def next_turn(self) -> int | None:
        return next((seq for seq in self.turns if seq > self.at), None)


def replay_limit(game: Game, seat: int | None) -> int:
    """How far ``seat`` may step through ``game``: a finished game to its end; a running one, for
    its players only, to the start of the open round when seats act at once (the round's
    submissions are secret until it closes), else to the latest move (each was public)."""
    aborted = game.status == Game.Status.CANCELLED and game.version > 0  # by staff: its events stay
    if game.status == Game.Status.FINISHED or aborted:
        return game.version
    running = game.status in (Game.Status.ACTIVE, Game.Status.PAUSED)
    if running and seat is not None:
        engine = get_site(game.kind).engine
        return game.turn_started_version if engine.SIMULTANEOUS_TURNS else game.version
    if running:
        raise NotYourSeat(_("A running game can be replayed by its players only; watch it live, or replay it once it is over."))
    raise NotYourSeat(_("Only a game that has been played can be replayed."))


def _replay_turns(game: Game, last: int, at: int):
    """One pass over the events up to ``last``: the state after event ``at`` and the steps at
    which the engine's turn key changed. Undo events take back the latest effective move."""
    engine = get_site(game.kind).engine
    states = [engine.new_state(game.config, game.seed)]
    key = engine.turn_key(states[0])
    turns, at_state = [0], states[0]
    events = MoveEvent.objects.filter(game_id=game.pk, seq__lte=last).order_by("seq")
    for seq, seat, kind, payload in events.values_list("seq", "seat", "kind", "payload").iterator():
        if kind == MoveEvent.Kind.UNDO:
            states.pop()
        else:
            states.append(state_store.apply_event(engine, states[-1], seat, kind, payload))
        new_key = engine.turn_key(states[-1])
        if new_key != key:
            turns.append(seq)
            key = new_key
        if seq == at:
            at_state = states[-1]
    return at_state, turns


def replay_step(game: Game, user, at: int | None = None) -> ReplayStep:
    """A game as it stood after its first ``at`` events (default: as far as the viewer may go):
    the spectator's view, or the viewer's own seat's view if they play (nobody else's cards,
    ever). A running game stops where ``replay_limit`` says."""
    seat = seat_of(game, user)
    last = replay_limit(game, seat)
    at = last if at is None else max(0, min(at, last))
    site = get_site(game.kind)
    state, turns = _replay_turns(game, last, at)
    view = site.engine.view(state, seat)
    event = game.events.filter(seq=at).select_related("created_by").first() if at else None
    board = BoardContext(game=game, seat=seat, view=view, your_move=False, seats=list(game.seats.all()), viewer=user)
    spectator_view = view if seat is None else site.engine.view(state, None)
    return ReplayStep(board=board, at=at, last=last, event=event,
                      template=site.replay_template or site.board_template, turns=turns,
                      turn_label=site.label_for_turn(spectator_view) if site.turn_label else "")


def seats_with_users(game: Game) -> list[Seat]:
    """The game's seats in order, with their users. A game read by ``game_for_viewer`` has them
    already: a board of 100 seats then reads them once, not twice."""
    if "seats" in getattr(game, "_prefetched_objects_cache", {}):
        return sorted(game.seats.all(), key=lambda seat: seat.index)
    return list(game.seats.select_related("user").order_by("index"))


# Who has the game open is listed by name at a table of at most this many seats, and counted at
# a larger one: every socket gets the list whenever someone arrives or leaves, so at a hundred
# seats a list of every name cost each round of arrivals the square of the seats in bytes.
PRESENCE_NAMES_LISTED = 12


def presence_context(game: Game) -> dict:
    """The game's seats, each marked connected or not (who has the game's page open); past
    ``PRESENCE_NAMES_LISTED`` seats, how many players have it open."""
    seats = seats_with_users(game)
    online = presence.connected(game.pk, [seat.user_id for seat in seats])
    players = [seat for seat in seats if seat.user_id]
    return {"game": game, "presence": [{"seat": seat, "connected": seat.user_id in online} for seat in seats],
            "presence_counted": len(seats) > PRESENCE_NAMES_LISTED,
            "presence_players": len(players), "presence_connected": sum(1 for seat in players if seat.user_id in online)}
