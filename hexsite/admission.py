"""Writes before pages: a move never queues behind the drawing of other people's pages.

A page process runs Python one thread at a time. When pages arrive faster than it draws them,
every request that comes in waits for a thread behind all of them, and once it has one it
shares the interpreter with every page being drawn: under a burst of page reads a move took
seconds (docs/performance-log.md, "Writes before pages").

So a process draws at most ``PAGE_SLOTS`` full pages at once (GET or HEAD that is not an htmx
request); the others wait here, holding a thread but no database connection and no interpreter
time. Everything else goes straight through: moves, chat, seats and every other write, and the
live page's own reads (htmx: regions a socket could not carry, a region's body), which a player
at the table is waiting for. The server has threads to spare for them (``hexsite.serve``,
``PAGE_THREADS``), so a write finds a thread and competes with at most ``PAGE_SLOTS`` drawings.

A page that waits longer than ``PAGE_WAIT_SECONDS`` is drawn anyway: the bound keeps a stuck
slot from holding pages for ever; it is not a time limit on anyone.
"""
from __future__ import annotations

import threading

from django.conf import settings

QUEUED_METHODS = frozenset({"GET", "HEAD"})


class PageAdmissionMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.slots = threading.BoundedSemaphore(settings.PAGE_SLOTS)

    def __call__(self, request):
        if not self.queued(request):
            return self.get_response(request)
        admitted = self.slots.acquire(timeout=settings.PAGE_WAIT_SECONDS)
        try:
            return self.get_response(request)
        finally:
            if admitted:
                self.slots.release()

    @staticmethod
    def queued(request) -> bool:
        """A full page: drawn in turn with the others. Writes and the live page's reads are not."""
        return request.method in QUEUED_METHODS and request.headers.get("HX-Request") != "true"
