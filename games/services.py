"""Use cases of the game platform: the only code that writes games, seats and events.

Every write of a move follows one path (``_append_events``): lock the game row, rebuild the
state, let the engine check and apply, append the events with consecutive ``seq``, bump
``version``; after commit, cache the new state, announce the version to the game's channel
group and schedule what comes next (AI moves, a short turn timer).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Iterable

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import bots, realtime, state_store
from games.engines import IllegalMove, get_engine
from games.errors import BadMove, GameNotActive, GameNotFound, NotYourSeat, StaleVersion
from games.models import Game, MoveEvent, Seat

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Progress:
    """What one write did, for what follows it (notifications, the next league game)."""

    turn_changed: bool
    timed_out: tuple[int, ...] = ()
    finished: bool = False


@dataclass(frozen=True)
class Applied:
    """The outcome of a write: the game row as committed and the state it now has."""

    game: Game
    state: Any


# --- creating and starting -------------------------------------------------------------


@transaction.atomic
def create_game(
    *,
    kind: str,
    config: dict,
    created_by=None,
    title: str = "",
    visibility: str = Game.Visibility.PUBLIC,
    turn_seconds: int | None = None,
    ai_seats: dict[int, str] | None = None,
    join: bool = True,
    players: list | None = None,
    **placement,
) -> Game:
    """Open a game with one seat per player: ``players`` (users, in seat order) fill the first
    seats, ``ai_seats`` map seats to AI levels, and the creator takes the first free one.
    ``placement`` sets where the game belongs: ``league`` and ``season_index``, or ``daily``
    (whose shuffle it then plays)."""
    engine = get_engine(kind)
    try:
        seat_count = engine.seat_count(config)
        engine.new_state(config, 0)  # refuses a bad config before anything is written
    except (ValueError, TypeError, IllegalMove) as exc:
        raise BadMove(f"These game settings cannot be used: {exc}") from exc
    daily = placement.get("daily")
    if daily is not None:
        placement["seed"] = daily.seed
    game = Game.objects.create(
        kind=kind, config=config, created_by=created_by, title=title, visibility=visibility,
        turn_seconds=turn_seconds, **placement,
    )
    ai_seats, players = ai_seats or {}, players or []
    Seat.objects.bulk_create(
        Seat(game=game, index=i, user=players[i] if i < len(players) else None, ai_level=ai_seats.get(i, ""))
        for i in range(seat_count)
    )
    if join and created_by is not None:
        _take_free_seat(game, created_by)
    return game


def _take_free_seat(game: Game, user) -> Seat:
    seat = game.seats.select_for_update().filter(user__isnull=True, ai_level="").order_by("index").first()
    if seat is None:
        raise GameNotActive("This game is full.")
    seat.user = user
    seat.save(update_fields=["user"])
    return seat


def join_game(*, game_id: int, user) -> Seat:
    """Take the first free seat; the game starts by itself when the last seat is taken."""
    with transaction.atomic():
        game = _lock_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameNotActive("This game has already started.")
        if game.seats.filter(user=user).exists():
            raise GameNotActive("You are already playing in this game.")
        seat = _take_free_seat(game, user)
        full = not game.seats.filter(user__isnull=True, ai_level="").exists()
    if full:
        start_game(game_id=game_id)
    return seat


def start_game(*, game_id: int, by_user=None) -> Game:
    """Start an open game. Its creator may start it before it is full: the empty seats are
    dropped when the engine allows that many players; it starts by itself once full."""
    with transaction.atomic():
        game = _lock_game(game_id)
        if by_user is not None and game.created_by_id != by_user.pk:
            raise NotYourSeat("Only the player who opened this game can start it.")
        if game.status != Game.Status.OPEN:
            raise GameNotActive("This game has already started.")
        engine = get_engine(game.kind)
        if game.seats.filter(user__isnull=True, ai_level="").exists():
            if by_user is None:
                raise GameNotActive("Every seat must be taken (by a player or an AI) before the game starts.")
            _drop_empty_seats(game, engine)
        state = engine.new_state(game.config, game.seed)
        game.status = Game.Status.ACTIVE
        game.started_at = timezone.now()
        _refresh_turn(game, engine, state, turn_changed=True)
        game.save()
        transaction.on_commit(lambda: _after_commit(game, state, Progress(turn_changed=True)))
    return game


def _drop_empty_seats(game: Game, engine) -> None:
    """Close the gaps left by empty seats and tell the engine how many players there are."""
    taken = list(game.seats.exclude(user__isnull=True, ai_level="").order_by("index"))
    config = {**game.config, "players": len(taken)}
    try:
        engine.new_state(config, 0)
    except (ValueError, TypeError, IllegalMove):
        raise GameNotActive(f"This game cannot start with {len(taken)} player{'s' if len(taken) != 1 else ''}; "
                            "wait for more to join.") from None
    game.seats.filter(user__isnull=True, ai_level="").delete()
    for new_index, seat in enumerate(taken):  # two steps: indexes are unique per game
        Seat.objects.filter(pk=seat.pk).update(index=1000 + new_index)
    for new_index, seat in enumerate(taken):
        Seat.objects.filter(pk=seat.pk).update(index=new_index)
    game.config = config


# --- moves ----------------------------------------------------------------------------------


def submit_move(*, game_id: int, user, move: Any, expected_version: int, seat: int | None = None) -> Applied:
    """A player's move. Refusals raise a GameError (404, 403, 409 or 400) and write nothing."""
    if not isinstance(move, dict):
        raise BadMove("A move must be a JSON object with a type.")
    with transaction.atomic():
        game = _lock_game(game_id)
        seat_index = _users_seat(game, user, seat)
        _check_active(game)
        engine = get_engine(game.kind)
        if not _is_current(game, engine, expected_version):
            raise StaleVersion()
        state = state_store.load(game)
        if seat_index not in engine.actors(state):
            raise BadMove("It is not your turn.")
        state = _append_events(game, engine, state, [(seat_index, MoveEvent.Kind.MOVE, move)], user=user)
    return Applied(game, state)


def undo_last_move(*, game_id: int, user, expected_version: int) -> Applied:
    """Take back the player's latest move, as an event (nothing is deleted). Casual solo games only."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = _users_seat(game, user, None)
        _check_active(game)
        if not game.config.get("undo", False) or game.daily_id:
            raise BadMove("Undo is not allowed in this game.")
        if expected_version != game.version:
            raise StaleVersion()
        effective = state_store.effective_events(game)
        if not effective:
            raise BadMove("There is no move to undo.")
        engine = get_engine(game.kind)
        state = state_store.replay_events(game, effective[:-1])
        MoveEvent.objects.create(game=game, seq=game.version + 1, seat=seat, kind=MoveEvent.Kind.UNDO, created_by=user)
        game.version += 1
        _refresh_turn(game, engine, state, turn_changed=False)
        game.save(update_fields=["version", "awaiting"])
        transaction.on_commit(lambda: _after_commit(game, state, Progress(turn_changed=False)))
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
    move = bots.choose_move(game.kind, engine.view(state_store.load(game), seat), seat_row.ai_level)
    with transaction.atomic():
        game = _lock_game(game_id)
        if not _ai_may_move(game, engine, expected_version, seat):
            return False
        _append_events(game, engine, state_store.load(game), [(seat, MoveEvent.Kind.AI, move)])
    return True


def _ai_may_move(game: Game, engine, expected_version: int, seat: int) -> bool:
    return game.status == Game.Status.ACTIVE and seat in game.awaiting and _is_current(game, engine, expected_version)


def apply_timeouts(*, game_id: int, expected_version: int | None = None, now: datetime | None = None) -> int:
    """Apply ``timeout_move`` for every seat the game waits for once its deadline has passed.

    Exactly once per turn: the row lock serialises sweepers and timers, and the deadline is
    re-read under the lock, so a second sweeper (late, repeated or concurrent) finds it moved.
    Returns the number of timeout events written.
    """
    now = now or timezone.now()
    with transaction.atomic():
        try:
            game = _lock_game(game_id)
        except GameNotFound:
            return 0
        if game.status != Game.Status.ACTIVE or game.deadline_at is None or game.deadline_at > now:
            return 0
        if expected_version is not None and game.version != expected_version:
            return 0
        engine = get_engine(game.kind)
        state = state_store.load(game)
        events = [(seat, MoveEvent.Kind.TIMEOUT, {}) for seat in game.awaiting]
        if not events:
            return 0
        version_before = game.version
        _append_events(game, engine, state, events, stop_when_turn_changes=True, now=now)
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


def _append_events(
    game: Game,
    engine,
    state: Any,
    events: Iterable[tuple[int | None, str, dict]],
    *,
    user=None,
    stop_when_turn_changes: bool = False,
    now: datetime | None = None,
) -> Any:
    """Apply and append events to a locked game; the caller holds the transaction."""
    turn_before = _turn_key(engine, state)
    rows = []
    for seat, kind, payload in events:
        if stop_when_turn_changes and rows and _turn_key(engine, state) != turn_before:
            break
        try:
            state = state_store.apply_event(engine, state, seat, kind, payload)
        except IllegalMove as exc:
            raise BadMove(str(exc)) from exc
        rows.append(
            MoveEvent(
                game=game, seq=game.version + len(rows) + 1, seat=seat, kind=kind, payload=payload, created_by=user
            )
        )
    MoveEvent.objects.bulk_create(rows)
    game.version += len(rows)
    turn_changed = _turn_key(engine, state) != turn_before
    finished = engine.is_over(state)
    if finished:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.result = engine.result(state)
        game.deadline_at = game.remind_at = None
        game.awaiting = []
    else:
        # After timeouts the clock restarts even if the engine kept the turn, or it would be due again at once.
        _refresh_turn(game, engine, state, turn_changed=turn_changed or stop_when_turn_changes, now=now)
    game.save(update_fields=["version", "turn_started_version", "status", "finished_at", "result", "deadline_at",
                             "remind_at", "awaiting"])
    timed_out = tuple(row.seat for row in rows if row.kind == MoveEvent.Kind.TIMEOUT)
    progress = Progress(turn_changed=turn_changed and not finished, timed_out=timed_out, finished=finished)
    transaction.on_commit(lambda: _after_commit(game, state, progress))
    return state


def _is_current(game: Game, engine, expected_version: Any) -> bool:
    """Was the client's view made at the current version? In engines where every seat acts at
    once (``SIMULTANEOUS_TURNS``), a view from earlier in the same round is current enough:
    other seats' submissions change nothing a seat decides on."""
    if not isinstance(expected_version, int):
        return False
    if expected_version == game.version:
        return True
    return getattr(engine, "SIMULTANEOUS_TURNS", False) and game.turn_started_version <= expected_version <= game.version


def _turn_key(engine, state: Any) -> Any:
    """What identifies a turn for the clock: an engine may say (``turn_key``), else who acts."""
    turn_key = getattr(engine, "turn_key", None)
    return turn_key(state) if turn_key else frozenset(engine.actors(state))


def _waiting_for(engine, state: Any) -> list[int]:
    waiting_for = getattr(engine, "waiting_for", None)
    return sorted(waiting_for(state) if waiting_for else engine.actors(state))


def _refresh_turn(game: Game, engine, state: Any, *, turn_changed: bool, now: datetime | None = None) -> None:
    game.awaiting = _waiting_for(engine, state)
    if turn_changed:
        game.turn_started_version = game.version
        set_clock(game, timedelta(seconds=game.turn_seconds) if game.turn_seconds else None, now=now)


def set_clock(game: Game, remaining: timedelta | None, *, now: datetime | None = None, remind: bool = True) -> None:
    """Start the clock with ``remaining`` time (None: no clock). Correspondence games get a
    reminder at 80% of it, unless ``remind`` is off (this turn's reminder already went out)."""
    start = now or timezone.now()
    game.deadline_at = start + remaining if remaining is not None else None
    game.remind_at = None
    if remaining is not None and remind and is_correspondence(game):
        game.remind_at = game.deadline_at - remaining / 5


def is_correspondence(game: Game) -> bool:
    """Games with turns of an hour or more are played by correspondence: they send e-mail."""
    return bool(game.turn_seconds and game.turn_seconds >= settings.GAME_CORRESPONDENCE_SECONDS)


def schedule_ai_moves(game_id: int) -> None:
    """Ask the AI seats the game is waiting for to move (a seat handed to the AI, a resume)."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
    if game is not None:
        _ask_ai_seats(game)


def _ask_ai_seats(game: Game) -> None:
    from games import tasks

    for seat in sorted(set(game.awaiting) & game.ai_seat_indexes()):
        tasks.play_ai_move.apply_async((game.pk, game.version, seat), countdown=settings.GAME_AI_DELAY_SECONDS)


def _after_commit(game: Game, state: Any, progress: Progress) -> None:
    from games import tasks  # tasks import services

    state_store.remember(game, game.version, state)
    realtime.announce_version(game.pk, game.version)
    if progress.finished:
        tasks.game_finished.delay(game.pk)
    elif is_correspondence(game) and (progress.turn_changed or progress.timed_out):
        tasks.notify_progress.delay(game.pk, game.version, progress.turn_changed, list(progress.timed_out))
    if game.status != Game.Status.ACTIVE:
        return
    # In simultaneous rounds an AI seat is asked once per round; otherwise after every move.
    if progress.turn_changed or not getattr(get_engine(game.kind), "SIMULTANEOUS_TURNS", False):
        _ask_ai_seats(game)
    if game.deadline_at and game.turn_seconds and game.turn_seconds <= settings.GAME_SHORT_TIMER_SECONDS:
        tasks.apply_timeouts.apply_async((game.pk, game.version), eta=game.deadline_at)


# --- small helpers --------------------------------------------------------------------------


def _lock_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound("There is no such game.") from None


def _users_seat(game: Game, user, seat: int | None) -> int:
    if user is None or not user.is_authenticated:
        raise NotYourSeat("Log in to play.")
    rows = list(game.seats.values_list("index", "user_id", "ai_level"))
    game._ai_seat_indexes = {index for index, _, ai_level in rows if ai_level}  # one query serves both
    mine = [index for index, user_id, _ in rows if user_id == user.pk]
    if not mine:
        raise NotYourSeat("You are not playing in this game.")
    if seat is None:
        return mine[0]
    if seat not in mine:
        raise NotYourSeat("That seat is not yours.")
    return seat


def _check_active(game: Game) -> None:
    if game.status == Game.Status.OPEN:
        raise GameNotActive("This game has not started yet.")
    if game.status == Game.Status.PAUSED:
        raise GameNotActive("This game is paused by its organiser; moves are accepted again when it resumes.")
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive("This game is over.")


# --- after the moves: reminders, notifications, the end of a game ---------------------------


def send_due_reminders(now: datetime | None = None) -> int:
    """E-mail those who have not moved once 80% of a correspondence turn has passed, once."""
    from games import notifications

    now = now or timezone.now()
    due = Game.objects.filter(status=Game.Status.ACTIVE, remind_at__lte=now).values_list("pk", flat=True)

    def remind(game_id: int) -> int:
        with transaction.atomic():
            game = _lock_game(game_id)
            if game.status != Game.Status.ACTIVE or game.remind_at is None or game.remind_at > now:
                return 0
            game.remind_at = None
            game.save(update_fields=["remind_at"])
            transaction.on_commit(lambda: notifications.reminder(game))
            return 1

    return _each_game(due, remind, "reminders")


def notify_progress(*, game_id: int, turn_changed: bool, timed_out: list[int]) -> None:
    from games import notifications

    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return
    if timed_out:
        notifications.nmr_applied(game, timed_out)
    if turn_changed and game.status == Game.Status.ACTIVE:
        notifications.round_opened(game, _turn_label(game))


def _turn_label(game: Game) -> str:
    view = get_engine(game.kind).view(state_store.load(game), None)
    if "round" in view and "rounds" in view:
        return f"Round {view['round']} of {view['rounds']}"
    return "A new turn"


def game_finished(*, game_id: int) -> None:
    """What follows the end of a game: ratings and hindsight (each once), the next league game,
    the result e-mails."""
    from games import analysis, leagues, notifications, ratings

    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return
    steps = [ratings.rate_game, analysis.analyse_game]
    if game.league_id:
        steps.append(leagues.after_league_game)
    if is_correspondence(game):
        steps.append(notifications.game_finished)
    for step in steps:  # one failing step must not stop the next league game from opening
        try:
            step(game)
        except Exception:
            logger.exception("%s failed for finished game %s", step.__qualname__, game.pk)
    realtime.announce_version(game.pk, game.version)  # the hindsight figures are in
