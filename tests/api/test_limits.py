"""The token's limits (api.limits), each refusal: reads, moves and new games over their rate
(429 with Retry-After, nothing written), a body over the size limit (413), and more streams
than a token may hold (429)."""
from __future__ import annotations

import pytest
from django.test import override_settings

from games.models import Game, MoveEvent
from tests.api.conftest import ApiClient, token_for
from tests.api.test_endpoints import hextension_game, problem

pytestmark = pytest.mark.django_db


@override_settings(API_RATE_LIMITS={"read": (3, 60)})
def test_reads_over_the_tokens_rate_are_refused_with_retry_after(api, make_user):
    for _ in range(3):
        assert api.get("/account").status_code == 200
    answer = api.get("/account")
    assert "too many requests" in problem(answer, 429)["detail"]
    assert answer["Retry-After"] == "60"
    # The limit is the token's: another token of the same user reads on.
    assert ApiClient(token_for(api.user)).get("/account").status_code == 200


@override_settings(API_RATE_LIMITS={"move": (2, 30)})
def test_moves_over_the_tokens_rate_are_refused_with_retry_after(api):
    game = hextension_game(api)
    url = f"/games/{game.pk}/moves"
    for _ in range(2):  # refused moves count too
        api.post(url, {"version": game.version, "move": {"type": "place"}})
    legal = api.get(f"/games/{game.pk}").json()["legal_moves"][0]
    answer = api.post(url, {"version": game.version, "move": legal})
    problem(answer, 429)
    assert answer["Retry-After"] == "30"
    assert not MoveEvent.objects.filter(game=game, seat=0).exists()
    problem(api.post(f"/games/{game.pk}/chat", {"text": "hello"}), 429)  # chat is an action too


@override_settings(API_RATE_LIMITS={"create": (1, 60)})
def test_new_games_over_the_tokens_rate_are_refused_with_retry_after(api):
    assert api.post("/games", {"game": "hextension", "players": 2, "ai": 1}).status_code == 201
    answer = api.post("/games", {"game": "hextension", "players": 2, "ai": 1})
    assert "too many games" in problem(answer, 429)["detail"]
    assert answer["Retry-After"] == "60"
    assert Game.objects.count() == 1
    assert api.get("/account").status_code == 200  # reads are counted apart


@override_settings(API_MAX_BODY_BYTES=200)
def test_a_body_over_the_size_limit_is_refused_with_413(api):
    game = hextension_game(api)
    answer = api.post(f"/games/{game.pk}/chat", {"text": "x" * 300})
    assert "at most 200 bytes" in problem(answer, 413)["detail"]
    assert not game.chat_messages.exists()
    problem(api.post(f"/games/{game.pk}/resign", raw=b" " * 500), 413)  # bodies it does not read too
    assert api.post(f"/games/{game.pk}/chat", {"text": "short"}).status_code == 201

