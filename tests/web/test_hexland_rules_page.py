"""The Hexland rules page says what the site does when a player's time runs out, when the AI
stands in, how to take the seat back and what resigning does."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.sites import get_site

pytestmark = pytest.mark.django_db


def test_the_rules_page_explains_timers_the_stand_in_and_resigning(client):
    page = client.get(reverse("hexland_rules")).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).replace(" )", ")").replace("( ", "(")
    site = get_site("hexland")
    assert site.standin_after_timeouts == 2 and site.standin_level == "medium"  # what the page states

    # The presets, as the engine times them (setup placement, turn, discard).
    for row in ("Fast 30 s 1 min 20 s", "Normal 1 min 2 min 30 s", "Slow 90 s 3 min 45 s",
                "Correspondence 1 day 1 day 1 day"):
        assert row in text, row
    assert "the dice are rolled for you" in text and "your turn ends" in text and "you decline" in text
    # The stand-in, and the way back.
    assert "If your time runs out twice in a row (with no move of your own between), an AI player (medium level) takes over your seat" in text
    assert "press Take my seat back at the top of the page" in text
    # Resigning.
    assert "Resign" in text and "resigning cannot be undone" in text
    assert "you rank below every player who did not resign, whatever your points" in text
    assert "ratings use that place" in text
