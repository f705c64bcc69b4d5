"""A newcomer signs up, verifies their e-mail, and reaches an empty dashboard, in a browser."""
import re

import pytest
from django.core import mail

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_newcomer_signs_up_verifies_and_sees_the_dashboard(live_server, page):
    page.goto(live_server.url)
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username:").fill("newcomer")
    page.get_by_label("Email:").fill("newcomer@example.com")
    page.get_by_label("Password:", exact=True).fill("tiles-and-rivers-42")
    page.get_by_label("Password (again):").fill("tiles-and-rivers-42")
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_url(re.compile(r"/accounts/confirm-email/"))
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mail.outbox[0].body).group(0)
    page.goto(link)
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_url(re.compile(r"/games/$"))
    assert page.get_by_role("heading", name="My games").is_visible()
    assert page.get_by_text("Nothing is waiting for you.").is_visible()
