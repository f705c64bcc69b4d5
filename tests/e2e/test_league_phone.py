"""The organiser's page on a phone (390×844, issue 49 item 11): every form's field is wide
enough to type in (the "Extend the round" Hours box was 18 px wide in its table cell)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from games.leagues import services as leagues
from games.leagues.models import League
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIELD_MIN = 64  # CSS px: a few digits and room to tap


def test_the_organisers_forms_are_usable_at_phone_width(live_server, browser, make_user):
    boss = make_user("boss")
    boss.user_permissions.add(Permission.objects.get(codename="organise_leagues"))
    boss = type(boss).objects.get(pk=boss.pk)
    league = leagues.create_league(organiser=boss, name="Phone league", tiles_per_round=2, round_hours=48,
                                   season_games=2, entry=League.Entry.OPEN, schedule=League.Schedule.PARALLEL,
                                   starts_at=timezone.now() + timedelta(days=1))
    for name in ("ana", "bo"):
        leagues.enter_league(league_id=league.pk, user=make_user(name))
    leagues.start_season(league_id=league.pk, by_user=boss)
    context = browser.new_context("phone")
    context._hexsite_width = 390
    log_in(context, live_server.url, boss)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + reverse("league_organise", args=[league.pk]))
    hours = page.locator('input[name="hours"]')
    assert hours.count() == 2
    for field in [*hours.all(), page.get_by_label("Player (username)"), page.get_by_label("Replacement (username)"),
                  page.locator("#id_text")]:
        box = field.bounding_box()
        assert box["width"] >= FIELD_MIN and box["x"] + box["width"] <= 390, box
    button = page.get_by_role("button", name="Extend").first.bounding_box()
    assert button["x"] + button["width"] <= 390
