"""Clocks: how long the current turn or phase may last, when it runs out, pausing.

The engine says what the running clock belongs to (``clock_key``) and how long the phase may
last (``seconds_for``). A new key starts a new clock; a key that interrupted another (a
discard inside a turn) hands the time back when play returns to the interrupted key, so a
discard or a trade answer never restarts the mover's clock. ``Game.clock`` keeps the key and
the one interrupted clock.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.models import Game
from games.protocol import Engine


def refresh_turn(game: Game, engine: Engine, state: Any, *, turn_changed: bool, restart: bool = False,
                 now: datetime | None = None) -> None:
    """Bring ``awaiting``, the turn's start and the clock up to date with ``state``.

    ``restart``: start the clock afresh even if its key is unchanged (after timeouts, or the
    same seat would be due again at once)."""
    game.awaiting = engine.waiting_for(state)
    if turn_changed:
        game.turn_started_version = game.version
    clock = dict(game.clock or {})
    key = engine.clock_key(state)
    # Games from before per-phase clocks have no key yet: their turns decide, as they did.
    changed = key != clock["key"] if "key" in clock else turn_changed
    if not (changed or restart):
        game.clock = {**clock, "key": key}
        return
    now = now or timezone.now()
    suspended = clock.get("suspended")
    if changed and suspended and suspended.get("key") == key:
        remaining: timedelta | None = timedelta(seconds=suspended["remaining"])
        suspended = None
    else:
        if changed and clock.get("key") is not None and game.deadline_at is not None:
            suspended = {"key": clock["key"], "remaining": max((game.deadline_at - now).total_seconds(), 0.0)}
        seconds = engine.seconds_for(state, game.config, game.turn_seconds)
        remaining = timedelta(seconds=seconds) if seconds else None
    game.clock = {"key": key, "suspended": suspended}
    set_clock(game, remaining, now=now)


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


def is_short(game: Game, now: datetime | None = None) -> bool:
    """A clock short enough for a Celery countdown task as well as the sweeper."""
    if game.deadline_at is None:
        return False
    left = (game.deadline_at - (now or timezone.now())).total_seconds()
    return left <= settings.GAME_SHORT_TIMER_SECONDS


def pause_clock(game: Game, now: datetime) -> None:
    """Stop a locked, active game's clock, keeping the time it had left (remind_at stays: the
    sweeps look at active games only)."""
    game.paused_remaining = max(game.deadline_at - now, timedelta(0)) if game.deadline_at else None
    game.status, game.deadline_at = Game.Status.PAUSED, None


def resume_clock(game: Game, now: datetime) -> None:
    """Give a locked, paused game back the time it had left."""
    game.status = Game.Status.ACTIVE
    set_clock(game, game.paused_remaining, now=now, remind=game.remind_at is not None)
    game.paused_remaining = None
