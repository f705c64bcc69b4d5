"""A game waiting for players: who sits where, the invitation link to copy, the free seats in lists."""
from __future__ import annotations

import json

import re

import pytest
from django.urls import reverse

from games import services

pytestmark = pytest.mark.django_db


def test_the_waiting_room_names_the_seats_and_offers_the_link_to_copy(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = services.create_game(kind="hextension", config={"players": 4, "tiles_per_round": 2}, created_by=ana,
                                ai_seats={3: "greedy"}, visibility="private", turn_seconds=86400)
    services.join_game(game_id=game.pk, user=bo)
    client.force_login(bo)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "1 of 4 seats free" in page
    seats = re.search(r'<ol class="seat-list">(.*?)</ol>', page, re.S).group(1)
    assert "ana" in seats and "host" in seats and "bo" in seats and "AI (greedy)" in seats and "<em>open</em>" in seats
    link = f"http://testserver{reverse('game_join', args=[game.invite_token])}"
    # a selectable read-only field (no JavaScript needed) and a copy button the script reveals
    assert re.search(rf'<input id="invite-link" class="copy-source" type="text" readonly value="{re.escape(link)}"', page)
    assert '<button type="button" class="secondary" data-copy="invite-link" hidden>Copy</button>' in page
    assert "js/copy.js" in page and "<script>" not in page
    eve = make_user("eve")
    client.force_login(eve)  # a private game: only its players see it, and nobody else gets the link
    assert game.invite_token not in client.get(reverse("game_detail", args=[game.pk])).content.decode()


def test_lobby_and_dashboard_say_how_many_seats_are_free(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 2}, created_by=ana,
                                ai_seats={2: "greedy"}, turn_seconds=86400)
    client.force_login(bo)
    lobby = client.get(reverse("hextension_lobby")).content.decode()
    assert "1 of 3 seats free" in lobby
    client.force_login(ana)
    assert "1 of 3 seats free" in client.get(reverse("dashboard")).content.decode()
    services.join_game(game_id=game.pk, user=bo)  # the last seat: the game starts
    client.force_login(bo)
    assert str(game) not in client.get(reverse("hextension_lobby")).content.decode()


def test_a_pushed_waiting_room_gives_the_sites_own_address(make_user, settings):
    from games import consumers

    settings.SITE_URL = "https://hex.example.org/"
    ana = make_user("ana")
    game = services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 2}, created_by=ana,
                                turn_seconds=86400)
    frames = consumers.catch_up(game.pk, ana, consumers.Page())  # as a socket does
    html = "".join(region["html"] for frame in frames for region in json.loads(frame)["regions"])
    assert f'value="https://hex.example.org/games/join/{game.invite_token}/"' in html
