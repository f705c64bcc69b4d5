"""HTTP edges: statuses and readable messages for every refusal, hidden cards stay hidden."""
from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games import services
from games.models import Game, MoveEvent
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db


def post_move(client, game, move, version, htmx=False):
    data = {"move": move if isinstance(move, str) else json.dumps(move), "version": version}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("game_move", args=[game.pk]), data, **headers)


def test_pages_need_a_login(client):
    for url in (reverse("dashboard"), reverse("game_detail", args=[1]), reverse("profile")):
        response = client.get(url)
        assert response.status_code == 302 and reverse("account_login") in response["Location"]
    response = client.post(reverse("game_move", args=[1]), {"move": "{}", "version": 0})
    assert response.status_code == 302


def test_each_refusal_has_its_status_and_message_and_writes_nothing(client, make_user):
    ana, bo, cy = make_user(), make_user(), make_user()
    game = toy_game(ana, bo)
    client.force_login(ana)
    cases = [
        ({"type": "add", "n": 9}, 0, 400, "n must be 1, 2 or 3."),
        ("{not json", 0, 400, "could not be read"),
        ({"type": "add", "n": 1}, "", 400, "missing the game version"),
        ({"type": "add", "n": 1}, 5, 409, "The game has moved on"),
    ]
    for move, version, status, message in cases:
        response = post_move(client, game, move, version)
        assert response.status_code == status, (move, version)
        assert message in response.content.decode()
    client.force_login(bo)
    response = post_move(client, game, {"type": "add", "n": 1}, 0)
    assert response.status_code == 400 and "not your turn" in response.content.decode()
    client.force_login(cy)
    response = post_move(client, game, {"type": "add", "n": 1}, 0)
    assert response.status_code == 403 and "not playing in this game" in response.content.decode()
    response = client.get(reverse("game_detail", args=[game.pk + 1000]))
    assert response.status_code == 404
    assert post_move(client, Game(pk=game.pk + 1000), {"type": "add", "n": 1}, 0).status_code == 404
    assert MoveEvent.objects.count() == 0 and Game.objects.get(pk=game.pk).version == 0


def test_a_move_by_plain_form_and_by_htmx(client, make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    client.force_login(ana)
    response = post_move(client, game, {"type": "add", "n": 2}, 0)
    assert response.status_code == 302 and response["Location"] == reverse("game_detail", args=[game.pk])
    client.force_login(bo)
    response = post_move(client, game, {"type": "add", "n": 3}, 1, htmx=True)
    # htmx: the live page's regions at the new stamp (static/js/live.js morphs them in).
    assert response.status_code == 200 and response.json()["stamp"].startswith("2.")
    assert "game-main" in {region["id"] for region in response.json()["regions"]}
    response = post_move(client, game, {"type": "add", "n": 3}, 1, htmx=True)  # sent again: answered, not stored
    assert response.status_code == 200 and response.json()["stamp"].startswith("2.")
    response = post_move(client, game, {"type": "add", "n": 1}, 1, htmx=True)  # another move, stale now
    assert response.status_code == 409 and response.json()["type"] == "error" and response.json()["message"]
    assert list(MoveEvent.objects.filter(game=game).values_list("seq", flat=True)) == [1, 2]


def test_a_page_shows_my_card_and_never_another_players(client, make_user):
    ana, bo, spectator = make_user(), make_user(), make_user()
    game = toy_game(ana, bo)
    from games import state_store

    cards = state_store.load(game).cards
    client.force_login(ana)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert str(cards[0]) in page and str(cards[1]) not in page
    assert str(game.seed) not in page
    client.force_login(spectator)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert str(cards[0]) not in page and str(cards[1]) not in page


def test_a_private_game_is_seen_only_by_its_players_and_joined_by_link(client, make_user):
    ana, bo, cy = make_user(), make_user(), make_user()
    game = services.create_game(kind="toy", config={"players": 2}, created_by=ana, visibility=Game.Visibility.PRIVATE)
    client.force_login(cy)
    response = client.get(reverse("game_detail", args=[game.pk]))
    assert response.status_code == 403 and "private" in response.content.decode()
    client.force_login(ana)
    assert game.invite_token in client.get(reverse("game_detail", args=[game.pk])).content.decode()
    client.force_login(bo)
    response = client.post(reverse("game_join", args=[game.invite_token]))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert client.get(reverse("game_join", args=["no-such-token"])).status_code == 404


def test_dashboard_and_profile(client, make_user):
    ana = make_user()
    client.force_login(ana)
    page = client.get(reverse("dashboard")).content.decode()
    assert "Nothing is waiting for you." in page
    response = client.post(
        reverse("profile"), {"display_name": "Ana", "timezone": "Europe/Madrid", "email_notifications": "digest"}
    )
    assert response.status_code == 302
    ana.refresh_from_db()
    assert (ana.display_name, ana.timezone, ana.email_notifications) == ("Ana", "Europe/Madrid", "digest")
    response = client.post(reverse("profile"), {"display_name": "Ana", "timezone": "Mars/Olympus", "email_notifications": "each"})
    assert response.status_code == 400 and "is not a time zone we know" in response.content.decode()


def test_staff_do_not_see_the_payload_of_moves_in_a_running_game(client, make_user, django_user_model):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 3}, expected_version=0)
    staff = django_user_model.objects.create_superuser("staff", "staff@example.com", "a-long-pass-phrase")
    client.force_login(staff)
    event = MoveEvent.objects.get(game=game)
    page = client.get(reverse("admin:games_moveevent_change", args=[event.pk])).content.decode()
    assert "hidden until the game is over" in page and "&#x27;n&#x27;: 3" not in page
    assert str(game.seed) not in client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
