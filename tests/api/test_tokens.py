"""Personal tokens: made by the command and the profile page, stored hashed, shown once,
revoked at once; their scopes and expiry checked."""
from __future__ import annotations

import datetime as dt
import hashlib
import io

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from api import tokens
from api.models import ApiToken
from tests.api.conftest import ApiClient

pytestmark = pytest.mark.django_db


def test_the_command_prints_a_working_token_alone_on_its_last_line(make_user):
    user = make_user("operator-made")
    out = io.StringIO()
    call_command("api_token", "operator-made", stdout=out, stderr=io.StringIO())
    secret = out.getvalue().strip().splitlines()[-1]
    token = ApiToken.objects.get(owner=user)
    assert sorted(token.scopes) == ["bot", "play", "read"]  # every scope but organise
    assert token.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(ApiToken.objects.filter(owner=user).values())  # only the hash is kept
    assert ApiClient(secret).get("/account").json()["username"] == "operator-made"


def test_the_command_takes_scopes_and_refuses_unknown_ones_and_users(make_user):
    make_user("scoped")
    out = io.StringIO()
    call_command("api_token", "scoped", "--scopes", "read,organise", stdout=out, stderr=io.StringIO())
    assert ApiToken.objects.get(owner__username="scoped").scopes == ["read", "organise"]
    with pytest.raises(CommandError, match="Unknown scope"):
        call_command("api_token", "scoped", "--scopes", "read,admin", stdout=io.StringIO(), stderr=io.StringIO())
    with pytest.raises(CommandError, match="no user"):
        call_command("api_token", "nobody-here", stdout=io.StringIO(), stderr=io.StringIO())


def test_revoked_expired_unknown_and_missing_tokens_are_refused_with_401(make_user):
    user = make_user()
    token, secret = tokens.create_token(owner=user, name="t")
    assert ApiClient(secret).get("/account").status_code == 200
    for client in (ApiClient(None), ApiClient("hxp_" + "x" * 40), ApiClient("not-a-token")):
        answer = client.get("/account")
        assert answer.status_code == 401
        assert answer["Content-Type"] == "application/problem+json"
        assert answer["WWW-Authenticate"].startswith("Bearer")
        assert answer.json()["status"] == 401 and answer.json()["detail"]
    assert tokens.revoke_token(owner=user, token_id=token.pk)
    assert ApiClient(secret).get("/account").status_code == 401
    expired, expired_secret = tokens.create_token(owner=user, name="old")
    ApiToken.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    assert ApiClient(expired_secret).get("/account").status_code == 401


def test_a_missing_scope_is_named(make_user):
    user = make_user()
    _token, secret = tokens.create_token(owner=user, name="reader", scopes=["read"])
    answer = ApiClient(secret).post("/games", {"game": "hextremadura", "players": 1, "ai": 0})
    assert answer.status_code == 403
    assert answer.json()["scope"] == "play" and "play" in answer.json()["detail"]
    _token, secret = tokens.create_token(owner=user, name="player", scopes=["play"])
    assert ApiClient(secret).get("/account").json()["scope"] == "read"


def test_last_use_is_noted(make_user):
    user = make_user()
    token, secret = tokens.create_token(owner=user, name="t")
    assert token.last_used_at is None
    ApiClient(secret).get("/account")
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_the_profile_page_makes_a_token_shown_once_and_revokes_it(make_user):
    user = make_user("profile-owner")
    client = Client()
    client.force_login(user)
    page = client.get("/profile/")
    assert b'id="api-tokens"' in page.content
    made = client.post("/api/tokens/new", {"name": "my bot", "scopes": ["read", "play"], "expires": "30"})
    assert made.status_code == 200
    secret = made.content.decode().split('id="api-token-secret">')[1].split("<")[0]
    token = ApiToken.objects.get(owner=user)
    assert token.name == "my bot" and token.scopes == ["read", "play"] and token.expires_at is not None
    assert ApiClient(secret).get("/account").status_code == 200
    again = client.get("/profile/").content.decode()
    assert token.prefix in again and secret not in again  # listed by its prefix, never shown again
    assert client.post(f"/api/tokens/{token.pk}/revoke").status_code == 302
    assert ApiClient(secret).get("/account").status_code == 401
    assert token.prefix not in client.get("/profile/").content.decode()


def test_the_profile_page_refuses_another_users_token_and_a_token_without_scopes(make_user):
    owner, other = make_user(), make_user()
    token, secret = tokens.create_token(owner=owner, name="t")
    client = Client()
    client.force_login(other)
    client.post(f"/api/tokens/{token.pk}/revoke")
    assert ApiClient(secret).get("/account").status_code == 200
    refused = client.post("/api/tokens/new", {"name": "none", "scopes": []})
    assert refused.status_code == 400
    assert not ApiToken.objects.filter(owner=other).exists()
