"""Hextension pages with their sockets live (served by Daphne): a watcher sees who has moved
without losing a half-made choice, and a push that overtakes the answer to a submission never
makes the form vanish."""
import re

import pytest

from games import services, state_store
from games.hextension import engine as hextension
from games.models import Game
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SOCKET_OPEN = "document.addEventListener('hexsite:live-open', () => { window.gameSocketOpen = true })"
# Browser notifications, recorded instead of shown (the permission itself is granted for real).
NOTIFICATIONS = """
window.notes = [];
const RealNotification = window.Notification;
window.Notification = class { constructor(title, options) { window.notes.push(title + ': ' + options.body); } close() {} };
Object.defineProperty(window.Notification, 'permission', {get: () => RealNotification.permission});
window.Notification.requestPermission = () => RealNotification.requestPermission();
"""
MARK = "(\u2022) Your move \u2014 "


def two_player_game(ana, bo) -> Game:
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2},
                                players=[ana, bo], turn_seconds=86400)
    services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def open_game(browser, base_url: str, user, game: Game, viewport: str = "desktop"):
    """The game page of ``user``, once its socket is open."""
    # The test polls page state with script of its own, which the site's CSP (no eval) refuses.
    context = browser.new_context(viewport, bypass_csp=True)
    context.add_init_script(SOCKET_OPEN)
    context.add_init_script(NOTIFICATIONS)
    context.grant_permissions(["notifications"], origin=base_url)
    log_in(context, base_url, user)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base_url}/games/{game.pk}/")
    page.wait_for_function("window.gameSocketOpen === true")
    return page


def choose_cell(page, tile_index: int, option_index: int) -> str:
    select = page.locator("select.hx-select").nth(tile_index)
    value = select.locator("option:not([value=''])").nth(option_index).get_attribute("value")
    select.select_option(value)
    return value


def expect_answer(page) -> None:
    """Call before submitting: ``request_answered(page)`` then waits until htmx has handled the
    answer. Listened for on the form itself, which gets the event even once off the page."""
    page.evaluate("() => { window.answered = false; document.querySelector('form.hx-form')"
                  ".addEventListener('htmx:afterRequest', () => { window.answered = true }, {once: true}) }")


def request_answered(page) -> None:
    page.wait_for_function("window.answered === true")


def test_a_watcher_sees_who_moved_and_keeps_a_half_made_choice(asgi_live_server, browser, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = two_player_game(ana, bo)
    page = open_game(browser, asgi_live_server, bo, game)
    assert page.title() == f"{MARK}Hextension #{game.pk} · hexsite"  # a round is open for Bo
    first_cell = choose_cell(page, 0, 0)  # half-made: one tile of two has its cell

    drawn = hextension.view(state_store.load(game), 0)["drawn"]
    services.submit_move(game_id=game.pk, user=ana, expected_version=0,
                         move={"type": "place", "placements": dict(zip(drawn, ["E1", "E2"]))})

    progress = page.locator('#hx-progress[data-version="1"]')
    progress.wait_for()
    assert "Moved: ana." in progress.inner_text() and "1 of 2 have moved" in progress.inner_text()
    # Only the round's progress was sent: Bo's own board (and the choice being made on it) stayed.
    assert "hx-play" not in page.evaluate("window.hexsiteLivePage.shown()")
    assert page.locator("select.hx-select").nth(0).input_value() == first_cell
    assert "E1" not in progress.inner_text()

    # Bo finishes with the form of his board from before Ana's move: it closes the round.
    choose_cell(page, 1, 1)
    expect_answer(page)
    page.get_by_role("button", name="Submit round 1").click()
    request_answered(page)
    page.get_by_role("heading", name="Round 2 of 10").wait_for()
    assert page.locator("form.hx-form").count() == 1
    assert page.title().startswith(MARK)


def test_a_dropped_socket_shows_reconnecting_until_it_is_back(asgi_live_server, browser, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = two_player_game(ana, bo)
    sockets = []

    def through(socket):  # the page's socket, passed on to the server, kept to be cut
        socket.connect_to_server()
        sockets.append(socket)

    context = browser.new_context("phone", bypass_csp=True)
    context.add_init_script(SOCKET_OPEN)
    log_in(context, asgi_live_server, ana)
    page = context.new_page()
    page.route_web_socket(re.compile(r"/ws/games/"), through)
    page.goto(f"{asgi_live_server}/games/{game.pk}/")
    page.wait_for_function("window.gameSocketOpen === true")
    banner = page.locator("#socket-status")
    assert banner.is_hidden()

    page.evaluate("() => { window.gameSocketOpen = false }")
    sockets[-1].close(code=1012, reason="service restart")  # as when the server restarts
    banner.filter(has_text="Reconnecting").wait_for()
    page.wait_for_function("window.gameSocketOpen === true")  # live.js reconnected
    banner.wait_for(state="hidden")
    assert len(sockets) == 2


def test_the_form_survives_a_pushed_board_that_overtakes_the_answer_to_its_submission(asgi_live_server, browser, make_user):
    """The socket's board for the user's own move can arrive before the POST's answer. The answer
    then targets a board no longer on the page; swapping it let htmx's hx-preserve move the live
    form into the discarded answer, and the card kept only "You have submitted"."""
    ana, bo = make_user("ana"), make_user("bo")
    game = two_player_game(ana, bo)
    page = open_game(browser, asgi_live_server, ana, game, viewport="phone")
    page.get_by_role("button", name="Notify me when it is my move").click()
    page.get_by_role("button", name="Stop notifying me").wait_for()
    held = []
    # The server handles the move at once; its answer reaches the page only when released. The
    # request goes without the page's name, so the socket sends the board too (as it does when
    # its read of the game is already at a later move than the one answered).
    unnamed = lambda route: {k: v for k, v in route.request.all_headers().items() if k != "x-live-page"}  # noqa: E731
    page.route(re.compile(r"/games/\d+/move/$"), lambda route: held.append((route, route.fetch(headers=unnamed(route)))))
    choose_cell(page, 0, 0)
    choose_cell(page, 1, 1)
    expect_answer(page)
    page.evaluate("() => document.querySelector('form.hx-form').addEventListener('htmx:beforeSend', () => {"
                  " const b = document.querySelector('button[form=hx-form]');"
                  " window.busyWhenSent = b.disabled && b.getAttribute('aria-busy') === 'true' }, {once: true})")
    page.get_by_role("button", name="Submit round 1").click()
    assert page.evaluate("() => window.busyWhenSent") is True  # disabled and marked busy while on its way

    # The socket's board arrives first (the answer is held), with the submission in it.
    page.locator(".hx-play .notice", has_text="You have submitted").wait_for()
    for _ in range(200):  # the held answer's fetch may finish after the push (route handlers run as events are read)
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1 and held[0][1].status == 200
    submit = page.get_by_role("button", name="Submit round 1")
    assert page.title() == f"Hextension #{game.pk} · hexsite"  # moved: no longer Ana's move
    route, answer = held[0]
    route.fulfill(response=answer)
    request_answered(page)
    assert submit.is_enabled() and submit.get_attribute("aria-busy") is None

    assert page.locator("form.hx-form").count() == 1
    assert page.locator("form.hx-form").is_visible()
    assert page.locator("svg.hx-interactive").count() == 1
    assert page.get_by_role("button", name="Submit round 1").is_visible()
    assert Game.objects.get(pk=game.pk).version == 1

    # Bo closes the round: round 2 opens for Ana, who is told in the tab and by a notification.
    drawn = hextension.view(state_store.load(game), 1)["drawn"]
    services.submit_move(game_id=game.pk, user=bo, expected_version=1,
                         move={"type": "place", "placements": dict(zip(drawn, ["E1", "E2"]))})
    page.get_by_role("heading", name="Round 2 of 10").wait_for()
    assert page.title().startswith(MARK)
    assert page.evaluate("() => window.notes") == [f"Your move: Hextension #{game.pk}"]


def test_a_large_tables_whole_standings_load_when_opened_and_stay_open_over_a_close(asgi_live_server, browser, make_user):
    """Past ten players a round's close pushes the standings' first rows; "All N players" loads
    the whole table, and the next close keeps it open with that round's table in it."""
    from tests.support.factories import hextension_place

    users = [make_user(f"p{i:02}") for i in range(12)]
    game = services.create_game(kind="hextension", config={"players": 12, "tiles_per_round": 1},
                                players=users, turn_seconds=86400)
    services.start_game(game_id=game.pk)
    for seat, user in enumerate(users):
        hextension_place(game, user, seat)
    page = open_game(browser, asgi_live_server, users[0], game)
    standings = page.locator("#hx-standings")
    assert standings.locator("tr[data-seat]").count() == 10
    assert "Your rank:" in page.locator("#hx-play figcaption").inner_text()
    standings.get_by_text("All 12 players").click()
    whole = standings.locator(".hx-standings-body tr[data-seat]")
    whole.nth(11).wait_for()
    assert whole.count() == 12 and standings.locator(".hx-standings-body tr.is-viewer").count() == 1

    for seat, user in enumerate(users):  # round 2 closes while the table is open
        hextension_place(game, user, seat)
    page.get_by_role("heading", name="Round 3 of 19").wait_for()
    assert standings.locator("details.hx-standings-all").get_attribute("open") is not None
    whole.nth(11).wait_for()
    assert whole.count() == 12
