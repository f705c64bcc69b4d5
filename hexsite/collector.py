"""The cyclic garbage collector in the serving processes (page workers, socket Daphnes, Celery
workers).

A serving process holds some 145,000 objects made as it starts (Django, the libraries, the URL
patterns and views, the engines' tables) that live as long as it does. Python's collector walks
every object it tracks at each full collection, and every thread of the process waits
meanwhile: under `make load` each process made 5-6 full collections in a run, pauses of up to
450 ms. ``gc.freeze()`` once started moves what start-up made to a permanent generation that
collections leave alone, so a full collection walks only what the process made since. Only what
the process made to start, which it keeps anyway, is frozen.

Python's thresholds are kept: larger ones were measured worse (docs/deployment.md, "The
collector"). ``GC_THRESHOLDS`` sets others, for measuring.
"""
from __future__ import annotations

import gc
import os
import sys
import time


def tune_collector() -> None:
    """Load what a first request would (the URL patterns, with every view and what they
    import), collect what loading left over, freeze the rest, and set the thresholds."""
    from django.conf import settings
    from django.urls import get_resolver

    if settings.GC_FREEZE:
        get_resolver().url_patterns  # noqa: B018  (imports every view module)
        gc.collect()
        gc.freeze()
    if settings.GC_THRESHOLDS:
        gc.set_threshold(*settings.GC_THRESHOLDS)
    if os.environ.get("HEXSITE_GC_LOG"):
        _log_collections()


def _log_collections() -> None:
    """For measuring (HEXSITE_GC_LOG=1, as `make load` sets it): this process's time in the
    collector so far, after each collection (benchmarks/load.py reads each process's last line).
    Written to stderr as it is: a collection may start while this thread holds a logging lock."""
    totals = {"count": 0, "seconds": 0.0, "full": 0, "longest": 0.0}
    started = [0.0]

    def watch(phase: str, info: dict) -> None:
        if sys.is_finalizing():  # the collection at exit, when the process no longer serves
            return
        if phase == "start":
            started[0] = time.perf_counter()
            return
        took = time.perf_counter() - started[0]
        totals["count"] += 1
        totals["seconds"] += took
        totals["full"] += info["generation"] == 2
        totals["longest"] = max(totals["longest"], took)
        line = (f"gc pid {os.getpid()}: {totals['count']} collections ({totals['full']} full), "
                f"{totals['seconds'] * 1000:.1f} ms in all, longest {totals['longest'] * 1000:.1f} ms, "
                f"{gc.get_freeze_count()} frozen\n")
        os.write(2, line.encode())

    gc.callbacks.append(watch)
