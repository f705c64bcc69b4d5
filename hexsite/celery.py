"""The Celery app: Redis broker, tasks discovered in each app's ``tasks`` module."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexsite.settings")

app = Celery("hexsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
