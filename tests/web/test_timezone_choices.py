"""The time zone field offers cities as people look for them (issue #31): "Berlin (UTC+01:00)",
grouped by region, the common ones first, the saved zone chosen; the value sent and stored is
still the zone's name, checked on the server."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from accounts.timezones import COMMON_GROUP, common_timezones, timezone_choices

pytestmark = pytest.mark.django_db

WINTER = datetime(2026, 1, 15, 12, tzinfo=timezone.utc)
SUMMER = datetime(2026, 7, 15, 12, tzinfo=timezone.utc)
DATA = {"display_name": "", "email_notifications": "each"}


class SelectReader(HTMLParser):
    """The select named timezone: its attributes and [(group, [(value, label, selected)])]."""

    def __init__(self):
        super().__init__()
        self.attrs, self.groups, self._option, self._in = {}, [], None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "select" and attrs.get("name") == "timezone":
            self.attrs, self._in = attrs, True
        elif self._in and tag == "optgroup":
            self.groups.append((attrs["label"], []))
        elif self._in and tag == "option":
            self._option = [attrs["value"], "", "selected" in attrs]

    def handle_data(self, data):
        if self._option is not None:
            self._option[1] += data

    def handle_endtag(self, tag):
        if tag == "option" and self._option is not None:
            self.groups[-1][1].append(tuple(self._option))
            self._option = None
        elif tag == "select":
            self._in = False


def read_select(page: str) -> SelectReader:
    reader = SelectReader()
    reader.feed(page)
    return reader


def test_cities_with_todays_offset_in_region_groups_the_common_ones_first():
    groups = timezone_choices(WINTER)
    names = [group for group, _ in groups]
    assert names[0] == COMMON_GROUP
    assert names[1:] == ["Africa", "Americas", "Antarctica", "Arctic", "Asia", "Atlantic Ocean", "Australia",
                         "Europe", "Indian Ocean", "Pacific Ocean"]
    common = dict(groups[0][1])
    assert groups[0][1][0] == ("UTC", "UTC (UTC+00:00)")
    assert common["Europe/Berlin"] == "Berlin (UTC+01:00)" and common["Asia/Kolkata"] == "Kolkata (UTC+05:30)"
    assert common["America/New_York"] == "New York (UTC-05:00)"
    offsets = [label[-10:-1] for _, label in groups[0][1][1:]]  # west to east after UTC
    assert offsets == sorted(offsets, key=lambda o: (1 if o[3] == "+" else -1) * int(o[4:6] + o[7:9]))
    europe = dict(dict(groups)["Europe"])
    assert europe["Europe/Berlin"] == "Berlin (UTC+01:00)" and dict(timezone_choices(SUMMER)[0][1])["Europe/Berlin"] == "Berlin (UTC+02:00)"
    americas = dict(groups)["Americas"]
    assert ("America/Argentina/Buenos_Aires", "Buenos Aires, Argentina (UTC-03:00)") in americas
    labels = [label for _, label in americas]
    assert labels == sorted(labels)  # a region's cities in order of their names
    # Every zone offered is in one region's group, by a city's name: no raw IANA name is shown.
    in_regions = [value for group, options in groups[1:] for value, _ in options]
    assert sorted(in_regions) == sorted(set(common_timezones()) - {"UTC"})
    assert not any("/" in label or "_" in label for _, options in groups for _, label in options)


def test_the_profile_lists_the_cities_with_the_saved_zone_chosen_and_stores_the_zone_name(client, make_user):
    ana = make_user(timezone="Europe/Berlin")
    client.force_login(ana)
    page = client.get(reverse("profile")).content.decode()
    select = read_select(page)
    assert select.groups[0][0] == COMMON_GROUP and len(select.groups) == 11
    chosen = [(value, label) for _, options in select.groups for value, label, on in options if on]
    assert len(chosen) == 1 and chosen[0][0] == "Europe/Berlin"
    assert re.fullmatch(r"Berlin \(UTC\+0[12]:00\)", chosen[0][1])
    assert "data-detect-timezone" not in select.attrs  # a saved zone is never replaced by the browser's
    assert re.search(r'<script src="/static/js/timezone[^"]*\.js" defer></script>', page)

    assert client.post(reverse("profile"), {**DATA, "timezone": "America/Sao_Paulo"}).status_code == 302
    ana.refresh_from_db()
    assert ana.timezone == "America/Sao_Paulo"
    # An old name a browser reports is a real zone: kept, and shown chosen though not listed.
    assert client.post(reverse("profile"), {**DATA, "timezone": "Asia/Calcutta"}).status_code == 302
    ana.refresh_from_db()
    assert ana.timezone == "Asia/Calcutta"
    select = read_select(client.get(reverse("profile")).content.decode())
    assert select.groups[0][1][0] == ("Asia/Calcutta", "Calcutta (UTC+05:30)", True)
    for refused in ("localtime", "Berlin (UTC+01:00)", "Etc/Nowhere"):
        response = client.post(reverse("profile"), {**DATA, "timezone": refused})
        assert response.status_code == 400 and "is not a time zone we know" in response.content.decode()
    ana.refresh_from_db()
    assert ana.timezone == "Asia/Calcutta"


def test_sign_up_marks_the_empty_field_for_the_browsers_zone(client):
    select = read_select(client.get(reverse("account_signup")).content.decode())
    assert "data-detect-timezone" in select.attrs and "data-timezone" in select.attrs
    assert not any(on for _, options in select.groups for _, _, on in options)  # without script: UTC, the first
    assert select.groups[0][1][0][0] == "UTC"
