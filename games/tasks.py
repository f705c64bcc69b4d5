"""Celery tasks: thin wrappers around services, each guarded by the version it was made for."""
from celery import shared_task

from games import services


@shared_task(name="games.tasks.apply_timeouts")
def apply_timeouts(game_id: int, expected_version: int) -> int:
    """A turn timer: does nothing when the game has moved on since it was set."""
    return services.apply_timeouts(game_id=game_id, expected_version=expected_version)


@shared_task(name="games.tasks.play_ai_move")
def play_ai_move(game_id: int, expected_version: int, seat: int) -> bool:
    return services.play_ai_move(game_id=game_id, expected_version=expected_version, seat=seat)


@shared_task(name="games.tasks.sweep_deadlines")
def sweep_deadlines() -> int:
    """Run by beat: every game whose deadline has passed gets its timeouts, once."""
    return services.sweep_deadlines()
