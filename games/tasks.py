"""Celery tasks of the platform: thin wrappers around services. Those that act on a game's
turn carry the version (a turn timer: the deadline) they were made for and do nothing once the
game has moved on.
(Task names are stable: queued tasks outlive a deploy.)"""
from celery import shared_task
from django.utils.dateparse import parse_datetime

from games import services
from games.services import notifications


@shared_task(name="games.tasks.apply_timeouts")
def apply_timeouts(game_id: int, expected_version: int | None = None, deadline: str | None = None) -> int:
    """A turn timer, set for one deadline: does nothing once the clock was set again (timers
    queued by an earlier release carry the version instead, and do nothing once the game moved on)."""
    return services.apply_timeouts(game_id=game_id, expected_version=expected_version,
                                   deadline=parse_datetime(deadline) if deadline else None)


@shared_task(name="games.tasks.play_ai_move")
def play_ai_move(game_id: int, expected_version: int, seat: int) -> bool:
    return services.play_ai_move(game_id=game_id, expected_version=expected_version, seat=seat)


@shared_task(name="games.tasks.sweep_deadlines")
def sweep_deadlines() -> int:
    """Run by beat: every game whose deadline has passed gets its timeouts, once."""
    return services.sweep_deadlines()


@shared_task(name="games.tasks.sweep_owed_ai_moves")
def sweep_owed_ai_moves() -> int:
    """Run by beat: AI seats a game has waited for too long are asked again."""
    return services.sweep_owed_ai_moves()


@shared_task(name="games.tasks.send_reminders")
def send_reminders() -> int:
    return services.send_due_reminders()


@shared_task(name="games.tasks.notify_progress")
def notify_progress(game_id: int, version: int, turn_changed: bool, timed_out: list[int]) -> None:
    services.notify_progress(game_id=game_id, turn_changed=turn_changed, timed_out=timed_out)


@shared_task(name="games.tasks.game_finished")
def game_finished(game_id: int) -> None:
    services.game_finished(game_id=game_id)


@shared_task(name="games.tasks.send_daily_digests")
def send_daily_digests() -> int:
    return notifications.send_daily_digests()
