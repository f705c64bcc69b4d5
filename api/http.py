"""The API's HTTP edge: bearer tokens, scopes, JSON bodies checked against the operation's
schema, and refusals as RFC 9457 problem documents, in the token owner's language.

Each endpoint is declared once with ``operation(...)``: its method, path, scope, body schema and
answer schema. The URL patterns (``urlpatterns``) and the OpenAPI document (api/openapi.py) are
both generated from that one list, so the document describes exactly what is served.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any, Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path as url_path
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from api import limits
from api.bearer import Bearer, bearer_for_secret
from api.models import Scope
from games import move_input
from games.errors import GameError, RateLimited, StaleVersion

PROBLEM_TYPE = "application/problem+json"


class Problem(Exception):
    """A refusal of the API itself (no token, a missing scope, a body that is not JSON)."""

    def __init__(self, status: int, detail: str, **extensions):
        super().__init__(detail)
        self.status, self.detail, self.extensions = status, str(detail), extensions


def problem_response(status: int, detail: str, headers: dict | None = None, **extensions) -> JsonResponse:
    body = {"type": "about:blank", "title": HTTPStatus(status).phrase, "status": status, "detail": str(detail),
            **extensions}
    response = JsonResponse(body, status=status, content_type=PROBLEM_TYPE, json_dumps_params={"ensure_ascii": False})
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def game_error_response(error: GameError, current_version: Callable[[], int | None] = lambda: None) -> JsonResponse:
    """A service's refusal: its status and its sentence (the pages' own words)."""
    extensions, headers = {}, {}
    if isinstance(error, StaleVersion):
        version = current_version()
        if version is not None:
            extensions["version"] = version
    if isinstance(error, RateLimited):
        headers["Retry-After"] = str(error.retry_after)
    return problem_response(error.status, error.message, headers, **extensions)


@dataclass
class Call:
    """One authenticated API request: its token (either kind: api.bearer), its user and its
    checked JSON body."""

    request: HttpRequest
    token: Bearer
    body: Any = None

    @property
    def user(self):
        return self.token.owner


@dataclass
class Operation:
    method: str
    path: str  # as OpenAPI writes it: /games/{id}
    name: str  # operationId
    summary: str
    scope: str | None
    handler: Callable[..., Any]
    body: dict | None = None
    answer_status: int = 200
    answer: dict | None = None
    refusals: tuple[int, ...] = ()
    # A stream: documented here, served by the socket processes (api/streams.py).
    stream: bool = False
    description: str = ""
    parameters: list[dict] = field(default_factory=list)
    # What the body is checked against, when the document's schema is not all of it (a move is
    # checked by its own game's schema, with its sentences: games.move_input).
    checked_body: dict | None = None
    # Which of the token's rate limits the call counts against (api.limits); None: a read for a
    # GET, a move (an action) for any other method.
    rate: str | None = None
    # The answer's media type, when it is not JSON (a CSV export): the handler answers it itself.
    media_type: str = "application/json"

    @property
    def rate_kind(self) -> str:
        return self.rate or (limits.READ if self.method == "GET" else limits.MOVE)


OPERATIONS: list[Operation] = []


def operation(method: str, path: str, *, name: str, summary: str, scope: str | None, body: dict | None = None,
              answer_status: int = 200, answer: dict | None = None, refusals: tuple[int, ...] = (),
              stream: bool = False, description: str = "", parameters: list[dict] | None = None,
              checked_body: dict | None = None, rate: str | None = None, media_type: str = "application/json"):
    def register(handler):
        OPERATIONS.append(Operation(method, path, name, summary, scope, handler, body, answer_status, answer, refusals,
                                    stream, description, parameters or [], checked_body, rate, media_type))
        return handler
    return register


# --- reading a request ------------------------------------------------------------------------


def bearer_secret(authorization: str | None) -> str | None:
    scheme, _sep, secret = (authorization or "").partition(" ")
    return secret.strip() if scheme.lower() == "bearer" and secret.strip() else None


def authenticate(request: HttpRequest) -> Bearer:
    secret = bearer_secret(request.headers.get("Authorization"))
    if secret is None:
        raise Problem(401, _("Send your API token in the header Authorization: Bearer <token>."))
    token = bearer_for_secret(secret)
    if token is None:
        raise Problem(401, _("This API token is not valid: it is unknown, revoked or expired."))
    return token


def check_scope(token: Bearer, scope: str | None) -> None:
    # A bot account plays with the bot scope (as Lichess's Bot API); play is a person's client.
    if scope == Scope.PLAY and token.owner.is_bot:
        scope = Scope.BOT
    if scope is not None and not token.has_scope(scope):
        raise Problem(403, _("This token lacks the scope %(scope)s.") % {"scope": scope}, scope=scope)


def _refuse_constant(name: str):
    raise ValueError(name)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _no_repeats(pairs):
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("repeated field")
    return found


def read_body(request: HttpRequest, schema: dict) -> Any:
    """The JSON body, checked against ``schema``; a Problem (400) naming what is wrong."""
    try:
        raw = request.body
    except RequestDataTooBig:
        raise _too_large() from None
    if len(raw) > limits.max_body_bytes():
        raise _too_large()
    content_type = request.content_type or ""
    if content_type not in ("application/json", "") and not content_type.endswith("+json"):
        raise Problem(400, _("Send the body as JSON (Content-Type: application/json)."))
    try:
        body = json.loads(raw.decode("utf-8") or "{}", parse_constant=_refuse_constant, parse_float=_finite,
                          object_pairs_hook=_no_repeats)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise Problem(400, _("The request body could not be read: it must be a JSON object.")) from None
    if not isinstance(body, dict):
        raise Problem(400, _("The request body could not be read: it must be a JSON object."))
    errors = list(_validator(schema).iter_errors(body))
    if errors:
        # Translators: the subject of a sentence about a refused API request body ("The request body needs the field version.").
        raise Problem(400, move_input.explain(best_match(errors), subject=_("The request body")))
    return body


def _too_large() -> Problem:
    refused = limits.body_too_large()
    return Problem(refused.status, refused.detail)


_validators: dict[int, Draft202012Validator] = {}


def _validator(schema: dict) -> Draft202012Validator:
    found = _validators.get(id(schema))
    if found is None:
        from api.schemas import checkable

        found = _validators[id(schema)] = move_input._StrictValidator(checkable(schema))
    return found


def language_of(token: Bearer | None, request: HttpRequest) -> str:
    """The token owner's saved language; else what the request asks for (Accept-Language)."""
    if token is not None and token.owner.language:
        return token.owner.language
    return getattr(request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE


def check_limits(token: Bearer, operation: Operation, request: HttpRequest) -> None:
    """The token's limits (api.limits): its rate for this kind of call (every authenticated
    call counts, refused ones too), and the body's size, before the body is read."""
    limits.check_rate(token.limit_key, operation.rate_kind)
    if request.method != "GET":
        limits.check_body_size(request)


def answer(operation: Operation, request: HttpRequest, **kwargs) -> HttpResponse:
    token = None
    try:
        token = authenticate(request)
        with translation.override(language_of(token, request)):
            check_scope(token, operation.scope)
            check_limits(token, operation, request)
            checked = operation.checked_body or operation.body
            body = read_body(request, checked) if checked is not None else None
            result = operation.handler(Call(request, token, body), **kwargs)
    except Problem as problem:
        with translation.override(language_of(token, request)):
            headers = {"WWW-Authenticate": 'Bearer realm="api"'} if problem.status == 401 else None
            return problem_response(problem.status, problem.detail, headers, **problem.extensions)
    except limits.Refused as refused:
        with translation.override(language_of(token, request)):
            headers = {"Retry-After": str(refused.retry_after)} if refused.retry_after else None
            return problem_response(refused.status, refused.detail, headers)
    if isinstance(result, HttpResponse):
        return result
    response = JsonResponse(result, status=operation.answer_status, safe=False,
                            json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"
    return response


def _django_path(path: str) -> str:
    """/leagues/{id}/entries/{entry}/approve -> leagues/<int:id>/entries/<int:entry>/approve: every
    path parameter is a whole number."""
    return re.sub(r"\{(\w+)\}", r"<int:\1>", path.strip("/"))


def urlpatterns_for(operations: list[Operation], extra: dict[str, Callable] | None = None) -> list:
    """One URL pattern per path, dispatching on the method (405 with Allow for another)."""
    by_path: dict[str, dict[str, Operation]] = {}
    for op in operations:
        by_path.setdefault(op.path, {})[op.method] = op
    patterns = []
    for path, methods in by_path.items():
        patterns.append(url_path("v1/" + _django_path(path), _dispatcher(methods),
                                 name="api_" + next(iter(methods.values())).name))
    return patterns


def _dispatcher(methods: dict[str, Operation]):
    @csrf_exempt
    def dispatch(request: HttpRequest, **kwargs) -> HttpResponse:
        op = methods.get(request.method)
        if op is None:
            allowed = ", ".join(sorted(methods))
            return problem_response(405, _("Use %(methods)s here.") % {"methods": allowed}, {"Allow": allowed})
        if op.stream:
            from api.streams import stream_elsewhere

            return stream_elsewhere(request)
        return answer(op, request, **kwargs)
    return dispatch


@csrf_exempt
def no_such_endpoint(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other address under /api/v1/: a problem document too, never the site's HTML page."""
    return problem_response(404, _("There is no such API endpoint: see /api/v1/docs."))
