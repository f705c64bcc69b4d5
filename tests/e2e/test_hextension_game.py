"""Two people sign up, one opens a private Hextension game, the other joins by its link, and
both play all 19 tiles through the pages; the final page shows the right scores."""
import re

import pytest

from games.models import Game
from tests.e2e.accounts import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def play_round(page, game_url: str, cell_offset: int) -> None:
    """Place this round's tiles with the plain form: each tile on a different empty cell."""
    page.goto(game_url)
    selects = page.locator("select[name^='cell_']")
    for i in range(selects.count()):
        options = selects.nth(i).locator("option:not([value=''])")
        selects.nth(i).select_option(options.nth((i + cell_offset) % options.count()).get_attribute("value"))
    # Wait for the answer itself: the page's load state says nothing of a request made after it.
    submit = page.get_by_role("button", name=re.compile(r"^Submit round"))
    if page.viewport_size["width"] <= 390:  # on a phone the button comes after the board
        board = page.locator("svg.hx-interactive").bounding_box()
        assert submit.bounding_box()["y"] >= board["y"] + board["height"]
    with page.expect_response(re.compile(r"/move/$")):
        submit.click()


def test_two_players_play_a_whole_private_game_in_the_browser(live_server, browser, celery_worker_thread):
    ana = browser.new_context("desktop").new_page()
    bo = browser.new_context("phone").new_page()  # the flow at both widths, in one game
    for page in (ana, bo):
        page.set_default_timeout(20_000)
    sign_up(ana, live_server.url, "ana")
    sign_up(bo, live_server.url, "bo")

    ana.goto(f"{live_server.url}/games/hextension/new/")
    ana.get_by_label("Visibility:").select_option("private")
    ana.get_by_label("Players:", exact=True).fill("2")
    ana.get_by_role("button", name="Open the game").click()
    ana.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = ana.url
    invite = live_server.url + re.search(r"/games/join/[\w-]+/", ana.content()).group(0)

    bo.goto(invite)
    bo.get_by_role("button", name="Take a seat").click()
    bo.wait_for_url(game_url)
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE

    for round_number in range(10):
        play_round(ana, game_url, cell_offset=0)
        play_round(bo, game_url, cell_offset=1)
        game.refresh_from_db()
        assert game.version == 2 * (round_number + 1)  # both submissions were written
        if round_number == 0:  # on Bo's phone the standings keep every column in sight
            bo.goto(game_url)
            for column in ("Rank", "Score", "Status"):
                assert_in_sight(bo, bo.get_by_role("columnheader", name=column))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    scores = game.result["scores"]

    for _ in range(60):  # the worker computes the hindsight figures after the game
        game.refresh_from_db()
        if game.analysis:
            break
        ana.wait_for_timeout(500)
    for page in (ana, bo):
        page.goto(game_url)
        results = page.locator("table").filter(has_text="Best possible")
        for name, score in (("ana", scores[0]), ("bo", scores[1])):
            row = results.locator("tr").filter(has_text=name)
            assert str(score) in row.inner_text()
        assert str(game.analysis["best_score"]) in results.inner_text()
        for column in ("Score", "Strong AI, same tiles", "Best possible"):
            assert_in_sight(page, page.get_by_role("columnheader", name=column))


def assert_in_sight(page, element) -> None:
    """The element lies within the window's width (not cut off, nor scrolled out of a box)."""
    box = element.bounding_box()
    assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= page.viewport_size["width"], box
