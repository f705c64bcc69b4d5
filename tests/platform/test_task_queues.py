"""Every task reaches a queue some process consumes, and the play queue is nobody else's."""
import re
from pathlib import Path

from django.conf import settings

from hexsite.celery import QUEUES, app

ROOT = Path(__file__).resolve().parents[2]


def procfile_queues() -> dict[str, set[str]]:
    """The queues each Procfile worker line consumes (-Q a,b), by process name."""
    found = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        name, _, command = line.partition(":")
        if " worker " in command:
            queues = re.search(r"-Q (\S+)", command)
            assert queues, f"Procfile worker {name!r} names no queue: it would consume only the default"
            found[name] = set(queues.group(1).split(","))
    return found


def test_every_task_is_routed_to_a_queue_a_procfile_worker_consumes():
    consumed = set().union(*procfile_queues().values())
    for name in app.tasks.keys():
        if name.startswith("celery."):
            continue
        queue = app.amqp.router.route({}, name)["queue"].name
        assert queue in consumed, f"{name} goes to {queue!r}, which no Procfile worker consumes"
        assert queue in QUEUES, f"{name} goes to {queue!r}, missing from hexsite.celery.QUEUES"


def test_ai_moves_and_timers_have_workers_of_their_own():
    routes = settings.CELERY_TASK_ROUTES
    assert routes["games.tasks.play_ai_move"]["queue"] == routes["games.tasks.apply_timeouts"]["queue"] == "play"
    for name, queues in procfile_queues().items():
        if "play" in queues:
            assert queues == {"play"}, f"Procfile {name!r} shares the play queue's workers with {queues - {'play'}}"
    assert routes["games.tasks.compute_daily_par"]["queue"] == "solver"
