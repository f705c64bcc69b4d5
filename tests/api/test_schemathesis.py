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


def _a_running_league(organiser) -> None:
    """A public league whose season runs, organised by the token's user (whose token has no
    organise scope: the organiser's calls are refused, the reads answered)."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.utils import timezone

    from games.leagues import services as leagues

    organiser.user_permissions.add(Permission.objects.get(codename="organise_leagues"))
    organiser = get_user_model().objects.get(pk=organiser.pk)
    league = leagues.create_league(organiser=organiser, name="Schemathesis league", season_games=1,
                                   starts_at=timezone.now() + timedelta(days=1))
    for name in ("league-ana", "league-bo"):
        player = get_user_model().objects.create_user(username=name, email=f"{name}@example.com", password="pw-12345678")
        leagues.enter_league(league_id=league.pk, user=player)
    leagues.start_season(league_id=league.pk, by_user=organiser)


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
        _a_running_league(user)
    # identity: the WSGI transport reads bodies as sent, and the site gzips those of 200 bytes or more.
    case.call_and_validate(headers={**bearer, "Accept-Encoding": "identity"}, checks=CHECKS)
