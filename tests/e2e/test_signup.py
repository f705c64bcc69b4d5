"""A newcomer signs up, verifies their e-mail, and reaches an empty dashboard, in a browser, at
desktop and phone widths; the sign-up form took the browser's time zone, and its list of cities
is searched by name or offset (and chosen from without JavaScript)."""
import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from tests.e2e.conftest import log_in

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


def test_the_time_zone_list_is_searched_by_city_or_offset_and_works_without_javascript(live_server, browser, make_user):
    page = browser.new_context("phone", timezone_id="Asia/Tokyo").new_page()
    page.goto(f"{live_server.url}/accounts/signup/")
    zone = page.get_by_label("Time zone:")
    assert zone.input_value() == "Asia/Tokyo"  # the browser's, chosen
    search = page.get_by_label("Search the list")
    search.fill("+05:30")  # an offset: Kolkata and Colombo
    assert zone.input_value() == "Asia/Kolkata"  # the first match, chosen
    page.get_by_role("status").filter(has_text="2 time zones match").wait_for()
    visible = zone.locator("option:not([hidden])").all_inner_texts()
    assert "Kolkata (UTC+05:30)" in visible and "Colombo (UTC+05:30)" in visible and len(visible) == 3
    search.fill("sao pau")
    assert zone.input_value() == "America/Sao_Paulo"
    search.press("Enter")  # chooses the match; the form is not sent half-filled
    assert page.url.endswith("/accounts/signup/") and zone.evaluate("e => e === document.activeElement")
    search.fill("atlantis")
    page.get_by_role("status").filter(has_text="No time zone matches").wait_for()
    assert zone.locator("option:not([hidden])").count() > 400 and zone.input_value() == "America/Sao_Paulo"

    # Without JavaScript: the plain list, chosen from by its labels; the zone's name is stored.
    ana = make_user("ana")
    context = browser.new_context("desktop", java_script_enabled=False)
    log_in(context, live_server.url, ana)
    page = context.new_page()
    page.goto(live_server.url + reverse("profile"))
    assert page.get_by_label("Search the list").count() == 0
    page.get_by_label("Time zone:").select_option(label="Tokyo (UTC+09:00)")
    page.get_by_role("button", name="Save").click()
    page.get_by_text("Your profile has been saved.").wait_for()
    ana.refresh_from_db()
    assert ana.timezone == "Asia/Tokyo"
