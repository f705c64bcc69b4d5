"""GET /api/v1/games/{id}/suggestion: the site's AI's move for a bot's seat. It tells nothing the
seat may not see (two states that differ only in hidden information give the same suggestion),
it is one of the moves the move endpoint takes, and each refusal is tested."""
from __future__ import annotations

import dataclasses
import random

import pytest
from django.test import override_settings

from api import suggestions
from games import state_store
from games.hexland import engine as hexland
from games.hexland.engine import ai as hexland_ai
from games.hexland.engine import planner
from games.hextension import engine as hextension
from games.models import Game, MoveEvent
from games.protocol import load_engine
from tests.api.conftest import ApiClient, token_for

PROBLEM = "application/problem+json"


def problem(answer, status: int) -> dict:
    assert answer.status_code == status, answer.content
    assert answer["Content-Type"] == PROBLEM
    body = answer.json()
    assert body["status"] == status and body["detail"], body
    return body


# --- the suggestion depends on the seat's view only --------------------------------------------


def test_a_hextension_suggestion_is_the_same_whatever_the_undrawn_tiles_the_seed_and_the_other_submission():
    engine = load_engine("games.hextension.engine")
    state = hextension.new_state({"players": 2}, "suggest-a")
    for _ in range(3):  # three closed rounds: a board, tiles seen, tiles still to come
        for seat in (0, 1):
            state = hextension.apply(state, seat, hextension.legal_moves(state, seat)[0])
    state = hextension.apply(state, 1, hextension.legal_moves(state, 1)[-1])  # the other seat's open submission
    start = (state.round + 1) * state.tiles_per_round
    undrawn = list(state.deck[start:])
    random.Random(5).shuffle(undrawn)
    other_submission = hextension.legal_moves(dataclasses.replace(state, pending=(None, None)), 1)[7]["placements"]
    hidden_changed = dataclasses.replace(state, seed="suggest-b", deck=state.deck[:start] + tuple(undrawn),
                                         pending=(None, other_submission))
    assert hidden_changed.deck != state.deck and hidden_changed.pending != state.pending
    assert hextension.view(hidden_changed, 0) == hextension.view(state, 0)  # what seat 0 may see: the same
    for level in ("greedy", "strong"):
        move = suggestions.suggest(engine, state, 0, level)
        assert move == suggestions.suggest(engine, hidden_changed, 0, level)
        assert move in hextension.legal_moves(state, 0)


def _swap_a_card_between(state, a: int, b: int) -> bool:
    """Give seat ``a`` one of ``b``'s cards for one of its own of another kind (hand sizes, bank
    and everything public unchanged); False when their hands allow no such swap."""
    for mine in range(5):
        for theirs in range(5):
            if mine != theirs and state.hand[a * 5 + mine] and state.hand[b * 5 + theirs]:
                state.hand[a * 5 + mine] -= 1
                state.hand[a * 5 + theirs] += 1
                state.hand[b * 5 + theirs] -= 1
                state.hand[b * 5 + mine] += 1
                return True
    return False


def test_a_hexland_suggestion_is_the_same_whatever_the_others_hands_the_deck_and_the_dice_stream(monkeypatch):
    # The AI's own randomness and its time budget are pinned, so that only its input can differ.
    monkeypatch.setattr(planner._Clock, "out", lambda self: False)
    engine = load_engine("games.hexland.engine")
    rng = random.Random(3)
    state = hexland.new_state({"players": 3, "order": [0, 1, 2]}, "suggest-hexland")
    changed = None
    for _ in range(2000):
        if hexland.is_over(state):
            break
        actor = sorted(engine.waiting_for(state))[0]
        if actor == 0 and hexland.view(state, 0)["phase"] == "main":
            changed = state.copy()
            changed.deck = tuple(reversed(state.deck))
            changed.rng = state.rng ^ 0x5EED
            if changed.deck != state.deck and _swap_a_card_between(changed, 1, 2):
                break
            changed = None
        moves = [m for m in hexland.legal_moves(state, actor) if m["type"] != "offer"]
        state = hexland.apply(state, actor, rng.choice(moves))
    assert changed is not None, "no main phase of seat 0 with swappable hands was reached"
    assert hexland.view(changed, 0) == hexland.view(state, 0)  # what seat 0 may see: the same
    for level in suggestions.levels_of("hexland"):
        monkeypatch.setattr(hexland_ai, "_platform_rng", random.Random(11))
        move = suggestions.suggest(engine, state, 0, level)
        monkeypatch.setattr(hexland_ai, "_platform_rng", random.Random(11))
        assert move == suggestions.suggest(engine, changed, 0, level), level
        hexland.apply(state, 0, move)  # a move the engine takes (IllegalMove otherwise)


# --- the endpoint ------------------------------------------------------------------------------


@pytest.fixture
def bot(make_user):
    user = make_user("suggest-bot", is_bot=True)
    client = ApiClient(token_for(user, ["read", "bot"]))
    client.user = user
    return client


def new_game(client, kind: str, **settings) -> Game:
    answer = client.post("/games", {"game": kind, "players": 2, "ai": 1, **settings})
    assert answer.status_code == 201, answer.content
    return Game.objects.get(pk=answer.json()["id"])


@pytest.mark.django_db
def test_a_bot_is_told_the_strong_ais_placement_and_plays_it(bot):
    game = new_game(bot, "hextension")
    answer = bot.get(f"/games/{game.pk}/suggestion?level=strong")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["version"] == game.version
    seen = bot.get(f"/games/{game.pk}").json()
    assert body["move"] in seen["legal_moves"]
    assert body["move"] == hextension.ai.choose_move(hextension.view(state_store.load(game), 0), "strong")
    played = bot.post(f"/games/{game.pk}/moves", body)
    assert played.status_code == 200, played.content
    # The round waits for the AI seat now: not the bot's move, with the current version.
    now = Game.objects.get(pk=game.pk).version
    assert problem(bot.get(f"/games/{game.pk}/suggestion?level=strong"), 409)["version"] == now


@pytest.mark.django_db
def test_a_bot_is_told_the_hard_ais_move_in_hexland(bot):
    game = new_game(bot, "hexland", ai_level="easy")
    seen = bot.get(f"/games/{game.pk}").json()
    if not seen["to_move"]:  # the AI seat sets up first: its move is the Celery task's
        problem(bot.get(f"/games/{game.pk}/suggestion?level=hard"), 409)
        return
    body = bot.get(f"/games/{game.pk}/suggestion?level=hard").json()
    assert body["version"] == seen["version"] and body["move"] in seen["legal_moves"]
    assert bot.post(f"/games/{game.pk}/moves", body).status_code == 200


@pytest.mark.django_db
def test_a_person_may_not_ask_the_ai_for_their_move(api):
    game = new_game(api, "hextension")  # api: a person's token with every scope, bot included
    body = problem(api.get(f"/games/{game.pk}/suggestion?level=strong"), 403)
    assert "Only a bot account" in body["detail"]


@pytest.mark.django_db
def test_a_bot_token_without_the_bot_scope_is_refused(bot):
    game = new_game(bot, "hextension")
    reader = ApiClient(token_for(bot.user, ["read"]))
    assert problem(reader.get(f"/games/{game.pk}/suggestion?level=strong"), 403)["scope"] == "bot"


@pytest.mark.django_db
def test_unknown_levels_missing_games_and_other_players_games_are_refused(bot, make_user):
    game = new_game(bot, "hextension")
    detail = problem(bot.get(f"/games/{game.pk}/suggestion?level=hard"), 400)["detail"]
    assert "random, greedy, strong" in detail
    problem(bot.get(f"/games/{game.pk}/suggestion"), 400)
    problem(bot.get("/games/999999/suggestion?level=strong"), 404)
    other_bot = ApiClient(token_for(make_user("suggest-bot-2", is_bot=True), ["read", "bot"]))
    assert problem(other_bot.get(f"/games/{game.pk}/suggestion?level=strong"), 403)["detail"] == \
        "You are not playing in this game."
    assert not MoveEvent.objects.filter(game=game, seat=0).exists()  # a suggestion plays nothing


@pytest.mark.django_db
@override_settings(API_RATE_LIMITS={"suggest": (2, 30)})
def test_suggestions_over_the_tokens_rate_are_refused_with_retry_after_and_moves_go_on(bot):
    game = new_game(bot, "hextension")
    for _ in range(2):
        assert bot.get(f"/games/{game.pk}/suggestion?level=greedy").status_code == 200
    answer = bot.get(f"/games/{game.pk}/suggestion?level=greedy")
    assert "too many moves" in problem(answer, 429)["detail"]
    assert answer["Retry-After"] == "30"
    move = bot.get(f"/games/{game.pk}").json()["legal_moves"][0]
    assert bot.post(f"/games/{game.pk}/moves", {"version": game.version, "move": move}).status_code == 200
