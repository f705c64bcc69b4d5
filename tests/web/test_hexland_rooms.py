"""Hexland rooms before the start: the lobby, creating a room, the host's seat and settings
tools, joining, leaving, starting with the AI filling what is left."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game, Seat

pytestmark = pytest.mark.django_db

ROOM = {"title": "Friday island", "visibility": "public", "players": 4, "seat_2": "open", "seat_3": "hard",
        "seat_4": "open", "timers": "fast", "vp_to_win": 8, "board": "beginner", "discard_limit": 7,
        "max_turns": 150}


def test_a_room_from_the_lobby_to_the_start(client, make_user):
    host, guest, other = make_user("host"), make_user("guest"), make_user("other")
    client.force_login(host)
    assert "No public room" in client.get(reverse("hexland_lobby")).content.decode()
    response = client.post(reverse("hexland_new"), ROOM)
    room = Game.objects.get(kind="hexland")
    assert response.status_code == 302 and response["Location"] == reverse("game_detail", args=[room.pk])
    assert room.status == "open" and room.turn_seconds == 60
    assert room.config == {"players": 4, "timers": "fast", "vp_to_win": 8, "discard_limit": 7, "max_turns": 150,
                           "layout": "fixed", "board_seed": 0}
    assert list(room.seats.values_list("index", "user", "ai_level")) == [
        (0, host.pk, ""), (1, None, ""), (2, None, "hard"), (3, None, "")]
    lobby = client.get(reverse("hexland_lobby")).content.decode()
    assert "Friday island" in lobby and "2 of 4" in lobby

    client.force_login(guest)
    client.post(reverse("game_join", args=[room.invite_token]))
    page = client.get(reverse("game_detail", args=[room.pk])).content.decode()
    assert "guest" in page and "Leave this game" in page and "Start the game" not in page
    assert client.post(reverse("game_seat", args=[room.pk, 0])).status_code == 403  # not the host
    assert client.post(reverse("game_start", args=[room.pk])).status_code == 403

    client.force_login(host)
    token = Game.objects.get(pk=room.pk).board_token
    assert client.post(reverse("game_seat", args=[room.pk, 1])).status_code == 302  # the guest is removed
    assert Game.objects.get(pk=room.pk).board_token != token  # open pages refresh
    assert not Seat.objects.filter(game=room, user=guest).exists()
    refused = client.post(reverse("game_settings", args=[room.pk]), {**ROOM, "players": 2})
    assert refused.status_code == 400 and "Free the seats at the end first" in refused.content.decode()
    client.post(reverse("game_seat", args=[room.pk, 2]))  # the AI seat opens again
    assert client.post(reverse("game_settings", args=[room.pk]), {**ROOM, "players": 3, "timers": "slow"}).status_code == 302
    room.refresh_from_db()
    assert room.seats.count() == 3 and room.config["timers"] == "slow" and room.turn_seconds == 180
    bad_level = client.post(reverse("game_seat", args=[room.pk, 1]), {"ai_level": "grandmaster"})
    assert bad_level.status_code == 400 and "Choose an AI level" in bad_level.content.decode()

    client.force_login(other)
    client.post(reverse("game_join", args=[room.invite_token]))
    client.force_login(host)
    assert client.post(reverse("game_start", args=[room.pk]), {"fill_with_ai": "medium"}).status_code == 302
    room.refresh_from_db()
    assert room.status == "active"
    assert [(s.user_id, s.ai_level) for s in room.seats.order_by("index")] == [(host.pk, ""), (other.pk, ""), (None, "medium")]
    assert room.config["names"] == ["host", "other", "AI (medium)"]
    assert room.deadline_at is not None and 85 < (room.deadline_at - room.started_at).total_seconds() <= 91  # slow setup: 90 s
    page = client.get(reverse("game_detail", args=[room.pk])).content.decode()
    assert "Start the game" not in page


def test_a_room_of_ai_opponents_starts_at_once_and_bad_settings_are_refused(client, make_user):
    client.force_login(make_user())
    response = client.post(reverse("hexland_new"), {**ROOM, "players": 2, "seat_2": "easy"})
    room = Game.objects.get(kind="hexland")
    assert response.status_code == 302 and room.status == "active"
    bad = client.post(reverse("hexland_new"), {**ROOM, "players": 7, "vp_to_win": 1})
    assert bad.status_code == 400 and Game.objects.count() == 1


def test_a_guest_may_leave_and_the_host_may_cancel(client, make_user):
    host, guest = make_user(), make_user()
    client.force_login(host)
    client.post(reverse("hexland_new"), ROOM)
    room = Game.objects.get(kind="hexland")
    client.force_login(guest)
    client.post(reverse("game_join", args=[room.invite_token]))
    assert client.post(reverse("game_leave", args=[room.pk])).status_code == 302
    assert not room.seats.filter(user=guest).exists()
    assert client.post(reverse("game_cancel", args=[room.pk])).status_code == 403
    client.force_login(host)
    assert client.post(reverse("game_leave", args=[room.pk])).status_code == 400
    assert client.post(reverse("game_cancel", args=[room.pk])).status_code == 302
    assert Game.objects.get(pk=room.pk).status == "cancelled"


def test_the_profile_shows_hexland_statistics(client, make_user):
    from games import services

    ana, bo = make_user("ana"), make_user("bo")
    client.force_login(ana)
    assert "No finished Hexland game yet" in client.get(reverse("profile")).content.decode()
    game = services.create_game(kind="hexland", config={"players": 2}, created_by=ana, players=[ana, bo], join=False)
    Game.objects.filter(pk=game.pk).update(status="finished", result={"winner": 0, "scores": [10, 7], "ranks": [1, 2]})
    page = client.get(reverse("player", args=["bo"])).content.decode()
    assert "<dt>Games</dt><dd>1</dd>" in page and "<dt>Wins</dt><dd>0</dd>" in page and "<dt>Best</dt><dd>7</dd>" in page


def test_the_lobby_pages_its_rooms(client, make_user):
    from games import services

    host = make_user("host")
    for n in range(26):
        services.create_game(kind="hexland", config={"players": 2}, created_by=host, title=f"Room {n}")
    client.force_login(make_user())
    first = client.get(reverse("hexland_lobby")).content.decode()
    assert "Page 1 of 2" in first and "Room 25" in first and "Room 0<" not in first
    second = client.get(reverse("hexland_lobby"), {"page": 2}).content.decode()
    assert "Page 2 of 2" in second and "Room 0<" in second and 'href="?page=1"' in second


def test_the_join_page_describes_the_room_and_full_rooms_are_listed_to_watch(client, make_user):
    host, guest, other = make_user("host"), make_user("guest"), make_user("other")
    client.force_login(host)
    client.post(reverse("hexland_new"), {**ROOM, "players": 3, "seat_3": "easy", "seat_4": "bogus", "timers": "slow",
                                         "board": "random", "vp_to_win": 12})
    room = Game.objects.get(kind="hexland")
    assert room.config["players"] == 3 and room.seats.count() == 3  # seat 4 ignored, its bad value too

    client.force_login(guest)
    join = client.get(reverse("game_join", args=[room.invite_token])).content.decode()
    for shown in ("<dt>Host</dt><dd>host</dd>", "<dt>Seats free</dt><dd>1 of 3</dd>", "Slow: 3 min a turn",
                  "<dt>Points to win</dt><dd>12</dd>", "<dt>Map</dt><dd>Random map</dd>", "AI (easy)",
                  "<em>open</em>", "Take a seat", "You take the last free seat"):
        assert shown in join, shown
    lobby = client.get(reverse("hexland_lobby")).content.decode()
    open_rooms = lobby.split('id="open-rooms"')[1].split("</section>")[0]
    assert "Friday island" in open_rooms and reverse("game_join", args=[room.invite_token]) in open_rooms

    client.force_login(host)  # the host gives the last open seat to the AI: the room is full, not started
    client.post(reverse("game_seat", args=[room.pk, 1]), {"ai_level": "medium"})
    assert Game.objects.get(pk=room.pk).status == "open"
    client.force_login(other)
    lobby = client.get(reverse("hexland_lobby")).content.decode()
    open_rooms = lobby.split('id="open-rooms"')[1].split("</section>")[0]
    to_watch = lobby.split('id="rooms-to-watch"')[1].split("</section>")[0]
    assert "Friday island" not in open_rooms and "No public room is waiting for players" in open_rooms
    assert "Friday island" in to_watch and "Full: waiting for the host to start" in to_watch
    assert reverse("game_detail", args=[room.pk]) in to_watch and "aria-label=\"Watch Friday island\">Watch</a>" in to_watch
    join = client.get(reverse("game_join", args=[room.invite_token])).content.decode()
    assert "Every seat is taken" in join and "Take a seat" not in join and "Watch it" in join

    client.force_login(host)
    client.post(reverse("game_start", args=[room.pk]))
    client.force_login(other)
    to_watch = client.get(reverse("hexland_lobby")).content.decode().split('id="rooms-to-watch"')[1]
    assert "Playing" in to_watch.split("</section>")[0]
    client.force_login(host)
    assert "You already have a seat" in client.get(reverse("game_join", args=[room.invite_token])).content.decode()


def test_the_room_form_shows_only_the_chosen_seats_with_its_script(client, make_user):
    client.force_login(make_user())
    page = client.get(reverse("hexland_new")).content.decode()
    assert "hexland/room_form.js" in page and "data-room-form" in page
    assert 'data-seat="4"' in page and "<script>" not in page and "style=" not in page
    refused = client.post(reverse("hexland_new"), {**ROOM, "players": 4, "seat_4": "bogus"})
    assert refused.status_code == 400 and "Select a valid choice" in refused.content.decode()
