"""Running the same call from several threads at once, each with its own database connection."""
from __future__ import annotations

import threading
from typing import Any, Callable


def run_at_once(call: Callable[[], Any], times: int = 2) -> list[Any]:
    """Start ``times`` threads that call ``call`` together; return what each returned or raised."""
    return run_together(*[call] * times)


def run_together(*calls: Callable[[], Any]) -> list[Any]:
    """Start one thread per call, all released at once; return what each returned or raised."""
    from django.db import connection

    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = []

    def worker(call):
        try:
            barrier.wait()
            outcomes.append(call())
        except Exception as error:  # the caller asserts on it
            outcomes.append(error)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=worker, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes
