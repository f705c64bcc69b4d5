"""Sign-up and log-in limits (django-allauth's rate limits, hexsite/settings.py).

allauth counts in the default cache, Redis: the private one of `make test`, emptied before each
test (tests/conftest.py), so every test starts with no attempt counted. The test client's
address is REMOTE_ADDR 127.0.0.1; another client is another REMOTE_ADDR.
"""
from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "hex-tiles-all-day"
USER_PASSWORD = "a-long-pass-phrase"  # make_user's
TOO_MANY_FAILED = "Too many failed login attempts"


@pytest.fixture(autouse=True)
def _fast_hashes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def log_in(client, login: str, password: str, ip: str = "127.0.0.1"):
    return client.post(reverse("account_login"), {"login": login, "password": password}, REMOTE_ADDR=ip)


def sign_up(client, username: str, ip: str = "127.0.0.1"):
    data = {"username": username, "email": f"{username}@example.com", "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("account_signup"), data, REMOTE_ADDR=ip)


def test_the_limits_are_the_documented_ones():
    assert settings.ACCOUNT_RATE_LIMITS == {
        "login": "30/m/ip", "login_failed": "10/m/ip,5/5m/key", "signup": "10/m/ip,50/h/ip",
        "reset_password": "20/m/ip,5/m/key", "reset_password_from_key": "20/m/ip", "confirm_email": "1/3m/key",
    }
    from allauth.account import app_settings

    # allauth keeps its defaults for the rest and takes these over them.
    assert {key: app_settings.RATE_LIMITS[key] for key in settings.ACCOUNT_RATE_LIMITS} == settings.ACCOUNT_RATE_LIMITS


def test_five_failed_log_ins_lock_the_account_for_everyone_even_with_the_right_password(client, make_user):
    make_user("ana")
    for attempt in range(5):
        refused = log_in(client, "ana", f"guess-{attempt}")
        assert refused.status_code == 200 and "not correct" in refused.content.decode()
    for ip in ("127.0.0.1", "10.0.0.2"):  # per account: another address is refused too
        locked = log_in(client, "ana", USER_PASSWORD, ip=ip)
        assert locked.status_code == 200 and TOO_MANY_FAILED in locked.content.decode()
        assert "_auth_user_id" not in client.session
    # Another account is not locked by Ana's.
    make_user("bo")
    assert log_in(client, "bo", USER_PASSWORD).status_code == 302


def test_ten_failed_log_ins_from_one_address_stop_that_address_trying_other_accounts(client, make_user):
    for n in range(10):
        assert "not correct" in log_in(client, f"nobody{n}", "guess").content.decode()
    make_user("carl")
    assert TOO_MANY_FAILED in log_in(client, "carl", "guess").content.decode()
    # Carl himself, from his own address, still logs in (his account had one failure).
    assert log_in(client, "carl", USER_PASSWORD, ip="10.0.0.3").status_code == 302


def test_thirty_log_in_posts_a_minute_from_one_address_then_429(client):
    statuses = [client.post(reverse("account_login"), {"login": "", "password": ""}).status_code for _ in range(31)]
    assert statuses == [200] * 30 + [429]
    assert client.get(reverse("account_login")).status_code == 200  # reading the page is not counted
    assert client.post(reverse("account_login"), {}, REMOTE_ADDR="10.0.0.4").status_code == 200


def test_ten_sign_ups_a_minute_from_one_address_then_429_and_no_account(client):
    for n in range(10):
        assert sign_up(client, f"newbie{n}").status_code == 302
        client.logout()
    refused = sign_up(client, "newbie10")
    assert refused.status_code == 429 and "Too Many Requests" in refused.content.decode()
    assert not User.objects.filter(username="newbie10").exists()
    assert User.objects.filter(username__startswith="newbie").count() == 10
    assert sign_up(client, "elsewhere", ip="10.0.0.5").status_code == 302  # another client
