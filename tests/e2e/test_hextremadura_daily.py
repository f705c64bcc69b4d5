"""A player signs up, starts today's Hextremadura puzzle and plays it to the end through the page:
each turn a click on the first highlighted cell of the map. The final score shown is the game's
result, and the home page's leaderboard lists the player."""
import re

import pytest
from django.core import mail

from games.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MAX_PLACEMENTS = 18 + 15  # docs/hextremadura.md: a game has at most 18 + 15 placements


def sign_up(page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/signup/")
    page.get_by_label("Username:").fill(username)
    page.get_by_label("Email:").fill(f"{username}@example.com")
    page.get_by_label("Password:", exact=True).fill("tiles-and-rivers-42")
    page.get_by_label("Password (again):").fill("tiles-and-rivers-42")
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_url(re.compile(r"/accounts/confirm-email/"))
    message = next(m for m in reversed(mail.outbox) if m.to == [f"{username}@example.com"])
    page.goto(re.search(r"https?://\S+/accounts/confirm-email/\S+/", message.body).group(0))
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_url(re.compile(r"/games/$"))


def place_once(page) -> None:
    """Click the first legal cell (the first available tile, unturned) and wait for the new board."""
    version = int(page.locator(".hxt-game").get_attribute("data-version"))
    page.locator("svg.hxt-interactive .hxt-legal").first.click()
    page.locator(f'.hxt-game[data-version="{version + 1}"]').wait_for()


def test_a_player_plays_the_whole_daily_puzzle_in_the_browser(live_server, page):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sign_up(page, live_server.url, "estrella")
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
