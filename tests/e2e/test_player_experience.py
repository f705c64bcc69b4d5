"""In the browser: a Hextension diagram enlarges by click and keyboard, and the invitation link
of a waiting game is copied by its button."""
import pytest
from playwright.sync_api import expect

from games import services, state_store
from games.hextension import engine as hextension
from games.models import Game
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _width(page, selector):
    return page.locator(selector).bounding_box()["width"]


def test_a_diagram_enlarges_on_a_click_and_on_enter_and_escape_shrinks_it(live_server, browser, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2}, created_by=ana,
                                players=[ana, bo], join=False, turn_seconds=86400)
    services.start_game(game_id=game.pk)
    for seat, user in enumerate([ana, bo]):
        game.refresh_from_db()
        move = hextension.legal_moves(state_store.load(game), seat)[seat]
        services.submit_move(game_id=game.pk, user=user, move=move, expected_version=game.version)
    context = browser.new_context("desktop")
    log_in(context, live_server.url, ana)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator("#hx-diagrams").scroll_into_view_if_needed()  # the diagrams load when they come into view
    first = ".hx-diagram-card:nth-child(1) svg.hx-diagram"
    small = _width(page, first)
    assert small >= 220  # readable before any click (issue #31)
    page.locator(".hx-diagram-card:nth-child(1) .hx-zoom > summary").click()
    assert _width(page, first) > 2 * small
    assert page.locator(".hx-diagram-card:nth-child(1) .hx-zoom-note").is_visible()
    page.keyboard.press("Escape")
    assert abs(_width(page, first) - small) < 2
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    # the keyboard alone: the second diagram, then Enter; opening one shrinks the other
    page.locator(".hx-diagram-card:nth-child(2) .hx-zoom > summary").focus()
    page.keyboard.press("Enter")
    second = ".hx-diagram-card:nth-child(2) svg.hx-diagram"
    assert _width(page, second) > 2 * small
    page.locator(".hx-diagram-card:nth-child(1) .hx-zoom > summary").click()
    # hextension.js closes the other on the toggle event, which comes after the click returns
    expect(page.locator("details.hx-zoom[open]")).to_have_count(1)
    assert _width(page, first) > 2 * small
    # the legend explains the marks round the edge
    page.get_by_text("How to read the diagrams").click()
    assert page.get_by_text("A dark circle: the line can no longer score").is_visible()
    assert errors == []
    context.close()


def test_the_invitation_link_is_copied_by_its_button(live_server, browser, make_user):
    ana = make_user("ana")
    game = services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 2}, created_by=ana,
                                visibility="private", turn_seconds=86400)
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    log_in(context, live_server.url, ana)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    link = page.locator("#invite-link").input_value()
    assert link.endswith(f"/games/join/{game.invite_token}/")
    page.get_by_role("button", name="Copy").click()
    page.get_by_text("Copied.").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == link
    context.close()


def test_without_javascript_the_link_is_a_selectable_field(live_server, browser, make_user):
    ana = make_user("ana")
    game = services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 2}, created_by=ana,
                                visibility="private", turn_seconds=86400)
    context = browser.new_context(java_script_enabled=False)
    log_in(context, live_server.url, ana)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("#invite-link").is_visible() and not page.get_by_role("button", name="Copy").is_visible()
    context.close()


def test_a_replay_steps_with_the_keyboard(live_server, browser, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 3}, created_by=ana,
                                players=[ana, bo], join=False, turn_seconds=86400)
    services.start_game(game_id=game.pk)
    for _ in range(2):
        for seat, user in enumerate([ana, bo]):
            game.refresh_from_db()
            move = hextension.legal_moves(state_store.load(game), seat)[0]
            services.submit_move(game_id=game.pk, user=user, move=move, expected_version=game.version)
    context = browser.new_context()
    log_in(context, live_server.url, ana)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?at=0")
    assert "Before the first round" in page.content()
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**?at=1")
    page.keyboard.press("PageDown")  # the next round begins after both have moved
    page.wait_for_url("**?at=2")
    assert "Diagrams after round 1" in page.content()
    page.keyboard.press("End")  # a running game: as far as the closed rounds go
    page.wait_for_url("**?at=4")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**?at=3")
    page.keyboard.press("Home")
    page.wait_for_url("**?at=0")
    # typing in the "Go to move" field is not taken for a step
    page.locator("#replay-at").fill("2")
    page.locator("#replay-at").press("ArrowLeft")
    assert page.url.endswith("?at=0")
    assert errors == []
    context.close()


def test_hextremadura_and_hexland_replays_step_without_script_errors(live_server, browser, make_user):
    import random

    from games.hexland import engine as hexland
    from games.hextremadura import engine as hextremadura

    ana, bo = make_user("ana"), make_user("bo")
    solo = services.create_game(kind="hextremadura", config={}, created_by=ana, visibility="private")
    if Game.objects.get(pk=solo.pk).status == Game.Status.OPEN:
        services.start_game(game_id=solo.pk)
    for version in range(3):
        move = hextremadura.legal_moves(state_store.load(Game.objects.get(pk=solo.pk)), 0)[0]
        services.submit_move(game_id=solo.pk, user=ana, move=move, expected_version=version)
    room = services.create_game(kind="hexland", config={"players": 2, "layout": "fixed", "timers": "normal"},
                                created_by=ana, players=[ana, bo], join=False, turn_seconds=120)
    services.start_game(game_id=room.pk)
    rng, users = random.Random(5), {0: ana, 1: bo}
    for _ in range(8):
        game = Game.objects.get(pk=room.pk)
        seat = game.awaiting[0]
        moves = [m for m in hexland.view(state_store.load(game), seat)["legal_moves"] if m["type"] != "offer"]
        services.submit_move(game_id=room.pk, user=users[seat], move=rng.choice(moves), expected_version=game.version)
    context = browser.new_context()
    log_in(context, live_server.url, ana)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(f"{live_server.url}/games/{solo.pk}/replay/?at=0")
    assert page.locator(".hxt-map-frame .hxt-tile").count() == 0
    for placed in (1, 2):
        page.keyboard.press("ArrowRight")
        page.wait_for_url(f"**?at={placed}")
        assert page.locator(".hxt-map-frame .hxt-tile").count() == placed
    assert page.get_by_role("heading", name="Objectives").is_visible()
    page.goto(f"{live_server.url}/games/{room.pk}/replay/?at=0")
    page.keyboard.press("End")
    page.wait_for_url("**?at=8")
    assert page.locator("[data-owner]").count() == 1 and page.locator('[data-owner="0"]').count() == 1
    assert errors == []
    context.close()
