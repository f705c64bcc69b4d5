"""What the live page's own requests are answered at the turns of a game's life: a request that
leads to another page (a rematch, leaving or cancelling) tells the browser to go there, one that
stays on the game answers its regions and a note, a move sent again from a second tab says why
nothing moved, and every status bar names the page layout it belongs to, so a page drawn for
another layout (an open game that has started, a game that has ended) reads itself again."""
from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games import live, selectors, services, state_store
from games.models import Game
from games.sites import get_engine
from tests.support.factories import hexland_room

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def finished(game: Game) -> Game:
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, deadline_at=None,
                                           result={"winner": 0, "scores": [10, 5], "ranks": [1, 2]})
    game.refresh_from_db()
    return game


def test_a_rematch_asked_from_the_live_page_sends_the_browser_to_the_new_game(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = finished(hexland_room(ana, bo))
    client.force_login(ana)
    asked = client.post(reverse("game_rematch", args=[game.pk]), **HTMX)
    rematch = Game.objects.get(rematch_of=game)
    assert asked.status_code == 200 and asked["HX-Redirect"] == reverse("game_detail", args=[rematch.pk])
    client.force_login(bo)
    joined = client.post(reverse("game_rematch", args=[game.pk]), **HTMX)
    assert joined["HX-Redirect"] == reverse("game_detail", args=[rematch.pk])
    # The note waits on the new game's page.
    assert "You have joined the rematch: it has started." in client.get(joined["HX-Redirect"]).content.decode()
    # Without JavaScript: a plain redirect, as before.
    client.force_login(ana)
    assert client.post(reverse("game_rematch", args=[game.pk]))["Location"] == reverse("game_detail", args=[rematch.pk])


def test_leaving_or_cancelling_from_the_live_page_sends_the_browser_to_the_dashboard(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    room = services.create_game(kind="hexland", config={"players": 3, "layout": "fixed"}, created_by=ana,
                                turn_seconds=120)
    services.join_game(game_id=room.pk, user=bo)
    client.force_login(bo)
    left = client.post(reverse("game_leave", args=[room.pk]), **HTMX)
    assert left["HX-Redirect"] == reverse("dashboard")
    client.force_login(ana)
    cancelled = client.post(reverse("game_cancel", args=[room.pk]), **HTMX)
    assert cancelled["HX-Redirect"] == reverse("dashboard")
    assert Game.objects.get(pk=room.pk).status == Game.Status.CANCELLED


def test_resigning_from_the_live_page_answers_the_regions_with_a_note_and_leaves_no_message_behind(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = hexland_room(ana, bo)
    client.force_login(ana)
    answer = client.post(reverse("game_resign", args=[game.pk]), **HTMX)
    body = answer.json()
    assert body["type"] == "regions" and body["notice"].startswith("You have resigned")
    assert {region["id"] for region in body["regions"]} >= {"game-status"}
    # The note was shown beside the control: it does not turn up again on the next page.
    assert "You have resigned" not in client.get(reverse("dashboard")).content.decode()


def test_a_move_sent_again_from_a_second_tab_is_answered_with_why_nothing_moved(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = hexland_room(ana, bo, order=[0, 1])
    engine = get_engine("hexland")
    version = game.version
    move = engine.legal_moves(state_store.load(game), 0)[0]  # her first setup placement
    client.force_login(ana)
    first = client.post(reverse("game_move", args=[game.pk]), {"move": json.dumps(move), "version": version}, **HTMX)
    assert first.status_code == 200 and "notice" not in first.json()
    # The second tab still shows the version before it, and sends the same move.
    again = client.post(reverse("game_move", args=[game.pk]), {"move": json.dumps(move), "version": version}, **HTMX)
    assert again.status_code == 200
    assert "already been played, from another tab" in again.json()["notice"]
    assert Game.objects.get(pk=game.pk).version == version + 1  # once


def _layout_of(html: str, element_id: str) -> str:
    match = re.search(r'<div id="%s"[^>]*data-layout="([^"]+)"' % element_id, html)
    assert match, f"#{element_id} carries no data-layout"
    return match.group(1)


def test_the_status_bar_names_the_layout_a_reload_would_draw_at_each_turn_of_a_game(client, make_user):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    game = services.create_game(kind="hextension", config={"players": 2}, created_by=ana, turn_seconds=3600)
    client.force_login(ana)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert _layout_of(page, "live-game") == _layout_of(page, "game-status") == "open.1.1"

    services.join_game(game_id=game.pk, user=bo)  # the last seat: the game starts
    game = selectors.game_for_viewer(game.pk, ana)
    pushed = live.draw(live.LiveView(game, ana), live.STATUS).html
    assert _layout_of(pushed, "game-status") == "active.1.1"  # not the open page's: it reads itself again
    reloaded = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert _layout_of(reloaded, "live-game") == "active.1.1"
    assert 'id="hx-play"' in reloaded  # the board a page drawn while open did not have

    client.force_login(cy)  # a spectator's layout differs from a player's
    watched = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert _layout_of(watched, "live-game") == _layout_of(watched, "game-status") == "active.1.0"

    finished(game)
    game = selectors.game_for_viewer(game.pk, ana)
    assert _layout_of(live.draw(live.LiveView(game, ana), live.STATUS).html, "game-status") == "finished.1.1"
    client.force_login(ana)
    ended = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Notify me when it is my move" not in ended


def test_a_game_called_off_before_its_start_says_so_and_draws_no_board(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    for kind, config in (("hexland", {"players": 3, "layout": "fixed"}), ("hextension", {"players": 3})):
        game = services.create_game(kind=kind, config=config, created_by=ana, turn_seconds=3600)
        services.join_game(game_id=game.pk, user=bo)
        services.cancel_game(game_id=game.pk, by_user=ana)
        client.force_login(bo)
        page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
        assert _layout_of(page, "live-game") == _layout_of(page, "game-status") == "cancelled.1.1"
        assert "The host called this game off before it started." in page
        assert 'id="hl-head"' not in page and 'id="hx-play"' not in page  # no board of a game never played


def test_the_report_links_follow_the_seats_as_a_region_of_their_own(make_user):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    room = services.create_game(kind="hexland", config={"players": 3, "layout": "fixed"}, created_by=ana,
                                turn_seconds=120)
    game = selectors.game_for_viewer(room.pk, ana)
    before = live.LiveView(game, ana)
    assert "Report" not in live.draw(before, live.REPORTS).html  # nobody else to report yet
    sent = live.current_keys(before)

    services.join_game(game_id=room.pk, user=bo)
    after = live.LiveView(selectors.game_for_viewer(room.pk, ana), ana)
    pushed = {drawn.id: drawn.html for drawn in live.changed_regions(after, sent).regions}
    assert "game-reports" in pushed and "bo" in pushed["game-reports"]  # pushed to the open page
    assert "ana" not in pushed["game-reports"].replace('id="game-reports"', "")  # never oneself


def test_a_cancelled_rematch_is_no_longer_offered_and_another_may_be_asked(client, make_user):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    game = hexland_room(ana, bo, cy)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, deadline_at=None,
                                           result={"winner": 0, "scores": [10, 5, 4], "ranks": [1, 2, 3]})
    first = services.rematch(game_id=game.pk, user=ana)
    client.force_login(bo)
    assert "Join the rematch" in client.get(reverse("game_detail", args=[game.pk])).content.decode()

    services.cancel_game(game_id=first.pk, by_user=ana)
    old = selectors.game_for_viewer(game.pk, bo)
    status = live.draw(live.LiveView(old, bo), live.STATUS).html
    assert "Join the rematch" not in status and "Rematch with the same seats" in status
    second = services.rematch(game_id=game.pk, user=bo)
    assert second.pk != first.pk and second.status == Game.Status.OPEN and Game.objects.get(rematch_of=game) == second
