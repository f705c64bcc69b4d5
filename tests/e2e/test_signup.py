"""A newcomer signs up, verifies their e-mail, and reaches an empty dashboard, in a browser, at
desktop and phone widths; the sign-up form took the browser's time zone."""
import re

import pytest
from django.core import mail

from accounts.models import User

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_newcomer_signs_up_verifies_and_sees_the_dashboard(live_server, browser, viewport):
    page = browser.new_context(viewport, timezone_id="America/Sao_Paulo").new_page()
    page.goto(live_server.url)
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username:").fill("newcomer")
    page.get_by_label("Email:").fill("newcomer@example.com")
    page.get_by_label("Password:", exact=True).fill("tiles-and-rivers-42")
    page.get_by_label("Password (again):").fill("tiles-and-rivers-42")
    assert page.get_by_label("Time zone:").input_value() == "America/Sao_Paulo"  # the browser's
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_url(re.compile(r"/accounts/confirm-email/"))
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mail.outbox[0].body).group(0)
    page.goto(link)
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_url(re.compile(r"/games/$"))
    assert page.get_by_role("heading", name="My games").is_visible()
    assert page.get_by_text("Nothing is waiting for you.").is_visible()
    assert User.objects.get(username="newcomer").timezone == "America/Sao_Paulo"


def test_an_unknown_time_zone_is_refused_with_a_message(live_server, browser):
    page = browser.new_context("phone").new_page()
    page.goto(f"{live_server.url}/accounts/signup/")
    page.get_by_label("Username:").fill("zoneless")
    page.get_by_label("Email:").fill("zoneless@example.com")
    page.get_by_label("Password:", exact=True).fill("tiles-and-rivers-42")
    page.get_by_label("Password (again):").fill("tiles-and-rivers-42")
    page.get_by_label("Time zone:").fill("localtime")
    page.get_by_role("button", name="Sign Up").click()
    page.get_by_text("“localtime” is not a time zone we know").wait_for()
    assert not User.objects.filter(username="zoneless").exists() and mail.outbox == []
