"""The game's chat in two tabs of one player (issue 45, item 6): a message half typed in one tab
survives every push, the player's own message sent from the other tab included, while the tab
that sent it gets its field cleared."""
from __future__ import annotations

import re

import pytest

from games import services
from games.services import chat
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_half_typed_message_survives_the_same_players_message_from_another_tab(asgi_live_server, browser, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = services.create_game(kind="hexland", config={"players": 2, "layout": "fixed", "order": [0, 1]},
                                created_by=ana, players=[ana, bo], join=False, turn_seconds=3600, seed=1)
    services.start_game(game_id=game.pk)
    context = browser.new_context("desktop")
    # Init scripts are not subject to the site's CSP; a wait_for_function predicate would be (unsafe-eval).
    context.add_init_script("document.addEventListener('hexsite:live-open', () => { document.documentElement.dataset.liveOpen = '1' })")
    log_in(context, asgi_live_server, ana)
    typing, sending = context.new_page(), context.new_page()
    for page in (typing, sending):
        page.set_default_timeout(15_000)
        page.goto(f"{asgi_live_server}/games/{game.pk}/")
        page.locator("html[data-live-open]").wait_for(state="attached")

    typing.get_by_label("Message").fill("half a thought")
    typing.get_by_role("heading", name="Chat").click()  # the player looks elsewhere: the field is not focused
    sending.get_by_label("Message").fill("from the other tab")
    with sending.expect_response(re.compile(r"/chat/$")):
        sending.get_by_role("button", name="Send").click()
    for page in (sending, typing):  # the push reaches both tabs
        page.locator("#game-chat .chat-text", has_text="from the other tab").wait_for()
    assert sending.get_by_label("Message").input_value() == ""
    assert typing.get_by_label("Message").input_value() == "half a thought"

    # Another player's message keeps it too; and once sent, the typing tab's field is cleared.
    chat.post_message(game_id=game.pk, user=bo, text="hello from bo")
    typing.locator("#game-chat .chat-text", has_text="hello from bo").wait_for()
    assert typing.get_by_label("Message").input_value() == "half a thought"
    with typing.expect_response(re.compile(r"/chat/$")):
        typing.get_by_role("button", name="Send").click()
    typing.locator("#game-chat .chat-text", has_text="half a thought").wait_for()
    assert typing.get_by_label("Message").input_value() == ""
