"""A signed-in player starts today's Hextremadura puzzle and plays it to the end through the page:
each turn a click on the first highlighted cell of the map. The final score shown is the game's
result, and the home page's leaderboard lists the player. (Signing up through the pages is
tests/e2e/test_signup.py's; here the player comes signed in.)"""
import re

import pytest

from games.models import Game
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MAX_PLACEMENTS = 18 + 15  # docs/hextremadura.md: a game has at most 18 + 15 placements


def place_once(page) -> None:
    """Click the first legal cell (the first available tile, unturned) and wait for the new board."""
    version = int(page.locator(".hxt-game").get_attribute("data-version"))
    page.locator("svg.hxt-interactive .hxt-legal").first.click()
    page.locator(f'.hxt-game[data-version="{version + 1}"]').wait_for()


def test_a_player_plays_the_whole_daily_puzzle_in_the_browser(live_server, page, make_user):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page.context, live_server.url, make_user("estrella"))
    page.goto(f"{live_server.url}/games/hextremadura/")
    page.get_by_role("button", name="Play today's puzzle").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    assert page.get_by_role("button", name="Hint").count() == 0  # no hints in the daily puzzle
    assert page.get_by_role("button", name="Undo").count() == 0

    for _ in range(MAX_PLACEMENTS):
        if page.locator(".hxt-final-score").count():
            break
        place_once(page)
    final = page.locator(".hxt-final-score")
    final.wait_for()

    game = Game.objects.get()
    assert game.status == Game.Status.FINISHED
    score = game.result["score"]
    assert final.locator("strong").inner_text() == str(score)
    assert page.locator(".hxt-ratings").is_visible()
    assert errors == []  # the board's script ran through every swap without an exception

    page.goto(f"{live_server.url}/games/hextremadura/")
    row = page.locator("table tr").filter(has_text="estrella")
    assert row.count() == 1 and str(score) in row.inner_text()
