"""The API's tests: users, tokens and a client that sends a bearer token."""
from __future__ import annotations

import json

import pytest
from django.test import Client

from api import tokens
from api.models import ALL_SCOPES


class ApiClient:
    """Django's test client speaking JSON with a bearer token (no session, no CSRF)."""

    def __init__(self, secret: str | None = None, language: str | None = None):
        self.client = Client()
        self.secret = secret
        self.language = language

    def _headers(self) -> dict:
        headers = {}
        if self.secret is not None:
            headers["HTTP_AUTHORIZATION"] = f"Bearer {self.secret}"
        if self.language:
            headers["HTTP_ACCEPT_LANGUAGE"] = self.language
        return headers

    def get(self, path: str, **extra):
        return self.client.get(f"/api/v1{path}", **self._headers(), **extra)

    def post(self, path: str, body=None, raw: bytes | str | None = None, content_type: str = "application/json"):
        data = raw if raw is not None else json.dumps(body if body is not None else {})
        return self.client.post(f"/api/v1{path}", data=data, content_type=content_type, **self._headers())


def token_for(user, scopes=ALL_SCOPES) -> str:
    _token, secret = tokens.create_token(owner=user, name="test", scopes=scopes)
    return secret


@pytest.fixture
def make_user(django_user_model):
    made = iter(range(1, 1000))

    def make(name: str | None = None, **fields):
        name = name or f"api-user-{next(made)}"
        return django_user_model.objects.create_user(username=name, email=f"{name}@example.com", password="pw-12345678",
                                                     **fields)
    return make


@pytest.fixture
def api(make_user):
    """A user and an API client holding a token with every scope."""
    user = make_user("api-player")
    client = ApiClient(token_for(user))
    client.user = user
    return client
