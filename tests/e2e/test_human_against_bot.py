"""A person plays a whole Hextension game against a bot in the browser: the person opens a game
of two seats on the pages and invites the bot account by its username; the bot, the example
bot of examples/ running as it is against the site served by Daphne, accepts from its events
stream and plays through the API; the person places every tile by clicking (a tile, then a cell
of the board) and submits each round, to the end, as short as the form allows (three tiles a
round: seven rounds). The final page shows both players' results and the bot's BOT badge."""
from __future__ import annotations

import re
import time

import pytest

from games.models import Game, MoveEvent
from tests.api.test_example_bots import BOT_SECONDS, start_example_bot
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
ROUNDS = 7  # 19 cells, three tiles a round


def wait_for_status(game: Game, status: str, seconds: float) -> None:
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        game.refresh_from_db()
        if game.status == status:
            return
        time.sleep(0.1)
    pytest.fail(f"game {game.pk} is {game.status}, not {status}, after {seconds} s")


def place_by_clicking(page, round_number: int) -> None:
    """Each tile of the round: its button, then the first empty cell of the board; then submit."""
    submit = page.get_by_role("button", name=f"Submit round {round_number}")
    submit.wait_for()
    tiles = page.locator("form.hx-form .hx-pick")
    assert tiles.count() == (1 if round_number == ROUNDS else 3)
    for i in range(tiles.count()):
        tiles.nth(i).click()
        page.locator("svg.hx-interactive [data-cell]:not(.hx-pending)").first.click()
    assert all(select.input_value() for select in page.locator("select.hx-select").all())  # every tile has its cell
    with page.expect_response(re.compile(r"/move/$")) as answer:
        submit.click()
    assert answer.value.status == 200


def test_a_person_plays_a_whole_game_against_the_example_bot_in_the_browser(asgi_live_server, browser,
                                                                             django_user_model):
    person = django_user_model.objects.create_user("ana", email="ana@example.com")
    bot_user = django_user_model.objects.create_user("hexbot", email="hexbot@example.com", is_bot=True)
    bot, said, _api = start_example_bot("hextension_bot", asgi_live_server, bot_user)

    context = browser.new_context("desktop")
    log_in(context, asgi_live_server, person)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{asgi_live_server}/games/hextension/new/")
    page.get_by_label("Players:", exact=True).fill("2")
    page.get_by_label("Tiles per round:").select_option("3")
    page.get_by_role("button", name="Open the game").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = page.url
    game = Game.objects.get()
    assert game.status == Game.Status.OPEN and game.config["tiles_per_round"] == 3

    page.get_by_label("Invite a player by username").fill("hexbot")
    with page.expect_response(re.compile(r"/invite/$")):
        page.get_by_role("button", name="Invite", exact=True).click()
    wait_for_status(game, Game.Status.ACTIVE, BOT_SECONDS)  # the bot accepted and took the last seat
    assert game.seats.get(index=1).user == bot_user
    page.goto(game_url)

    for round_number in range(1, ROUNDS + 1):
        # The next round's form comes by the page's socket once the bot has moved too.
        place_by_clicking(page, round_number)
    wait_for_status(game, Game.Status.FINISHED, BOT_SECONDS)
    bot.join(timeout=BOT_SECONDS)
    assert not bot.is_alive(), f"the bot did not finish its game: {said}"
    assert f"game {game.pk} over" in said[-1] and not any("refused" in text for text in said), said
    assert [MoveEvent.objects.filter(game=game, seat=seat, kind="move").count() for seat in (0, 1)] == [ROUNDS, ROUNDS]

    page.goto(game_url)
    results = page.locator("table").filter(has_text="Best possible")
    scores = game.result["scores"]
    for name, seat in (("ana", 0), ("hexbot", 1)):
        row = results.locator("tr").filter(has_text=name)
        assert str(scores[seat]) in row.locator("td").nth(1).inner_text()
    assert results.locator("tr").filter(has_text="hexbot").locator(".bot-badge").inner_text() == "BOT"
    assert results.locator("tr").filter(has_text="ana").locator(".bot-badge").count() == 0
