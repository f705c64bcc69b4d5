"""Hexland's writes: opening a room and changing its settings (seats and the start go through
the platform's lifecycle services)."""
from __future__ import annotations

from django.db import transaction
from django.utils import translation

from games import services
from games.hexland.engine import KIND
from games.models import Game, Seat


def open_room(*, host, title: str, visibility: str, config: dict, ai_seats: dict[int, str],
              turn_seconds: int) -> Game:
    """A room with the host in the first seat; it starts by itself if the AI fills the rest."""
    with transaction.atomic():
        game = services.create_game(kind=KIND, config=config, created_by=host, title=title,
                                    visibility=visibility, turn_seconds=turn_seconds, ai_seats=ai_seats)
        if not game.seats.filter(user__isnull=True, ai_level="").exists():
            services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def change_settings(*, game_id: int, by_user, config: dict, turn_seconds: int) -> Game:
    current = Game.objects.filter(pk=game_id).values_list("config", flat=True).first() or {}
    keep = {key: current[key] for key in ("names",) if key in current}
    return services.update_settings(game_id=game_id, by_user=by_user, config={**config, **keep},
                                    turn_seconds=turn_seconds)


def config_at_start(config: dict, seats: list[Seat]) -> dict:
    """Players are named in the log by their seat's label; an AI seat's in English, whatever
    language the request that starts the room speaks (pages show it in their reader's: names.py)."""
    with translation.override("en"):
        return {**config, "players": len(seats), "names": [seat.label for seat in seats]}
