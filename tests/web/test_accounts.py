"""Sign-up with e-mail verification through django-allauth, then the empty dashboard."""
import re

import pytest
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_sign_up_verify_log_in_and_see_an_empty_dashboard(client):
    response = client.post(
        reverse("account_signup"),
        {"username": "newbie", "email": "newbie@example.com", "password1": "hex-tiles-all-day", "password2": "hex-tiles-all-day"},
    )
    assert response.status_code == 302
    assert client.get(reverse("dashboard")).status_code == 302  # not verified: not logged in
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["newbie@example.com"]
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", mail.outbox[0].body).group(1)
    assert client.get(link).status_code == 200
    response = client.post(link)
    assert response.status_code == 302
    page = client.get(reverse("dashboard"))
    assert page.status_code == 200
    assert "Nothing is waiting for you." in page.content.decode()
    client.post(reverse("account_logout"))
    assert client.get(reverse("dashboard")).status_code == 302
    response = client.post(reverse("account_login"), {"login": "newbie", "password": "hex-tiles-all-day"})
    assert response.status_code == 302 and response["Location"] == reverse("dashboard")


def test_a_wrong_password_is_refused_with_a_message(client, make_user):
    make_user("ana")
    response = client.post(reverse("account_login"), {"login": "ana", "password": "wrong"})
    assert response.status_code == 200
    assert "not correct" in response.content.decode()
