"""The OpenAPI 3.1 document, generated from the declared operations (api/http.py) and the
schemas (api/schemas.py): what is served is what is described."""
from __future__ import annotations

from api import schemas
from api.http import OPERATIONS, Operation
from api.models import Scope

PROBLEM = {"application/problem+json": {"schema": schemas.ref("Problem")}}
REFUSED = {400: "Malformed or illegal", 401: "No token, or a token that is not valid",
           403: "The token lacks the scope named, or this is not your game or seat, or not your league to organise",
           404: "No such game, league, season or entry (a private league is not found by those outside it)",
           405: "Another method", 409: "Stale version (the current `version` is given), or the game's or league's state refuses it",
           413: "The request body is too large (api.limits)",
           429: "Too many requests (the token's rate limits, or the pages' own): see Retry-After"}


def document(server_url: str = "/api/v1") -> dict:
    site = server_url.removesuffix("/api/v1")  # the OAuth2 endpoints are beside the API, under /oauth/
    paths: dict[str, dict] = {}
    for op in OPERATIONS:
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(op)
    return {
        "openapi": "3.1.0",
        "info": {"title": "hexsite API", "version": "1",
                 "description": "Play Hextension, Hexland and Hextremadura by program. Send a personal token "
                                "(made on your profile page), or an app's access token (OAuth2 authorization "
                                "code with PKCE, under /oauth/), as `Authorization: Bearer <token>`. Refusals "
                                "are RFC 9457 problem documents. See docs/api.md for a quick start."},
        "servers": [{"url": server_url}],
        "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
        "security": [{"bearer": []}, {"oauth2": []}],
        "paths": paths,
        "components": {
            "schemas": schemas.components(),
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer",
                           "description": "A personal token; its scopes: "
                                          + ", ".join(f"`{s.value}` ({s.label})" for s in Scope)},
                "oauth2": {"type": "oauth2",
                           "description": "An app's token: the authorization code grant with PKCE (S256 only); "
                                          "sent as a bearer token like a personal one",
                           "flows": {"authorizationCode": {
                               "authorizationUrl": f"{site}/oauth/authorize/", "tokenUrl": f"{site}/oauth/token/",
                               "refreshUrl": f"{site}/oauth/token/",
                               "scopes": {s.value: str(s.label) for s in Scope}}}},
            },
        },
    }


def _operation(op: Operation) -> dict:
    found = {"operationId": op.name, "summary": op.summary, "tags": [op.path.strip("/").split("/")[0]]}
    if op.description:
        found["description"] = op.description
    if op.scope:
        found["description"] = (found.get("description", "") + f"\n\nScope: `{op.scope}`.").strip()
        found["x-scope"] = str(op.scope)
        # Either kind of token; a bot account's app plays with bot instead of play (api.http.check_scope).
        found["security"] = [{"bearer": []}, {"oauth2": [str(op.scope)]}]
        if op.scope == Scope.PLAY:
            found["security"].append({"oauth2": [Scope.BOT.value]})
    if op.parameters:
        found["parameters"] = op.parameters
    if op.body is not None:
        found["requestBody"] = {"required": True, "content": {"application/json": {"schema": op.body}}}
    if op.stream:
        answer = {"description": "NDJSON: one JSON object a line, and blank lines to keep the connection alive",
                  "content": {"application/x-ndjson": {"schema": {"type": "object"}}}}
    else:
        answer = {"description": "OK", "content": {op.media_type: {"schema": op.answer or {"type": "object"}}}}
    responses = {str(op.answer_status): answer}
    # Every call counts against one of the token's rate limits; a body's size is checked on
    # every call that is not a GET (api.limits).
    limited = {429} | ({413} if op.method != "GET" and not op.stream else set())
    for status in sorted({*op.refusals, 401, 405, *limited}):
        responses[str(status)] = {"description": REFUSED[status], "content": PROBLEM}
        if status == 429:
            responses[str(status)]["headers"] = {"Retry-After": {"schema": {"type": "integer"},
                                                                 "description": "seconds to wait"}}
    found["responses"] = responses
    return found
