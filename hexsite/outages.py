"""A request that meets a PostgreSQL or Redis outage gets a clear 503, never a bare 500.

Moves are written in one transaction, so a connection lost on the way writes nothing; one lost
after the commit (while drawing the answer) leaves the move saved. The message therefore asks
to reload and look before playing again, and a repeated move is recognised anyway
(``services.submit_move`` answers a resubmission of the same move with no new event).

``OutageMiddleware`` (right after the authentication middleware) reads the session and the user
itself, so an outage met there gets the 503 too, and turns such an exception raised by a view
into it. ``server_error`` (``handler500``) covers what is left when DEBUG is off. The page is
drawn without the request's context: that context reads the database that just failed.
"""
from __future__ import annotations

import logging
import sys

from django import db
from django.http import HttpResponse, JsonResponse, HttpResponseServerError
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

OUTAGES = (db.OperationalError, db.InterfaceError, RedisConnectionError, RedisTimeoutError, BrokerError)
MESSAGE = _("The site could not reach its database or message service just now. Reload the page in a few "
            "seconds to see where things stand; if your last move is not shown, play it again.")
RETRY_AFTER_SECONDS = 5


def outage_response(request, error: BaseException) -> HttpResponse:
    logger.warning("%s %s: answered 503, service outage: %s: %s", request.method, request.path,
                   type(error).__name__, error)
    message = str(MESSAGE)  # in the request's language
    if request.headers.get("HX-Request"):
        # The live page shows it beside the control that was used (static/js/live.js).
        response = JsonResponse({"type": "error", "message": message}, status=503)
    else:
        response = HttpResponse(render_to_string("503.html", {"message": message}), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class OutageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            getattr(request, "user", None) and request.user.is_authenticated  # loads the session and the user
        except OUTAGES as error:
            return outage_response(request, error)
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, OUTAGES):
            return outage_response(request, exception)
        return None


def server_error(request, *args, **kwargs):
    """handler500: a 503 for an outage met outside a view, Django's plain 500 otherwise."""
    error = sys.exc_info()[1]
    if isinstance(error, OUTAGES):
        return outage_response(request, error)
    try:
        return HttpResponseServerError(render_to_string("500.html"))
    except Exception:
        return HttpResponseServerError("<h1>Server Error (500)</h1>", content_type="text/html")
