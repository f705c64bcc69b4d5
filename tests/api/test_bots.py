"""Bot accounts (accounts/bots.py): an account that has never taken a seat becomes a bot for
good through the API; a bot plays with the bot scope, through the API only (the pages refuse its
writes with a sentence), and its name carries a BOT badge on the pages."""
from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.models import Game, MoveEvent
from tests.api.conftest import ApiClient, token_for
from tests.api.test_endpoints import problem
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db
UPGRADE = "/bot/account/upgrade"


def test_an_account_with_no_games_becomes_a_bot_for_good(make_user):
    user = make_user("future-bot")
    bot = ApiClient(token_for(user, scopes=["read", "bot"]))
    assert bot.get("/account").json()["bot"] is False
    answer = bot.post(UPGRADE)
    assert answer.status_code == 200 and answer.json()["bot"] is True and answer.json()["username"] == "future-bot"
    user.refresh_from_db()
    assert user.is_bot
    assert bot.get("/account").json()["bot"] is True
    assert bot.post(UPGRADE).json()["bot"] is True  # asked again: still a bot


def test_upgrading_needs_the_bot_scope(make_user):
    user = make_user()
    assert problem(ApiClient(token_for(user, scopes=["read", "play"])).post(UPGRADE), 403)["scope"] == "bot"
    user.refresh_from_db()
    assert not user.is_bot


def test_an_account_that_has_taken_a_seat_cannot_become_a_bot(make_user):
    user, other = make_user(), make_user()
    toy_game(user, other)
    answer = ApiClient(token_for(user)).post(UPGRADE)
    assert "never taken a seat" in problem(answer, 409)["detail"]
    user.refresh_from_db()
    assert not user.is_bot


def test_a_bot_plays_with_the_bot_scope_and_a_person_with_play(make_user):
    bot_user = make_user(is_bot=True)
    body = {"game": "hextension", "players": 2, "ai": 1}
    refused = ApiClient(token_for(bot_user, scopes=["read", "play"])).post("/games", body)
    assert problem(refused, 403)["scope"] == "bot"
    assert not Game.objects.exists()
    assert ApiClient(token_for(bot_user, scopes=["read", "bot"])).post("/games", body).status_code == 201
    person = make_user()
    assert problem(ApiClient(token_for(person, scopes=["read", "bot"])).post("/games", body), 403)["scope"] == "play"


def test_the_pages_refuse_a_bots_moves_with_a_sentence(client, make_user):
    bot_user, person = make_user(is_bot=True), make_user()
    game = toy_game(bot_user, person)
    client.force_login(bot_user)
    seat = game.seats.get(user=bot_user).index
    game.refresh_from_db()
    answer = client.post(reverse("game_move", args=[game.pk]),
                         {"move": json.dumps({"type": "add", "n": 1}), "version": game.version})
    assert answer.status_code == 403
    assert "plays through the API only" in answer.content.decode()
    assert not MoveEvent.objects.filter(game=game, seat=seat).exists()
    for page in (reverse("game_resign", args=[game.pk]), reverse("game_chat", args=[game.pk])):
        assert client.post(page, {"text": "hi"}).status_code == 403
    assert not game.chat_messages.exists()
    assert client.get(reverse("game_detail", args=[game.pk])).status_code == 200  # it may watch
    assert client.get(reverse("profile")).status_code == 200  # and keep its profile and tokens


def test_a_bots_name_carries_a_badge_on_the_pages(client, make_user):
    bot_user, person = make_user("badge-bot", is_bot=True), make_user("badge-person")
    game = toy_game(bot_user, person)
    client.force_login(person)
    player_page = client.get(reverse("player", args=["badge-bot"])).content.decode()
    assert 'class="badge bot-badge"' in player_page
    assert 'bot-badge' not in client.get(reverse("player", args=["badge-person"])).content.decode()
    game_page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert game_page.count('class="badge bot-badge"') >= 1  # the seats and who is connected
