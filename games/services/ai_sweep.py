"""Asking again the AI seats a game has waited for too long.

An AI move is a Celery task queued after a commit; a broker outage, a worker crash or a lost
message would leave the seat owed a move for ever. Beat runs this sweep, so every owed AI move
is asked again however it was missed (the task's version guard makes a repeat harmless)."""
from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Max, Q
from django.utils import timezone

from games.models import Game
from games.services.moves import ask_ai_seats


def owed_after() -> timedelta:
    return timedelta(seconds=settings.GAME_AI_OWED_SECONDS)


def sweep_owed_ai_moves(now: datetime | None = None) -> int:
    """Queue the move of every AI seat awaited since before ``now - owed_after()``; returns the
    number of seats asked."""
    now = now or timezone.now()
    asked = 0
    played_by_ai = Q(seats__ai_level__gt="") | Q(seats__standin_level__gt="")
    games = (Game.objects.filter(played_by_ai, status=Game.Status.ACTIVE).distinct()
             .annotate(last_event_at=Max("events__created_at")))
    for game in games:
        owed = set(game.awaiting) & game.ai_seat_indexes()
        waiting_since = game.last_event_at or game.started_at
        if owed and waiting_since is not None and waiting_since <= now - owed_after():
            ask_ai_seats(game)
            asked += len(owed)
    return asked
