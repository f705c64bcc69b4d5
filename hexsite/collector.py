"""Python's cyclic garbage collector in the serving processes (page workers, socket Daphnes,
Celery workers): measured, and left as Python has it.

A full collection walks every object a process tracks, and every thread of the process waits
meanwhile: under `make load` each serving process made 5-6 full collections in a run, pauses of
up to 450 ms, 1.0-2.5 s in all. Three changes were measured against that and each was worse
somewhere (docs/performance-log.md, "The collector"), so none is on:

- ``GC_FREEZE=1``: ``gc.freeze()`` once started, so that collections leave what start-up made
  alone. Python then counts only what was made since as long-lived, and a full collection is
  due once that grows by a quarter: at 100 seats the sockets' process made 17 in a run;
- ``GC_THRESHOLDS=50000,20,100`` (with the freeze): fewer, longer young collections, 40-250 ms each;
- ``GC_THRESHOLDS=700,10,100`` (with the freeze): the cycles that reach the oldest generation
  (a game read with its seats) waited for a rare full collection: 40 MiB more per process, and
  that collection took 300 ms.

``HEXSITE_GC_LOG=1`` (which `make load` sets) writes each process's time in the collector.
"""
from __future__ import annotations

import gc
import os
import sys
import time


def tune_collector() -> None:
    """As the settings say (by default nothing but the log, when asked for): load what a first
    request would (the URL patterns, with every view and what they import), collect what loading
    left over and freeze the rest; set the thresholds."""
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
