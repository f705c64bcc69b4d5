"""Platform events other apps listen to, so the platform never calls a feature by name."""
from django.dispatch import Signal

# Sent once a finished game's follow-ups run (a Celery task), with ``game``. Receivers are
# each game's after-game steps, ratings, leagues and result e-mails; one failing receiver is
# logged and does not stop the others (``send_robust``).
game_finished = Signal()
