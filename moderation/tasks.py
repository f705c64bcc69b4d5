"""Beat's moderation chores: thin wrappers around the services (names are stable)."""
from celery import shared_task

from moderation import flags, services


@shared_task(name="moderation.tasks.compute_flags")
def compute_flags() -> int:
    return flags.compute_flags()


@shared_task(name="moderation.tasks.reopen_ended_suspensions")
def reopen_ended_suspensions() -> int:
    return services.reopen_ended_suspensions()
