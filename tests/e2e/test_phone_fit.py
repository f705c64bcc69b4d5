"""What a phone (390×844) shows, measured in Chromium (issue 45, items 8 and 9c): Hexland's
fixed action bar leaves the board two thirds of the screen and hides no hex, and the German
Hextension standings fit the screen with every header readable."""
from __future__ import annotations

import pytest

from games import services
from tests.e2e.test_readable_sizes import PHONE, open_as

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FITS = """wrap => {
  const table = wrap.querySelector('table');
  return {scroll: wrap.scrollWidth, width: wrap.clientWidth, right: table.getBoundingClientRect().right,
          clipped: [...table.querySelectorAll('thead th')].filter(th => th.scrollWidth > th.clientWidth + 1)
                                                          .map(th => th.textContent)};
}"""


@pytest.mark.parametrize("language", ["de", "es"])
def test_the_hextension_standings_fit_a_phone_with_readable_headers(live_server, browser, make_user, language):
    """German cut the Status column ("St…"): its headers are among the longest, with Spanish's."""
    greta = make_user("greta", display_name="Margarethe Schneider", language=language)
    game = services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 2}, created_by=greta,
                                ai_seats={1: "greedy", 2: "strong"}, turn_seconds=86400)
    services.start_game(game_id=game.pk)
    page = open_as(browser, live_server.url, greta, f"/games/{game.pk}/", PHONE)
    wrap = page.locator("#hx-standings .hx-table-wrap")
    fit = wrap.evaluate(FITS)
    assert fit["scroll"] <= fit["width"] and fit["right"] <= PHONE["width"], fit  # nothing to scroll to
    assert fit["clipped"] == [], fit
