"""Logging filters named in ``LOGGING`` (hexsite/settings.py)."""
from __future__ import annotations

import logging

# The requests Django refuses with 400 before a view sees them, each logged by Django at ERROR on
# ``django.security.<exception>`` with the whole traceback. They are a client's doing, not the
# site's fault: one warning line each says all there is to know.
REFUSED_REQUEST_LOGGERS = tuple(f"django.security.{name}"
                                for name in ("RequestDataTooBig", "TooManyFieldsSent", "TooManyFilesSent"))


def _escaped(text: str) -> str:
    """A client's text on one line: no newline or control character gets into the log."""
    return text.encode("unicode_escape").decode("ascii")


class RefusedRequestFilter(logging.Filter):
    """Turns Django's record of a refused request into one warning line without a traceback,
    naming what was refused, the request and its client: ``Refused with 400 (RequestDataTooBig:
    Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.): POST /accounts/login/ from
    203.0.113.9``. Attached to the loggers themselves, so every handler (and the test suite's
    caplog) gets the short record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "refused_request", False):
            return True  # shortened already (logging configured twice puts two filters on a logger)
        record.refused_request = True
        kind = record.name.rsplit(".", 1)[-1]
        request = getattr(record, "request", None)
        where = ""
        if request is not None:
            where = f": {_escaped(request.method or '')} {_escaped(request.path)} from {request.META.get('REMOTE_ADDR', '?')}"
        record.msg, record.args = f"Refused with 400 ({kind}: {_escaped(record.getMessage())}){where}", ()
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        record.exc_info = record.exc_text = record.stack_info = None
        return True
