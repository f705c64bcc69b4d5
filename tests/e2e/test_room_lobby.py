"""In the browser, a new Hexland player's way into a room: the room form shows only the seats
of the chosen number of players, the lobby's Join leads to a page that describes the room, and
a full room is offered to watch, not to join."""
import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_from_the_room_form_to_the_join_page_and_a_full_room(live_server, browser, viewport, make_user):
    host, guest = make_user("host"), make_user("guest")
    host_context, guest_context = browser.new_context(viewport), browser.new_context(viewport)
    log_in(host_context, live_server.url, host)
    log_in(guest_context, live_server.url, guest)
    ana, bo = host_context.new_page(), guest_context.new_page()

    ana.goto(f"{live_server.url}/games/hexland/new/")
    seat_3, seat_4 = ana.get_by_label("Seat 3:"), ana.get_by_label("Seat 4:")
    expect(seat_3).to_be_visible()  # 4 seats at first
    ana.get_by_label("Seats:").select_option("2")
    expect(seat_3).to_be_hidden()
    expect(seat_4).to_be_hidden()
    expect(ana.get_by_text("Seats beyond the number of seats are ignored")).to_be_hidden()
    ana.get_by_label("Seats:").select_option("3")
    expect(seat_3).to_be_visible()
    expect(seat_4).to_be_hidden()
    seat_3.select_option("easy")
    ana.get_by_label("Title:").fill("Sunday island")
    ana.get_by_label("Points to win:").fill("8")
    ana.get_by_role("button", name="Create the room").click()
    ana.wait_for_url(re.compile(r"/games/\d+/$"))
    room = Game.objects.get(kind="hexland")
    assert room.seats.count() == 3

    bo.goto(f"{live_server.url}/games/hexland/")
    open_rooms = bo.locator("section[aria-labelledby=open-rooms]")
    open_rooms.get_by_role("link", name="Join Sunday island").click()
    details = bo.locator("section.join-details")
    for shown in ("host", "1 of 3", "Normal: 2 min a turn", "Beginner map", "AI (easy)"):
        expect(details).to_contain_text(shown)
    expect(details.get_by_text("open", exact=True)).to_be_visible()
    expect(bo.get_by_role("button", name="Take a seat")).to_be_visible()

    # The host gives the open seat to the AI: the room is full but not started.
    ana.goto(f"{live_server.url}/games/{room.pk}/")
    ana.get_by_label("Seat 2").select_option("medium")
    with ana.expect_response(lambda response: response.request.method == "POST"):
        ana.locator("form", has=ana.get_by_label("Seat 2")).get_by_role("button", name="Set").click()
    bo.goto(f"{live_server.url}/games/hexland/")
    expect(open_rooms).not_to_contain_text("Sunday island")
    to_watch = bo.locator("section[aria-labelledby=rooms-to-watch]")
    expect(to_watch).to_contain_text("Full: waiting for the host to start")
    to_watch.get_by_role("link", name="Watch Sunday island").click()
    bo.wait_for_url(f"{live_server.url}/games/{room.pk}/")
    host_context.close()
    guest_context.close()
