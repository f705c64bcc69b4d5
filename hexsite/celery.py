"""The Celery app: Redis broker, tasks discovered in each app's ``tasks`` module."""
import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexsite.settings")

app = Celery("hexsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Every queue CELERY_TASK_ROUTES names, and the default; a worker started for tests or a
# one-process set-up consumes them all.
QUEUES = ("play", "celery", "solver")


@worker_process_init.connect
def warm_up_bots(**_kwargs) -> None:
    """Each worker process (the solo pool's one, or every prefork child) compiles or loads the
    bots before its first task: a compiling bot would otherwise hold a game's row lock, and the
    deadline sweep behind it, for the length of a JIT compile."""
    from games.sites import warm_up_bots
    from hexsite.collector import tune_collector

    warm_up_bots()
    tune_collector()  # after the bots, so that a freeze (GC_FREEZE) takes their tables too
