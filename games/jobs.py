"""Queueing Celery tasks by name, so services never import the task modules (which import
services): the edges depend on services, never the other way round."""
from __future__ import annotations

import logging
from datetime import datetime

from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

from hexsite.celery import app

logger = logging.getLogger(__name__)


def enqueue(task_name: str, *args, countdown: float | None = None, eta: datetime | None = None) -> bool:
    """Queue a task; False when the broker (Redis) cannot take it.

    Tasks are queued after a commit, so a lost one never undoes a move: the beat sweeps find
    what it would have done (a passed deadline, an AI seat owed a move). The caller's request
    still succeeds."""
    try:
        app.send_task(task_name, args=args, countdown=countdown, eta=eta)
    except (OperationalError, RedisError, OSError) as error:
        logger.warning("task %s%r not queued, the broker is unavailable (%s); the sweeps will catch up",
                       task_name, args, error)
        return False
    return True
