"""Schemathesis over /api/v1/openapi.json with a real token: requests generated from the
document (valid ones and broken ones), every answer no server error and as the document says
(status, content type, body schema, headers). Kept small for CI: a few examples per operation."""
from __future__ import annotations

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis import checks

from api import new_games, tokens
from games.models import Game

pytestmark = pytest.mark.django_db

CHECKS = [checks.not_a_server_error, checks.status_code_conformance, checks.content_type_conformance,
          checks.response_schema_conformance, checks.response_headers_conformance]


@pytest.fixture(autouse=True)
def _requests_keep_the_tests_connection():
    """As Django's test client does: a request's end must not close the test's connection (its
    transaction holds the test's data)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def bearer(django_user_model):
    user = django_user_model.objects.create_user(username="schemathesis", email="s@example.com", password="pw-12345678")
    _token, secret = tokens.create_token(owner=user, name="schemathesis")
    return {"Authorization": f"Bearer {secret}"}


# The document as the site serves it (it reads nothing of the database).
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())


@schema.exclude(operation_id=["streamGame", "streamEvents"]).parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_every_answer_conforms_to_the_document(case, bearer):
    # Some games to find: ids 1.. are what the generated path parameters mostly hit.
    # (Opened by the service: Django's test client would connect again what the fixture disconnected.)
    if not Game.objects.exists():
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.get(username="schemathesis")
        for body in ({"game": "hextension", "players": 2, "ai": 1}, {"game": "hexland", "players": 3, "ai": 1}):
            new_games.open_game(user, body)
    # identity: the WSGI transport reads bodies as sent, and the site gzips those of 200 bytes or more.
    case.call_and_validate(headers={**bearer, "Accept-Encoding": "identity"}, checks=CHECKS)
