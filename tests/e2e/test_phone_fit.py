"""What a phone (390×844) shows, measured in Chromium (issue 45, items 8 and 9c): Hexland's
fixed action bar leaves the board two thirds of the screen and hides no hex, and the German
Hextension standings fit the screen with every header readable."""
from __future__ import annotations

import pytest

from games import services
from games.sites import get_engine
from tests.e2e.conftest import log_in
from tests.e2e.test_live_page import move_now, open_page, phase, room_at, stamp, wait_for_stamp_after
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


def main_phase_with_a_bank_trade(state) -> bool:
    """Ana's turn to trade and build, with more to do than the bar shows folded (a bank trade)."""
    if phase(state) != "main" or state.cur != 0:
        return False
    return any(m["type"] == "bank_trade" for m in get_engine("hexland").legal_moves(state, 0))


PADDING_IS_THE_BAR = ("Math.abs(parseFloat(getComputedStyle(document.body).paddingBottom)"
                      " - document.getElementById('hl-private').getBoundingClientRect().height) <= 1")
LOWEST_HEX = """() => {
  const hexes = [...document.querySelectorAll('#hl-island .hl-hex')];
  const lowest = hexes.reduce((a, b) => a.getBoundingClientRect().bottom > b.getBoundingClientRect().bottom ? a : b);
  lowest.scrollIntoView({block: 'end'});  // as far down as the page lets it go
  window.scrollBy(0, document.getElementById('hl-private').getBoundingClientRect().height);
  const box = lowest.getBoundingClientRect();
  const bar = document.getElementById('hl-private').getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {bottom: box.bottom, barTop: bar.top, onBoard: !!(hit && hit.closest('.hl-board-stack')),
          padding: parseFloat(getComputedStyle(document.body).paddingBottom), bar: bar.height};
}"""


def test_hexlands_action_bar_leaves_a_phone_two_thirds_of_the_screen_and_hides_no_hex(asgi_live_server, browser, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = room_at([ana, bo], main_phase_with_a_bank_trade)
    page = open_page(browser, asgi_live_server, ana, game, preset="phone")
    bar = page.locator("#hl-private")
    bar.locator(".hl-hand").wait_for()
    height = bar.bounding_box()["height"]
    assert height <= 200, height  # folded: the hand's counts and the turn's buttons, under a quarter of 844 px
    more = bar.get_by_role("button", name="More")
    assert more.get_attribute("aria-expanded") == "false"
    for name in ("End your turn", "More"):
        assert bar.get_by_role("button", name=name).is_visible(), name
    assert bar.locator(".hl-hand").is_visible() and not bar.locator("#hl-bank-form").is_visible()

    page.wait_for_function(PADDING_IS_THE_BAR)
    found = page.evaluate(LOWEST_HEX)  # the page scrolls the lowest hex clear of the bar, and it takes a click
    assert found["bottom"] <= found["barTop"] and found["onBoard"], found

    more.click()  # unfolded: everything, scrolling within the bar
    assert more.get_attribute("aria-expanded") == "true" and bar.locator("#hl-bank-form").is_visible()
    assert bar.bounding_box()["height"] <= 844 * 0.6
    page.wait_for_function(PADDING_IS_THE_BAR)
    before = stamp(page)  # a push redraws the bar: it stays as the player left it
    move_now(game, ana, 0, lambda moves: next(m for m in moves if m["type"] == "bank_trade"))
    wait_for_stamp_after(page, before)
    assert more.get_attribute("aria-expanded") == "true" and bar.locator("h4").first.is_visible()
    more.click()
    assert more.get_attribute("aria-expanded") == "false" and not bar.locator("h4").first.is_visible()
    page.wait_for_function(PADDING_IS_THE_BAR)

    # Without JavaScript nothing is folded; on a desktop the panel stands beside the board, whole.
    context = browser.new_context("phone", java_script_enabled=False)
    log_in(context, asgi_live_server, ana)
    plain = context.new_page()
    plain.goto(f"{asgi_live_server}/games/{game.pk}/")
    assert plain.locator("#hl-private h4").first.is_visible() and not plain.get_by_role("button", name="More").is_visible()
    desk = open_page(browser, asgi_live_server, ana, game, preset="desktop")
    assert desk.locator("#hl-private").evaluate("e => getComputedStyle(e).position") == "static"
    assert desk.locator("#hl-private h4").first.is_visible() and not desk.get_by_role("button", name="More").is_visible()
