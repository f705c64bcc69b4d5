"""Celery tasks of leagues: thin wrappers around their services."""
from celery import shared_task

from games.leagues import services


@shared_task(name="games.tasks.start_due_leagues")
def start_due_leagues() -> int:
    return services.start_due_leagues()
