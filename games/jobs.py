"""Queueing Celery tasks by name, so services never import the task modules (which import
services): the edges depend on services, never the other way round."""
from __future__ import annotations

from datetime import datetime

from hexsite.celery import app


def enqueue(task_name: str, *args, countdown: float | None = None, eta: datetime | None = None) -> None:
    app.send_task(task_name, args=args, countdown=countdown, eta=eta)
