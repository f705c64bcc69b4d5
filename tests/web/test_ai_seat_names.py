"""An AI seat is named in the reader's language wherever a page shows it (issue 45, item 9a):
Hexland's heading, log, players and status alike, whatever language the room started in, and
Hextension's pages. The name is ``games.ai_names.ai_player``'s."""
from __future__ import annotations

import re

import pytest
from django.utils import translation

from games import services
from games.hexland import services as hexland_services
from games.models import Game

pytestmark = pytest.mark.django_db

SHOWN = {"en": "AI (easy)", "de": "KI (leicht)", "es": "IA (nivel fácil)"}


@pytest.fixture(autouse=True)
def _language_left_as_it_was():
    """The test client's requests activate their reader's language in this thread and leave it
    active: the tests after these would draw in German or Spanish."""
    yield
    translation.deactivate()


def region(html: str, region_id: str) -> str:
    found = re.search(rf'<div id="{region_id}".*?(?=<div id="hl-|\Z)', html, re.S)
    assert found, f"no region {region_id}"
    return found.group(0)


def test_hexlands_heading_log_and_panels_name_the_ai_seat_in_the_readers_language(client, make_user):
    ana = make_user("ana")
    with translation.override("de"):  # the room starts in a German request: its pages must not keep German
        game = hexland_services.open_room(host=ana, title="", visibility="private", turn_seconds=3600,
                                          config={"players": 2, "layout": "fixed", "order": [1, 0]}, ai_seats={1: "easy"})
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert services.play_ai_move(game_id=game.pk, expected_version=game.version, seat=1)  # the AI's first settlement
    client.force_login(ana)
    for language, name in SHOWN.items():
        ana.language = language
        ana.save(update_fields=["language"])
        html = client.get(f"/games/{game.pk}/").content.decode()
        assert name in region(html, "hl-head"), language  # "Setup: KI (leicht) setzt eine Straße daneben"
        assert name in region(html, "hl-public"), language  # the log: "KI (leicht) hat eine Siedlung … gesetzt"
        assert name in region(html, "hl-players"), language
        for other in set(SHOWN.values()) - {name}:
            assert other not in html, (language, other)


def test_hextensions_pages_name_the_ai_seats_in_the_readers_language(client, make_user):
    ana = make_user("ana")
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 1}, created_by=ana,
                                ai_seats={1: "greedy"}, turn_seconds=3600)
    services.start_game(game_id=game.pk)
    client.force_login(ana)
    for language, name in (("de", "KI (gierig)"), ("es", "IA (nivel voraz)")):
        ana.language = language
        ana.save(update_fields=["language"])
        html = client.get(f"/games/{game.pk}/").content.decode()
        assert name in html and "AI (greedy)" not in html, language
