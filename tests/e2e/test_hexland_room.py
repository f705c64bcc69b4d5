"""Two people and two AI seats play a whole Hexland room through the pages: a room is created
with AI seats, the second player joins by its invitation link, both play by clicking the board
and the action panel (the AI seats move through a real Celery worker), a spectator watches,
the chat carries a message, and the game ends with its final scores and a replay."""
import re

import pytest

from games.models import ChatMessage, Game
from tests.e2e.accounts import sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def take_a_turn(page, game_url: str) -> bool:
    """Make one move if the page says it is this player's: a highlighted place of the board,
    else the discard form, else the first button of the action panel. False if not their move."""
    page.goto(game_url)
    panel = page.locator("section.hl-moves")
    if panel.count() == 0:
        return False
    target = page.locator("svg .hl-target[data-move]")
    if target.count():
        with page.expect_response(re.compile(r"/move/$")):
            target.first.dispatch_event("click")
        return True
    discard = panel.locator("form.hl-discard")
    if discard.count():
        owed = int(re.search(r"Discard (\d+)", discard.inner_text()).group(1))
        for field in discard.locator("input[type=number]").all():
            take = min(owed, int(field.get_attribute("max")))
            field.fill(str(take))
            owed -= take
        with page.expect_response(lambda response: response.request.method == "POST"):
            discard.get_by_role("button", name="Discard").click()
        return True
    buttons = panel.locator(".hl-buttons button")
    preferred = [name for name in ("Roll the dice", "Decline the offer", "End your turn") if buttons.filter(has_text=name).count()]
    button = buttons.filter(has_text=preferred[0]).first if preferred else panel.locator("button").first
    with page.expect_response(lambda response: response.request.method == "POST"):
        button.click()
    return True


def test_two_people_and_two_ai_play_a_room_to_the_end(live_server, browser, celery_worker_thread, settings):
    settings.GAME_AI_DELAY_SECONDS = 0
    # Ana plays at desktop width, Bo and Eve on phones: the flow at both widths in one room.
    ana, bo, eve = (browser.new_context(viewport).new_page() for viewport in ("desktop", "phone", "phone"))
    for page in (ana, bo, eve):
        page.set_default_timeout(20_000)
    sign_up(ana, live_server.url, "ana")
    sign_up(bo, live_server.url, "bo")
    sign_up(eve, live_server.url, "eve")

    ana.goto(f"{live_server.url}/games/hexland/")
    ana.get_by_role("link", name="Create a room").click()
    ana.get_by_label("Visibility:").select_option("private")
    ana.get_by_label("Seats:").select_option("4")
    ana.get_by_label("Seat 3:").select_option("easy")
    ana.get_by_label("Seat 4:").select_option("easy")
    ana.get_by_label("Points to win:").fill("3")  # the fewest: a whole game, soon over
    ana.get_by_role("button", name="Create the room").click()
    ana.wait_for_url(re.compile(r"/games/\d+/$"))
    game_url = ana.url
    assert "Seats" in ana.content() and "AI (easy)" in ana.content()
    invite = live_server.url + re.search(r"/games/join/[\w-]+/", ana.content()).group(0)

    bo.goto(invite)
    bo.get_by_role("button", name="Take a seat").click()
    bo.wait_for_url(game_url)
    game = Game.objects.get()
    assert game.status == Game.Status.ACTIVE and game.config["names"] == ["ana", "bo", "AI (easy)", "AI (easy)"]

    ana.goto(game_url)
    # The players panel is drawn once for every viewer; each sees "you" on their own row only.
    for viewer, seat in ((ana, "0"), (bo, "1")):
        you = viewer.locator("#hl-players .hl-you-badge:visible")
        assert you.count() == 1 and you.locator("xpath=ancestor::li[1]").get_attribute("data-seat") == seat
    ana.get_by_label("Message").fill("good luck, everyone")
    with ana.expect_response(re.compile(r"/chat/$")):  # networkidle may already have been reached
        ana.get_by_role("button", name="Send").click()
    assert ChatMessage.objects.get().text == "good luck, everyone"

    eve.goto(game_url)  # a private room: a stranger may not watch
    assert "only its players can see it" in eve.content()

    for _ in range(400):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        moved = take_a_turn(ana, game_url) or take_a_turn(bo, game_url)
        if not moved:
            ana.wait_for_timeout(200)  # the AI seats are thinking
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, "the room did not finish"
    bo.goto(game_url)
    assert "good luck, everyone" in bo.content()
    final = bo.locator("section.hl-final")
    assert "Final scores" in final.inner_text()
    winner = game.result["winner"]
    assert final.locator("tr.hl-final-first th").inner_text().startswith(game.config["names"][winner])
    bo.get_by_role("link", name="Replay it move by move").click()
    bo.get_by_role("link", name="Next").click()
    assert "After move <strong>1</strong>" in bo.content()
