"""A request whose Content-Type names a character set other than UTF-8 is refused with 400.

Django reads a form body only as UTF-8 and raises ``BadRequest`` for any other declared
charset; its default 400 handler then checks the CSRF token again, which reads the body again,
raises again and ends as a 500 with chained tracebacks. Other bodies and the query string would
be decoded in the declared charset, UTF-7 among them (a known way to smuggle markup past an
escape). Pages and scripts here always send UTF-8 (and never name another charset), so the site
reads UTF-8 alone: a charset that is UTF-8 by another name (``utf8``, ``UTF-8``) or its subset
ASCII is read as UTF-8; any other, known to Python or not, is refused before anything reads the
request, with a clear message, in the live page's JSON shape for htmx, and one warning line.
"""
from __future__ import annotations

import codecs

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.log import log_response
from django.utils.translation import gettext as _

READ_AS_UTF8 = frozenset({"utf-8", "ascii"})  # Python's names for them, as codecs.lookup gives them


def declared_charset(request: HttpRequest) -> str | None:
    """The charset the request's Content-Type names, if any."""
    return request.content_params.get("charset") if request.content_params else None


def read_as_utf8(charset: str) -> bool:
    try:
        return codecs.lookup(charset).name in READ_AS_UTF8
    except LookupError:
        return False


class DeclaredCharsetMiddleware:
    """Placed anywhere in MIDDLEWARE: it acts before any middleware's ``process_view`` (the CSRF
    check reads the body there) and any view; last, it answers in the viewer's own language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        charset = declared_charset(request)
        if charset is None:
            return self.get_response(request)
        if read_as_utf8(charset):
            request.encoding = "utf-8"  # the one name Django's form reading accepts
            return self.get_response(request)
        return refused(request, charset)


def refused(request: HttpRequest, charset: str) -> HttpResponse:
    message = _("The site reads what is sent to it only as UTF-8; this request named another character set. "
                "Reload the page and try again.")
    if request.headers.get("HX-Request"):
        # The live page shows it beside the control that was used (static/js/live.js).
        response = JsonResponse({"type": "error", "message": message}, status=400)
    else:
        response = render(request, "games/error.html", {"error": message}, status=400)
    # One line (the client's text escaped), on the logger Django would use for a 400, which
    # then does not log the response again.
    log_response("Refused with 400 (charset %s): %s %s from %s", charset[:40], request.method or "",
                 request.path, request.META.get("REMOTE_ADDR", "?"), response=response, request=request)
    return response
