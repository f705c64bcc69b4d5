"""The league organiser's page: grouped sections, plural hours, the real start, exports in view."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.leagues import services as leagues
from games.leagues.models import League, LeagueEntry

pytestmark = pytest.mark.django_db


def _league(orga, **fields):
    defaults = dict(name="Winter league", tiles_per_round=3, round_hours=1, season_games=2, entry=League.Entry.APPROVAL,
                    schedule=League.Schedule.PARALLEL, starts_at=timezone.now() + timedelta(days=3))
    return leagues.create_league(organiser=orga, **{**defaults, **fields})


def _sections(page):
    return re.findall(r'<h2 id="([\w-]+)">([^<]+)</h2>', page)


def test_the_organiser_gets_one_page_in_sections_and_others_are_refused(client, orga, make_user):
    league = _league(orga)
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    for user in (ana, bo, cy):
        leagues.enter_league(league_id=league.pk, user=user)
    client.force_login(orga)
    detail = client.get(reverse("league_detail", args=[league.pk])).content.decode()
    assert "1 hour a round" in detail and "1 hours" not in detail
    assert reverse("league_organise", args=[league.pk]) in detail and "3 entries to decide" in detail
    assert 'name="decision"' not in detail and 'name="hours"' not in detail  # the tools live on their own page
    # exports are in view even before a game has finished
    assert reverse("league_standings_csv", args=[league.pk]) in detail and reverse("league_boards_csv", args=[league.pk]) in detail

    page = client.get(reverse("league_organise", args=[league.pk])).content.decode()
    assert [title for _, title in _sections(page)] == [
        "Season", "Entries", "Invitations", "Running games", "Players (0)", "Announcements", "Exports"]
    entries = page[page.index('id="entries-title"'):page.index('id="games-title"')]
    assert entries.count('value="approve"') == 3 and "ana" in entries
    assert "1 hour each" in page and "(it needs at least two)" in page
    assert "Start the season now" not in page  # no button the service would refuse
    assert reverse("league_boards_csv", args=[league.pk]) in page

    entry = LeagueEntry.objects.get(league=league, user=ana)
    response = client.post(reverse("league_decide", args=[league.pk, entry.pk]), {"decision": "approve"})
    assert response.status_code == 302 and response["Location"] == reverse("league_organise", args=[league.pk])

    client.force_login(ana)
    refused = client.get(reverse("league_organise", args=[league.pk]))
    assert refused.status_code == 403 and "Only the organiser" in refused.content.decode()
    assert reverse("league_organise", args=[league.pk]) not in client.get(
        reverse("league_detail", args=[league.pk])).content.decode()


def test_a_league_started_early_shows_when_it_really_started(client, orga, make_user):
    league = _league(orga, entry=League.Entry.OPEN, round_hours=48)
    for name in ("ana", "bo"):
        leagues.enter_league(league_id=league.pk, user=make_user(name))
    client.force_login(orga)
    before = client.get(reverse("league_detail", args=[league.pk])).content.decode()
    assert "starts <time" in before and "48 hours a round" in before
    response = client.post(reverse("league_start", args=[league.pk]), {"confirm": "1"})
    assert response["Location"] == reverse("league_organise", args=[league.pk])
    league.refresh_from_db()
    started = league.games.order_by("created_at").first().created_at
    detail = client.get(reverse("league_detail", args=[league.pk])).content.decode()
    assert f"started <time datetime=\"{started.strftime('%Y-%m-%dT%H:%M:%S')}" in detail
    assert "(early; planned for" in detail and "starts <time" not in detail
    listing = client.get(reverse("league_list")).content.decode()
    assert "started <time" in listing
    page = client.get(reverse("league_organise", args=[league.pk])).content.decode()
    running = page[page.index('id="games-title"'):page.index('id="players-title"')]
    assert running.count('name="hours"') == 2 and "Pause the league" in page
    game = league.games.first()
    done = client.post(reverse("league_extend", args=[league.pk]), {"game": game.pk, "hours": 1}, follow=True)
    assert "The deadline is 1 hour later." in done.content.decode()
