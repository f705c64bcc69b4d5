"""Celery tasks of Hextremadura: thin wrappers around its services."""
from celery import shared_task

from games.hextremadura import services


@shared_task(name="games.tasks.compute_daily_par")
def compute_daily_par(puzzle_id: int) -> int | None:
    return services.compute_par(puzzle_id)


@shared_task(name="games.tasks.compute_casual_par")
def compute_casual_par(game_id: int) -> int | None:
    return services.compute_casual_par(game_id)
