"""Hexland's reads: the lobby."""
from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from games.hexland.engine import KIND
from games.models import Game


def open_rooms() -> QuerySet[Game]:
    """Public rooms waiting for players, with their seats counted."""
    return (Game.objects.filter(kind=KIND, status=Game.Status.OPEN, visibility=Game.Visibility.PUBLIC)
            .select_related("created_by")
            .annotate(seat_count=Count("seats"),
                      free_seats=Count("seats", filter=Q(seats__user__isnull=True, seats__ai_level="")))
            .order_by("-created_at"))


def rooms_of(user) -> QuerySet[Game]:
    """The rooms the user sits in that are not over."""
    return (Game.objects.filter(kind=KIND, seats__user=user, status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
            .select_related("created_by").order_by("-created_at"))
