import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexsite.settings")
application = get_wsgi_application()

from hexsite.collector import tune_collector  # noqa: E402  (needs Django set up)
from hexsite.switching import take_turns_sooner  # noqa: E402

take_turns_sooner()
tune_collector()
