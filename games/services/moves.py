"""The one write path of moves, and everything that goes through it.

``append_events`` is the only code that appends events: lock the game row, rebuild the state,
let the engine check and apply, append the events with consecutive ``seq``, bump ``version``,
refresh the clock (the events and the game's row in one statement); after commit, cache the new
state, announce the version and schedule what comes next (AI moves, a short turn timer, the
end-of-game follow-ups).
"""
from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable

from django.conf import settings
from django.db import connections, router, transaction
from django.db.models import sql
from django.utils import timezone
from django.utils.translation import gettext as _

from games import jobs, move_input, ranking, realtime, rows, state_store
from games.errors import BadMove, GameNotActive, GameNotFound, NotYourSeat, StaleVersion, as_sentence
from games.models import Game, MoveEvent, Seat
from games.protocol import Engine, IllegalMove
from games.refusals import general_refusal
from games.services.clocks import is_correspondence, is_short, refresh_turn
from games.sites import get_engine, get_site

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Progress:
    """What one write did, for what follows it (notifications, the next league game)."""

    turn_changed: bool
    timed_out: tuple[int, ...] = ()
    finished: bool = False
    # The turn's clock was set again (a new deadline). A move inside a turn or a simultaneous
    # round leaves it, and the timer already queued for that deadline still stands.
    clock_set: bool = True


@dataclass(frozen=True)
class Applied:
    """The outcome of a write: the game row as committed and the state it now has."""

    game: Game
    state: Any
    # The move was already in (sent again from a page that had not seen it land: a second tab, a
    # retry): answered as played, with no new event.
    repeated: bool = False


# --- moves ----------------------------------------------------------------------------------


def submit_move(*, game_id: int, user, move: Any, expected_version: int, seat: int | None = None) -> Applied:
    """A player's move. Refusals raise a GameError (404, 403, 409 or 400) and write nothing."""
    if not isinstance(move, dict):
        raise BadMove(_("A move must be a JSON object with a type."))
    with transaction.atomic():
        game, seat_rows = _lock_with_seats(game_id, user, move, expected_version)
        engine = get_engine(game.kind)
        move_input.validate_move(engine, move)  # the edge checks too; no caller may skip it
        seat_index = _users_seat(game, user, seat, seat_rows=seat_rows)
        if game.move_repeated:
            # A double click, or a retry after a lost answer: that move is in, once.
            return Applied(game, state_store.load(game), repeated=True)
        _check_active(game)
        standin, resigned = game._seat_rows[seat_index]
        if resigned is not None:
            raise NotYourSeat(_("You have resigned from this game; the AI plays your seat."))
        state = state_store.load(game)
        if not _is_current(game, engine, expected_version):
            _refuse_unless_still_meant(game, engine, state, seat_index, move, expected_version)
        if seat_index not in engine.actors(state):
            raise BadMove(_("It is not your turn."))
        state = append_events(game, engine, state, [(seat_index, MoveEvent.Kind.MOVE, move)], user=user)
        if standin:  # the player is back: their own move takes the seat from the AI
            _take_back_from_standin(game, seat_index)
    return Applied(game, state)


def undo_last_move(*, game_id: int, user, expected_version: int) -> Applied:
    """Take back the player's latest move, as an event (nothing is deleted). Games whose config
    allows it only (casual solo games)."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = _users_seat(game, user, None)
        _check_active(game)
        if not game.config.get("undo", False):
            raise BadMove(_("Undo is not allowed in this game."))
        if expected_version != game.version:
            raise StaleVersion()
        engine = get_engine(game.kind)
        state = append_events(game, engine, state_store.load(game), [(seat, MoveEvent.Kind.UNDO, {})], user=user)
    return Applied(game, state)


def play_ai_move(*, game_id: int, expected_version: int, seat: int) -> bool:
    """Let the AI in ``seat`` move, if the game is still where the task saw it (for engines
    with simultaneous rounds: still in that round, and the seat still awaited)."""
    game = Game.objects.filter(pk=game_id).first()
    engine = get_engine(game.kind) if game else None
    if game is None or not _ai_may_move(game, engine, expected_version, seat):
        return False
    seat_row = game.seats.filter(index=seat).first()
    if seat_row is None or not seat_row.is_ai:
        return False
    # Think outside the transaction: the bot sees only its seat's view, and no lock is held.
    move = engine.choose_move(engine.view(state_store.load(game), seat), seat_row.playing_level)
    with transaction.atomic():
        game = lock_game(game_id)
        if not _ai_may_move(game, engine, expected_version, seat):
            return False
        append_events(game, engine, state_store.load(game), [(seat, MoveEvent.Kind.AI, move)])
    return True


def _refuse_unless_still_meant(game: Game, engine: Engine, state: Any, seat: int, move: dict,
                               expected_version: Any) -> None:
    """A move chosen at an older version than the game's (other seats' events came in before
    the page showed them) is played only if it still means what it meant there: the engine
    compares its ``move_context`` at both positions (the turn, the phase, the offer it
    answers). An engine that does not say what its moves mean refuses them all as stale.
    Whether the move is legal now is checked after this, as for any move."""
    if not _is_version(expected_version) or not 0 <= expected_version < game.version \
            or not engine.has_move_context:
        raise StaleVersion()
    old = state_store.cached(game, expected_version)
    if old is None:
        old = state_store.replay(game, upto=expected_version)
        state_store.remember(game, expected_version, old)  # a committed version: the row is locked
    if not engine.still_meant(old, state, seat, move):
        raise StaleVersion(_stale_words(game, engine.stale_message(old, state, seat, move)))


def _stale_words(game: Game, text: str | None) -> str | None:
    """The engine's words for a stale move in the site's words and the player's language (its
    refusals); None, the platform's sentence, when the engine has none or the site does not
    know them in this language."""
    if not text:
        return None
    words = get_site(game.kind).readable_refusal(text)
    return None if words == general_refusal("") and words != as_sentence(text) else words


def _is_version(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ai_may_move(game: Game, engine: Engine, expected_version: int, seat: int) -> bool:
    return game.status == Game.Status.ACTIVE and seat in game.awaiting and _is_current(game, engine, expected_version)


def apply_timeouts(*, game_id: int, expected_version: int | None = None, deadline: datetime | None = None,
                   now: datetime | None = None) -> int:
    """Time out every seat the game waits for once its deadline has passed (a seat played by an
    AI makes its move instead).

    Exactly once per turn: the row lock serialises sweepers and timers, and the deadline is
    re-read under the lock, so a second sweeper (late, repeated or concurrent) finds it moved.
    A timer carries the ``deadline`` it was set for (timers queued before that carried the
    ``expected_version``) and does nothing once the clock was set again.
    Returns the number of events written.
    """
    now = now or timezone.now()
    with transaction.atomic():
        try:
            game = lock_game(game_id)
        except GameNotFound:
            return 0
        if game.status != Game.Status.ACTIVE or game.deadline_at is None or game.deadline_at > now:
            return 0
        if expected_version is not None and game.version != expected_version:
            return 0
        if deadline is not None and game.deadline_at != deadline:
            return 0
        engine = get_engine(game.kind)
        # A seat played by an AI is never timed out: its move task was lost or is late (a worker
        # killed holding it, a broker outage), so its move is played now, in this write. A
        # timeout would count against the seat (a no-move rule may put it out of the game after
        # a few) and which of the two a seat got would depend on which task ran first.
        played_by_ai = game.ai_seat_indexes()
        events = [(seat, MoveEvent.Kind.AI if seat in played_by_ai else MoveEvent.Kind.TIMEOUT, None)
                  for seat in game.awaiting]
        if not events:
            return 0
        version_before = game.version
        # The next turn's clock starts with this write, not when the sweep that found the
        # deadline began: a sweep may have waited for the row lock or run a slow bot, and that
        # time must not come off the next turn. (A ``now`` ahead of the clock, as tests pass, stays.)
        append_events(game, engine, state_store.load(game), events, stop_when_turn_changes=True,
                      now=max(now, timezone.now()))
        _hand_absent_players_to_ai(game)
        return game.version - version_before


def _each_game(game_ids, action, what: str) -> int:
    """Run ``action`` per game; one game that fails is logged and does not stop the others."""
    done = 0
    for game_id in list(game_ids):
        try:
            done += action(game_id)
        except Exception:
            logger.exception("%s failed for game %s", what, game_id)
    return done


def sweep_deadlines(now: datetime | None = None) -> int:
    """Apply timeouts to every active game whose deadline has passed; returns events written."""
    now = now or timezone.now()
    due = Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__lte=now).values_list("pk", flat=True)
    return _each_game(due, lambda game_id: apply_timeouts(game_id=game_id, now=now), "timeouts")


# --- the one write path ---------------------------------------------------------------------


def append_events(
    game: Game,
    engine: Engine,
    state: Any,
    events: Iterable[tuple[int | None, str, dict | None]],
    *,
    user=None,
    stop_when_turn_changes: bool = False,
    now: datetime | None = None,
) -> Any:
    """Apply and append events to a game locked by the caller, inside its transaction.

    What is stored is what happened: a timeout's payload is the decision the engine made for
    it (``resolve_timeout``), so replay never runs a bot; an undo rebuilds the position
    without the latest effective move."""
    turn_before = engine.turn_key(state)
    deadline_before = game.deadline_at
    rows: list[MoveEvent] = []
    for seat, kind, payload in events:
        if stop_when_turn_changes and rows and engine.turn_key(state) != turn_before:
            break
        if kind == MoveEvent.Kind.AI and payload is None:  # an AI seat due at its deadline (apply_timeouts)
            kind, payload = _due_ai_move(game, engine, state, seat)
        if kind == MoveEvent.Kind.TIMEOUT and payload is None:
            payload = engine.resolve_timeout(state, seat)
        try:
            if kind == MoveEvent.Kind.UNDO:
                state = state_store.state_before_last_move(game, pending=rows)
            else:
                state = state_store.apply_event(engine, state, seat, kind, payload)
        except IllegalMove as exc:
            raise BadMove(get_site(game.kind).readable_refusal(str(exc))) from exc
        rows.append(MoveEvent(game=game, seq=game.version + len(rows) + 1, seat=seat, kind=kind,
                              payload=payload or {}, created_by=user))
    state_store.check_storable(game, engine, state, {row.seat for row in rows})
    game.version += len(rows)
    turn_changed = engine.turn_key(state) != turn_before
    finished = engine.is_over(state)
    if finished:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.result = _resigned_rank_last(game, engine.result(state))
        game.deadline_at = game.remind_at = None
        game.awaiting = []
    else:
        # After timeouts the clock restarts even if the engine kept the turn, or it would be due again at once.
        refresh_turn(game, engine, state, turn_changed=turn_changed, restart=stop_when_turn_changes, now=now)
    _store(game, rows)
    timed_out = tuple(row.seat for row in rows if row.kind == MoveEvent.Kind.TIMEOUT)
    progress = Progress(turn_changed=turn_changed and not finished, timed_out=timed_out, finished=finished,
                        clock_set=game.deadline_at != deadline_before)
    transaction.on_commit(lambda: after_commit(game, engine, state, progress))
    return state


# What a write of events changes in the game's row.
WRITTEN_FIELDS = ("version", "turn_started_version", "status", "finished_at", "result", "deadline_at", "remind_at",
                  "awaiting", "clock")


def _store(game: Game, rows: list[MoveEvent]) -> None:
    """Insert the events and update the game's row in one statement (the insert as a
    data-modifying ``WITH``): one round trip under the game's lock where ``bulk_create`` and
    ``save`` make two, and every other seat of a large round waits for each of them. Both
    statements are Django's own SQL (its insert and update compilers), so fields convert as
    they would in ``bulk_create`` and ``save``."""
    connection = connections[router.db_for_write(Game)]
    insert = sql.InsertQuery(MoveEvent)
    insert.insert_values([field for field in MoveEvent._meta.concrete_fields if not field.primary_key], rows)
    [(insert_sql, insert_params)] = insert.get_compiler(connection=connection).as_sql()
    update = sql.UpdateQuery(Game)
    update.add_update_values({name: getattr(game, name) for name in WRITTEN_FIELDS})
    update.add_filter("pk", game.pk)
    update_sql, update_params = update.get_compiler(connection=connection).as_sql()
    with connection.cursor() as cursor:
        cursor.execute(f"WITH stored_events AS ({insert_sql}) {update_sql}", (*insert_params, *update_params))
        if cursor.rowcount != 1:  # the caller holds the row's lock: it cannot have gone
            raise GameNotFound(_("There is no such game."))
    for row in rows:
        row._state.adding = False


def _due_ai_move(game: Game, engine: Engine, state: Any, seat: int) -> tuple[str, dict | None]:
    """The move of an AI seat whose deadline has passed, chosen from its view now (stored, so
    replay never runs the bot). Should the bot fail, the seat times out instead: a deadline
    must always be applied, or the game would wait for ever."""
    level = game.seats.filter(index=seat).values_list("ai_level", "standin_level").first()
    try:
        return MoveEvent.Kind.AI, engine.choose_move(engine.view(state, seat), level[0] or level[1])
    except Exception:
        logger.exception("the AI of seat %s in game %s failed at its deadline; it times out", seat, game.pk)
        return MoveEvent.Kind.TIMEOUT, None


def _is_current(game: Game, engine: Engine, expected_version: Any) -> bool:
    """Was the client's view made at the current version? In engines where every seat acts at
    once (``SIMULTANEOUS_TURNS``), a view from earlier in the same round is current enough:
    other seats' submissions change nothing a seat decides on."""
    if not _is_version(expected_version):
        return False
    if expected_version == game.version:
        return True
    return engine.SIMULTANEOUS_TURNS and game.turn_started_version <= expected_version <= game.version


def schedule_ai_moves(game_id: int) -> None:
    """Ask the AI seats the game is waiting for to move (a seat handed to the AI, a resume, a
    sweep for one that was missed)."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
    if game is not None:
        ask_ai_seats(game)


def ask_ai_seats(game: Game) -> None:
    for seat in sorted(set(game.awaiting) & game.ai_seat_indexes()):
        jobs.enqueue("games.tasks.play_ai_move", game.pk, game.version, seat, countdown=settings.GAME_AI_DELAY_SECONDS)


def after_commit(game: Game, engine: Engine, state: Any, progress: Progress) -> None:
    """What follows a committed write: the cache, the announcement, the next steps."""
    state_store.remember(game, game.version, state)
    realtime.announce_version(game.pk, game.version)
    if progress.finished:
        jobs.enqueue("games.tasks.game_finished", game.pk)
    elif is_correspondence(game) and (progress.turn_changed or progress.timed_out):
        jobs.enqueue("games.tasks.notify_progress", game.pk, game.version, progress.turn_changed, list(progress.timed_out))
    if game.status != Game.Status.ACTIVE:
        return
    # In simultaneous rounds an AI seat is asked once per round; otherwise after every move.
    if progress.turn_changed or not engine.SIMULTANEOUS_TURNS:
        ask_ai_seats(game)
    if is_short(game) and progress.clock_set:  # one timer per deadline, not one per move
        jobs.enqueue("games.tasks.apply_timeouts", game.pk, None, game.deadline_at.isoformat(), eta=game.deadline_at)


# --- leaving: stand-ins and resigning ----------------------------------------------------


def resign_game(*, game_id: int, user) -> Game:
    """The player leaves a running game for good: an AI plays the seat on, and the player ranks
    last whatever the score."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat_index = _users_seat(game, user, None)
        _check_active(game)
        site = get_site(game.kind)
        if not site.standin_level:
            raise BadMove(_("This game has no resigning: its own rules play the turns you miss."))
        seat = game.seats.select_for_update().get(index=seat_index)
        if seat.resigned_at is not None:
            raise GameNotActive(_("You have already resigned from this game."))
        seat.resigned_at = timezone.now()
        seat.standin_level = site.standin_level
        seat.save(update_fields=["resigned_at", "standin_level"])
        _seats_changed(game)
    return game


def take_seat_back(*, game_id: int, user) -> Game:
    """The player is back: the AI that stood in for them stops (not after resigning)."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat_index = _users_seat(game, user, None)
        _check_active(game)
        if not _take_back_from_standin(game, seat_index):
            raise GameNotActive(_("Nobody is playing your seat for you."))
    return game


def _take_back_from_standin(game: Game, seat_index: int) -> bool:
    taken = Seat.objects.filter(game=game, index=seat_index, resigned_at__isnull=True).exclude(
        standin_level="").update(standin_level="")
    if taken:
        _seats_changed(game)
    return bool(taken)


def _hand_absent_players_to_ai(game: Game) -> None:
    """Board Game Arena's rule for leaving players: after ``standin_after_timeouts`` timeouts
    in a row (no move of their own between), an AI plays the seat until its player returns."""
    site = get_site(game.kind)
    if not site.standin_after_timeouts:
        return
    handed = False
    for seat in game.seats.select_for_update().filter(user__isnull=False, standin_level="").order_by("index"):
        latest = list(MoveEvent.objects.filter(game=game, seat=seat.index).order_by("-seq")
                      .values_list("kind", flat=True)[:site.standin_after_timeouts])
        if len(latest) == site.standin_after_timeouts and set(latest) == {MoveEvent.Kind.TIMEOUT}:
            seat.standin_level = site.standin_level
            seat.save(update_fields=["standin_level"])
            handed = True
    if handed:
        _seats_changed(game)


def _seats_changed(game: Game) -> None:
    """Who plays a seat changed: open pages refresh, and the AI is asked if it now owes a move."""
    game.touch()
    if hasattr(game, "_ai_seat_indexes"):
        del game._ai_seat_indexes
    transaction.on_commit(lambda: (realtime.announce_version(game.pk, game.version), ask_ai_seats(game)))


def _resigned_rank_last(game: Game, result: dict | None) -> dict | None:
    """The engine's result with the players who resigned ranked last (``ranking.resigned_rank_last``):
    what ``Game.result`` holds, and every page, rating, standing and e-mail reads."""
    if not result or "ranks" not in result:
        return result
    resigned: dict = {}
    for index, when in game.seats.filter(resigned_at__isnull=False).order_by("resigned_at", "index") \
            .values_list("index", "resigned_at"):
        resigned.setdefault(when, []).append(index)
    return ranking.resigned_rank_last(result, list(resigned.values())) if resigned else result


# --- small helpers --------------------------------------------------------------------------


def lock_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound(_("There is no such game.")) from None


def _users_seat(game: Game, user, seat: int | None, seat_rows: list[tuple] | None = None) -> int:
    """The user's seat in a locked game, from one read of its seats (``seat_rows``: read with
    the lock by ``_lock_with_seats``, which also says whether the move is already in:
    ``game.move_repeated``)."""
    if user is None or not user.is_authenticated:
        raise NotYourSeat(_("Log in to play."))
    if seat_rows is None:
        seat_rows = _read_seats(game, user)
    game.move_repeated = any(repeated for *_seat, repeated in seat_rows)
    rows = [row[:5] for row in seat_rows]
    game._ai_seat_indexes = {index for index, _user, ai, standin, _resigned in rows if ai or standin}  # one query serves both
    # What the move's other checks need of the seats, from the same read (under the row lock).
    game._seat_rows = {index: (standin, resigned) for index, _user, _ai, standin, resigned in rows}
    # Who held each seat under the lock, and at which revision: the mover's answer may then be
    # drawn from the seats the view read before (selectors.game_as_written).
    game.seats_under_lock = ({index: rest for index, *rest in rows}, game.revision)
    mine = [index for index, user_id, *_rest in rows if user_id == user.pk]
    if not mine:
        raise NotYourSeat(_("You are not playing in this game."))
    if seat is None:
        return mine[0]
    if seat not in mine:
        raise NotYourSeat(_("That seat is not yours."))
    return seat


# The seats of a locked game and, in the user's row, whether the move is a repeat: the same
# move (payload) by the user's seat stored after the version its client saw, so the client
# sends it again without having seen it land (a double click, a retry after a lost answer),
# and it is answered without a second event. A deliberate repeat, such as buying a second
# card, comes from a page that shows the first, so its version is past it.
# One statement, in SQL of its own: under the game's lock every round trip and every
# millisecond is time the other seats of a large round wait, and the ORM's two queries (or one
# with a subquery annotation) cost more of both.
_SEATS_WITH_REPEAT = """SELECT seat."index", seat."user_id", seat."ai_level", seat."standin_level", seat."resigned_at",
       CASE WHEN seat."user_id" = %(user)s THEN EXISTS (
           SELECT 1 FROM "{events}" event
           WHERE event."game_id" = seat."game_id" AND event."seat" = seat."index" AND event."kind" = %(kind)s
             AND event."seq" > {since} AND event."payload" = %(move)s::jsonb
       ) ELSE false END
FROM "{seats}" seat WHERE seat."game_id" = %(game)s ORDER BY seat."index"
"""
# The version after which a stored move counts as a repeat: the one the client saw, never past
# the game's (a NULL, when the client named none, is the game's: LEAST ignores it).
_SINCE = 'LEAST(%(since)s::bigint, (SELECT game."version" FROM "{games}" game WHERE game."id" = %(game)s))'


def _read_seats(game: Game, user) -> list[tuple]:
    """(index, user_id, ai_level, standin_level, resigned_at, repeated) per seat, by index, of a
    locked game, for a write that is not a move (``repeated`` is then false)."""
    statement = _SEATS_WITH_REPEAT.format(events=MoveEvent._meta.db_table, seats=Seat._meta.db_table, since="%(since)s")
    with connections[router.db_for_write(Seat)].cursor() as cursor:
        cursor.execute(statement, {"user": user.pk, "kind": MoveEvent.Kind.MOVE, "since": game.version,
                                   "move": json.dumps(None), "game": game.pk})
        return cursor.fetchall()


@functools.cache
def _lock_with_seats_statement() -> str:
    game = rows.columns(Game, "locked")
    return (f'SELECT {game.sql} FROM "{Game._meta.db_table}" locked WHERE locked."id" = %(game)s FOR UPDATE; '
            + _SEATS_WITH_REPEAT.format(events=MoveEvent._meta.db_table, seats=Seat._meta.db_table,
                                        since=_SINCE.format(games=Game._meta.db_table)))


def _as_stored(move: Any) -> str:
    """The move's JSON, as the repeat check compares it with stored moves; ``null`` (which no
    stored move is) when it could not be stored: the checks after the lock refuse it in words."""
    try:
        text = json.dumps(move, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return "null"
    return "null" if "\\u0000" in text else text  # PostgreSQL's JSON holds no NUL


def _lock_with_seats(game_id: int, user, move: dict, expected_version: Any) -> tuple[Game, list[tuple]]:
    """``lock_game``, then the seats with the check for a repeat of ``move`` sent at
    ``expected_version`` (``_SEATS_WITH_REPEAT``), in one round trip: the first two statements
    of a move, which every other move of the game waits for."""
    since = expected_version if _is_version(expected_version) and abs(expected_version) < 2**62 else None
    with connections[router.db_for_write(Game)].cursor() as cursor:
        cursor.execute(_lock_with_seats_statement(), {
            "user": getattr(user, "pk", None), "kind": MoveEvent.Kind.MOVE, "since": since,
            "move": _as_stored(move), "game": int(game_id)})
        row = cursor.fetchone()
        cursor.nextset()
        seats = cursor.fetchall()
    if row is None:
        raise GameNotFound(_("There is no such game."))
    return rows.columns(Game, "locked").instance(row), seats


def _check_active(game: Game) -> None:
    if game.status == Game.Status.OPEN:
        raise GameNotActive(_("This game has not started yet."))
    if game.status == Game.Status.PAUSED:
        raise GameNotActive(_("This game is paused by its organiser; moves are accepted again when it resumes."))
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(_("This game is over."))
