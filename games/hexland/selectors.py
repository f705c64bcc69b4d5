"""Hexland's reads: the lobby."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from games.hexland.engine import KIND
from games.models import Game, Seat


def _public_rooms(*statuses: str) -> QuerySet[Game]:
    return (Game.objects.filter(kind=KIND, status__in=statuses, visibility=Game.Visibility.PUBLIC)
            .select_related("created_by")
            .annotate(seat_count=Count("seats"),
                      free_seats=Count("seats", filter=Q(seats__user__isnull=True, seats__ai_level=""))))


def open_rooms() -> QuerySet[Game]:
    """Public rooms with a seat free for a player, with their seats counted."""
    return _public_rooms(Game.Status.OPEN).filter(free_seats__gt=0).order_by("-created_at")


def rooms_to_watch() -> QuerySet[Game]:
    """Public rooms nobody can join, newest first: full ones waiting for their host to start and
    those being played (anyone signed in may watch them)."""
    return (_public_rooms(Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.PAUSED)
            .filter(Q(free_seats=0) | ~Q(status=Game.Status.OPEN))
            .order_by("-created_at"))


def rooms_of(user) -> QuerySet[Game]:
    """The rooms the user sits in that are not over."""
    return (Game.objects.filter(kind=KIND, seats__user=user, status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
            .select_related("created_by").order_by("-created_at"))


@dataclass(frozen=True)
class HexlandStats:
    games: int
    wins: int
    average_points: float | None
    best_points: int | None
    recent: list


def player_stats(user) -> HexlandStats:
    """A player's finished Hexland games: played, won (as the stored result says: never a game
    they resigned from), points (not of a game they resigned from: the AI made those)."""
    seats = list(Seat.objects.filter(user=user, game__kind=KIND, game__status=Game.Status.FINISHED)
                 .select_related("game").order_by("-game__finished_at"))
    points = [seat.game.result["scores"][seat.index] for seat in seats
              if seat.game.result and seat.resigned_at is None]
    wins = sum(1 for seat in seats if seat.game.result and seat.game.result.get("winner") == seat.index)
    return HexlandStats(games=len(seats), wins=wins,
                        average_points=sum(points) / len(points) if points else None,
                        best_points=max(points) if points else None,
                        recent=[seat.game for seat in seats[:10]])
