"""The live page in Chromium, served by Daphne with its sockets: a push never wipes what a
player is typing, an older push never undoes a newer answer, a click from a page a few events
behind is played when it still means the same, the page reconnects after any close and after a
cut network, and a Hexland turn's controls are in view at a desktop's and a phone's size.

Positions are reached by playing scripted moves through the services: the engine is replayed
from the room's own seed until the position wanted comes up (a 7 that makes both seats
discard, a trade two players can make)."""
from __future__ import annotations

import re

import pytest

from games import services, state_store
from games.models import Game, MoveEvent
from games.sites import get_engine
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SOCKET_OPEN = "document.addEventListener('hexsite:live-open', () => { window.liveOpens = (window.liveOpens || 0) + 1 })"
NO_SOCKET = "delete window.WebSocket"  # a page that never hears a push: it stays where it was drawn


def scripted_moves(engine, state, goal, limit=150):
    """Roll, end turns and else take the first legal move until ``goal(state)``: the moves."""
    moves = []
    for _ in range(limit):
        if goal(state):
            return moves
        seat = min(engine.actors(state))
        legal = engine.legal_moves(state, seat)
        legal = [m for m in legal if m["type"] != "offer"]
        move = (next((m for m in legal if m["type"] == "roll"), None)
                or next((m for m in legal if m["type"] == "end_turn"), None) or legal[0])
        state = engine.apply(state, seat, move)
        moves.append((seat, move))
    return None


def room_at(users, goal, **config) -> Game:
    """A started Hexland room of ``users`` (seat order as given) brought to a position where
    ``goal(state)`` holds, trying seeds until one gets there."""
    engine = get_engine("hexland")
    for seed in range(1, 400):
        game = services.create_game(kind="hexland", config={"players": len(users), "layout": "fixed",
                                                             "order": list(range(len(users))), **config},
                                    created_by=users[0], players=users, join=False, turn_seconds=3600, seed=seed)
        services.start_game(game_id=game.pk)
        game.refresh_from_db()
        moves = scripted_moves(engine, state_store.load(game), goal)
        if moves is None:
            continue
        for seat, move in moves:
            game.refresh_from_db()
            services.submit_move(game_id=game.pk, user=users[seat], move=move, expected_version=game.version)
        game.refresh_from_db()
        return game
    raise AssertionError("no seed reaches the position")


def move_now(game: Game, user, seat: int, pick=lambda moves: moves[0]) -> None:
    game.refresh_from_db()
    engine = get_engine("hexland")
    move = pick(engine.legal_moves(state_store.load(game), seat))
    services.submit_move(game_id=game.pk, user=user, move=move, expected_version=game.version)


def open_page(browser, base_url: str, user, game: Game, *, preset="desktop", socket=True, **options):
    context = browser.new_context(preset, bypass_csp=True, **options)  # the test polls with scripts of its own
    context.add_init_script(SOCKET_OPEN if socket else NO_SOCKET)
    log_in(context, base_url, user)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base_url}/games/{game.pk}/")
    if socket:
        page.wait_for_function("window.liveOpens >= 1")
    return page


def stamp(page) -> str:
    return page.evaluate("window.hexsiteLivePage.stamp()")


def wait_for_stamp_after(page, before: str) -> None:
    page.wait_for_function(f"window.hexsiteLivePage.stamp() !== {before!r}")


def phase(state) -> str:
    return get_engine("hexland").view(state, None)["phase"]


def both_discard(state) -> bool:
    owed = get_engine("hexland").view(state, None)["discards"]
    return phase(state) == "discard" and owed[0] >= 2 and owed[1] >= 1


def test_a_push_keeps_a_half_typed_discard_and_an_older_push_never_wins(asgi_live_server, browser, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = room_at([ana, bo], both_discard, discard_limit=2)
    page = open_page(browser, asgi_live_server, ana, game)
    opened_at = game.version
    form = page.locator("form.hl-discard")
    owed = int(re.search(r"Discard (\d+)", form.inner_text()).group(1))
    field = form.locator("input[type=number]:not([max='0'])").first
    field.fill("1")  # half typed: one card of two or more
    before = stamp(page)

    while 1 in Game.objects.get(pk=game.pk).awaiting:
        move_now(game, bo, 1)  # Bo discards meanwhile, a card at a time: pushes for every page
    game.refresh_from_db()
    page.wait_for_function(f"window.hexsiteLivePage.stamp().startsWith('{game.version}.')")
    assert page.locator('#hl-players [data-seat="1"] .hl-owes').count() == 0  # the push was applied...
    assert field.input_value() == "1"  # ...and kept what Ana typed
    assert form.locator('input[name="version"]').count() == 1

    # An older push arriving late never takes a region back.
    page.evaluate("""window.hexsiteLivePage.apply({type: 'regions', stamp: '1.0', regions: [
        {id: 'hl-public', html: '<div id="hl-public">an older push</div>', digest: 'older'}]})""")
    assert "an older push" not in page.locator("#hl-public").inner_text()

    # Ana finishes her discard: the answer replaces the form, and says nothing went wrong.
    left = owed - 1
    for other in form.locator("input[type=number]").all():
        if left == 0:
            break
        room = int(other.get_attribute("max")) - int(other.input_value() or 0)
        take = min(left, room)
        if take:
            other.fill(str(int(other.input_value() or 0) + take))
            left -= take
    with page.expect_response(re.compile(r"/move/$")) as answer:
        form.get_by_role("button", name="Discard").click()
    assert answer.value.status == 200
    page.locator("form.hl-discard").wait_for(state="detached")
    assert page.locator("[data-live-note].error").count() == 0
    assert MoveEvent.objects.filter(game=game, seat=0, seq__gt=opened_at, payload__type="discard").count() == 1


def trade_ready(state) -> bool:
    """Ana's turn, trade and build, with a card to give that Bo does not need to have."""
    if phase(state) != "main" or state.cur != 0:
        return False
    engine = get_engine("hexland")
    ana, bo = engine.view(state, 0)["you"]["hand"], engine.view(state, 1)["you"]["hand"]
    return any(ana[a] and bo[b] and a != b for a in ana for b in bo)


def test_a_still_legal_click_from_a_page_a_few_events_behind_is_played(asgi_live_server, browser, make_user):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    game = room_at([ana, bo, cy], trade_ready)
    engine = get_engine("hexland")
    state = state_store.load(game)
    hand_a, hand_b = engine.view(state, 0)["you"]["hand"], engine.view(state, 1)["you"]["hand"]
    give, get = next((a, b) for a in hand_a for b in hand_b if hand_a[a] and hand_b[b] and a != b)
    services.submit_move(game_id=game.pk, user=ana, move={"type": "offer", "give": {give: 1}, "get": {get: 1}},
                         expected_version=game.version)
    move_now(game, bo, 1, lambda moves: next(m for m in moves if m["type"] == "accept"))
    page = open_page(browser, asgi_live_server, ana, game, socket=False)  # it shows Bo's acceptance
    move_now(game, cy, 2, lambda moves: next(m for m in moves if m["type"] == "decline"))  # the page misses this
    with page.expect_response(re.compile(r"/move/$")) as answer:
        page.get_by_role("button", name="Trade with bo").click()
    assert answer.value.status == 200, answer.value.text()
    assert MoveEvent.objects.filter(game=game).order_by("-seq").first().payload == {"type": "confirm", "seat": 1}
    assert page.locator("[data-live-note].error").count() == 0


def test_the_page_reconnects_after_a_close_1001_and_after_a_cut_network(asgi_live_server, browser, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = room_at([ana, bo], lambda state: phase(state) == "roll" and state.cur == 1)
    routes = []

    def route(ws):
        ws.connect_to_server()  # frames pass through both ways
        routes.append(ws)

    context = browser.new_context("desktop", bypass_csp=True)
    context.add_init_script(SOCKET_OPEN)
    context.route_web_socket(re.compile(r"/ws/games/"), route)
    log_in(context, asgi_live_server, ana)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(f"{asgi_live_server}/games/{game.pk}/")
    page.wait_for_function("window.liveOpens >= 1")
    page.evaluate("""() => { const banner = document.getElementById('socket-status'); window.bannerShown = false;
        new MutationObserver(() => { if (!banner.hidden) window.bannerShown = true; })
            .observe(banner, {attributes: true, childList: true, characterData: true, subtree: true}); }""")

    # The server goes away (close code 1001, as a restart does); Bo rolls meanwhile.
    before = stamp(page)
    routes[-1].close(code=1001, reason="going away")
    move_now(game, bo, 1, lambda moves: next(m for m in moves if m["type"] == "roll"))
    page.wait_for_function("window.liveOpens >= 2")
    wait_for_stamp_after(page, before)
    assert page.evaluate("window.bannerShown") and page.locator("#socket-status").is_hidden()

    # The network is cut: the banner says so at once; Bo plays on; back online, the page resyncs.
    board_top = page.locator("#live-game").bounding_box()["y"]
    page.evaluate("window.bannerShown = false")
    context.set_offline(True)
    page.wait_for_function("window.bannerShown")
    assert "Reconnecting" in page.locator("#socket-status").inner_text()
    assert page.locator("#live-game").bounding_box()["y"] == board_top  # the banner floats: nothing moves
    before = stamp(page)
    game.refresh_from_db()
    while game.awaiting == [1]:
        move_now(game, bo, 1, lambda moves: next((m for m in moves if m["type"] == "end_turn"), moves[0]))
        game.refresh_from_db()
    page.wait_for_timeout(500)
    assert stamp(page) == before  # nothing can arrive while offline
    context.set_offline(False)
    wait_for_stamp_after(page, before)
    page.locator("#socket-status").wait_for(state="hidden")
    assert page.locator("#game-status[data-your-move]").count() == 1  # Ana's turn has come


SIZES = {"desktop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height and box["height"] > 0


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_hand_and_the_turn_buttons_are_in_view_in_every_phase_of_a_turn(asgi_live_server, browser, make_user, size):
    ana, bo = make_user("ana"), make_user("bo")
    game = room_at([ana, bo], lambda state: phase(state) == "setup_settlement" and state.cur == 0 and state.step > 1)
    page = open_page(browser, asgi_live_server, ana, game, preset=size)
    page.set_viewport_size(SIZES[size])
    page.context._hexsite_width = SIZES[size]["width"]  # the page checks' idea of the window's width
    engine = get_engine("hexland")

    def check(*controls):
        page.reload()
        page.wait_for_function("window.liveOpens >= 1")
        page.screenshot(path=f"/tmp/layout-{size}-{'-'.join(controls) or 'setup'}.png")
        assert in_view(page, page.locator("ul.hl-hand")), f"the hand, {size}"
        for name in controls:
            button = page.get_by_role("button", name=name)
            assert in_view(page, button), f"{name}, {size}"

    check()  # a setup placement: the hand and the panel
    assert in_view(page, page.locator("section.hl-moves h3")), f"the moves panel, {size}"
    for seat, move in scripted_moves(engine, state_store.load(game), lambda s: phase(s) == "roll" and s.cur == 0):
        game.refresh_from_db()
        services.submit_move(game_id=game.pk, user=(ana, bo)[seat], move=move, expected_version=game.version)
    check("Roll the dice")
    for seat, move in scripted_moves(engine, state_store.load(Game.objects.get(pk=game.pk)),
                                     lambda s: phase(s) == "main" and s.cur == 0):
        game.refresh_from_db()
        services.submit_move(game_id=game.pk, user=(ana, bo)[seat], move=move, expected_version=game.version)
    check("End your turn")
