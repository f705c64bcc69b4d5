"""How soon a waiting thread gets the interpreter in a page process.

A page process runs gunicorn's threads, and Python runs one of them at a time. A thread whose
answer from PostgreSQL or Redis has come waits until the running one gives the interpreter up,
which a thread that is drawing a page does only every ``sys.getswitchinterval()`` (5 ms by
default). A move makes about ten round trips, each followed by such a wait behind whatever is
being drawn, and it holds the game's row lock through most of them, so every other move of that
game waits too. A shorter interval lets the move on sooner, at the price of more switches
between the drawing threads. The sockets' Daphne keeps Python's interval: its threads all draw,
and there the extra switches cost more than they gave (measured in docs/performance-log.md,
"Threads take turns sooner").
"""
from __future__ import annotations

import sys

from django.conf import settings


def take_turns_sooner() -> None:
    """Apply ``SWITCH_INTERVAL_SECONDS`` to this process (the WSGI entry point: the page processes)."""
    sys.setswitchinterval(settings.SWITCH_INTERVAL_SECONDS)
