"""The turns of a game's life on a page left open, in Chromium under the site's real CSP: the
host's page of an open game becomes the running game's page when the last seat is taken, a
rematch asked or joined from the old page takes the player to it, a finished game offers no
notifications, and a move sent again from a second tab says why nothing moved."""
from __future__ import annotations

import time

import pytest

from games import realtime, services, state_store
from games.models import Game
from games.sites import get_engine
from tests.e2e.conftest import log_in
from tests.support.factories import hexland_room

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Init scripts are not subject to the site's CSP; the test's own waits are selectors or evaluate()
# (a wait_for_function predicate is evaluated as a string, which the CSP refuses).
SOCKET_OPEN = "document.addEventListener('hexsite:live-open', () => { document.documentElement.dataset.liveOpen = '1' })"


def until(page, script: str, timeout_s: float = 15.0) -> None:
    """Poll ``script`` (an expression) in the page until it is true."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(script):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout_s} s: {script}")
        page.wait_for_timeout(50)


def open_page(browser, base_url: str, user, path: str, viewport: str = "desktop"):
    context = browser.new_context(viewport)  # the site's CSP holds: the checks report any violation
    context.add_init_script(SOCKET_OPEN)
    log_in(context, base_url, user)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(base_url + path)
    page.locator("html[data-live-open]").wait_for(state="attached")
    page.evaluate("window.drawnOnce = true")  # gone if the page is loaded again
    return page


def test_the_hosts_open_page_becomes_the_running_games_page_when_the_last_seat_is_taken(asgi_live_server, browser, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 1}, created_by=ana,
                                turn_seconds=3600)
    page = open_page(browser, asgi_live_server, ana, f"/games/{game.pk}/")
    assert page.locator("#hx-play").count() == 0 and page.locator("#game-waiting .seat-list").count() == 1

    services.join_game(game_id=game.pk, user=bo)  # the game starts
    page.locator("#hx-play form").wait_for()  # the board and the placement form, without a reload
    assert page.evaluate("window.drawnOnce === true")
    assert page.locator("#game-waiting .seat-list").count() == 0
    assert page.locator("#game-status .your-move").is_visible()
    assert page.get_by_role("button", name="Notify me when it is my move").count() == 1
    page.locator('#live-game[data-layout="active.1.1"]').wait_for(state="attached")

    until(page, "window.hextensionBoard === true")  # the board's own script runs on the new layout

    # The game ends (as staff would end it): the page is the finished game's.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, deadline_at=None, revision=game.revision + 5,
                                           result={"winner": 0, "scores": [10, 5], "ranks": [1, 2]})
    realtime.announce_version(game.pk, Game.objects.get(pk=game.pk).version)
    page.locator("#game-status .badge", has_text="Finished").wait_for()
    until(page, "!document.getElementById('notify-choice')")  # nothing to notify about any more


def test_a_rematch_asked_and_joined_from_the_old_page_takes_each_player_to_it(asgi_live_server, browser, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = hexland_room(ana, bo)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, deadline_at=None,
                                           result={"winner": 0, "scores": [10, 5], "ranks": [1, 2]})
    host = open_page(browser, asgi_live_server, ana, f"/games/{game.pk}/")
    guest = open_page(browser, asgi_live_server, bo, f"/games/{game.pk}/", viewport="phone")

    host.get_by_role("button", name="Rematch with the same seats").click()
    host.wait_for_url(f"**/games/{game.pk + 1}/")
    rematch = Game.objects.get(rematch_of=game)
    assert host.url.endswith(f"/games/{rematch.pk}/")
    host.get_by_text("The rematch is open: the other players are invited").wait_for()
    host.locator("html[data-live-open]").wait_for(state="attached")
    host.evaluate("window.drawnOnce = true")

    guest.get_by_role("button", name="Join the rematch").click()  # pushed to the old page
    guest.wait_for_url(f"**/games/{rematch.pk}/")
    guest.get_by_text("You have joined the rematch: it has started.").wait_for()
    # The host's page of the rematch, drawn while it was open, is now the running room's.
    host.locator("#hl-board").wait_for()
    assert host.evaluate("window.drawnOnce === true")


def test_a_roll_sent_again_from_a_second_tab_says_why_nothing_moved(asgi_live_server, browser, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = hexland_room(ana, bo, order=[0, 1])
    engine = get_engine("hexland")
    while True:  # the setup placements, until ana is to roll
        game.refresh_from_db()
        state = state_store.load(game)
        seat = min(engine.actors(state))
        legal = engine.legal_moves(state, seat)
        if any(move["type"] == "roll" for move in legal):
            break
        services.submit_move(game_id=game.pk, user=(ana, bo)[seat], move=legal[0], expected_version=game.version)
    assert seat == 0
    first = open_page(browser, asgi_live_server, ana, f"/games/{game.pk}/")
    second = first.context.new_page()
    second.set_default_timeout(15_000)
    second.add_init_script("delete window.WebSocket")  # a tab that hears nothing: it stays behind
    second.goto(f"{asgi_live_server}/games/{game.pk}/")

    first.get_by_role("button", name="Roll the dice").click()
    until(first, f"window.hexsiteLivePage.stamp() !== '{game.version}.{game.revision}'")
    second.get_by_role("button", name="Roll the dice").click()
    note = second.locator("[data-live-note]")
    note.wait_for()
    assert "already been played, from another tab" in note.inner_text()
    assert Game.objects.get(pk=game.pk).version == game.version + 1
    assert second.evaluate("window.hexsiteLivePage.stamp()").startswith(f"{game.version + 1}.")  # and shows the roll
