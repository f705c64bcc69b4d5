"""Leaving a live game: two turns timed out in a row hand the seat to the AI until its player
takes it back; a player who resigns is played on by the AI and ranks last."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services, state_store
from games.errors import GameNotActive, NotYourSeat
from games.hexland import engine
from games.models import Game, MoveEvent, Seat

pytestmark = pytest.mark.django_db


def hexland_game(ana, bo):
    game = services.create_game(kind="hexland", config={"players": 2, "layout": "fixed", "timers": "fast",
                                                        "order": [0, 1]},
                                created_by=ana, players=[ana, bo], join=False, turn_seconds=60)
    services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def time_out(game) -> None:
    game.refresh_from_db()
    assert services.apply_timeouts(game_id=game.pk, now=game.deadline_at + timedelta(seconds=1)) > 0


def test_two_timeouts_in_a_row_hand_the_seat_to_the_ai_until_its_player_is_back(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = hexland_game(ana, bo)
    assert game.awaiting == [0]
    time_out(game)  # ana's first setup placement: placed for her
    assert Seat.objects.get(game=game, index=0).standin_level == ""
    bo_view = engine.view(state_store.load(Game.objects.get(pk=game.pk)), 1)
    game.refresh_from_db()
    services.submit_move(game_id=game.pk, user=bo, move=bo_view["legal_moves"][0], expected_version=game.version)
    game.refresh_from_db()
    while 0 not in game.awaiting:  # bo finishes his placements
        view = engine.view(state_store.load(game), 1)
        services.submit_move(game_id=game.pk, user=bo, move=view["legal_moves"][0], expected_version=game.version)
        game.refresh_from_db()
    time_out(game)  # ana's second timeout in a row
    seat = Seat.objects.get(game=game, index=0)
    assert seat.standin_level == "medium" and seat.user == ana
    assert 0 in Game.objects.get(pk=game.pk).ai_seat_indexes()
    client.force_login(bo)
    assert "ana is away; the AI (medium) plays for them" in client.get(reverse("game_detail", args=[game.pk])).content.decode()

    client.force_login(ana)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Take my seat back" in page
    assert client.post(reverse("game_take_back", args=[game.pk])).status_code == 302
    assert Seat.objects.get(game=game, index=0).standin_level == ""
    with pytest.raises(GameNotActive, match="Nobody is playing your seat"):
        services.take_seat_back(game_id=game.pk, user=ana)


def test_a_resigned_player_is_played_on_by_the_ai_and_ranks_last(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = hexland_game(ana, bo)
    services.resign_game(game_id=game.pk, user=ana)
    seat = Seat.objects.get(game=game, index=0)
    assert seat.resigned_at is not None and seat.standin_level == "medium"
    with pytest.raises(NotYourSeat, match="resigned"):
        services.submit_move(game_id=game.pk, user=ana, move={"type": "roll"}, expected_version=game.version)
    with pytest.raises(GameNotActive, match="already resigned"):
        services.resign_game(game_id=game.pk, user=ana)
    with pytest.raises(GameNotActive):
        services.take_seat_back(game_id=game.pk, user=ana)
    # the game plays out (AI for ana, first legal moves for bo) and ana ranks last whatever her points
    for _ in range(3000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        seat_to_move = game.awaiting[0]
        if seat_to_move == 0:
            assert services.play_ai_move(game_id=game.pk, expected_version=game.version, seat=0)
        else:
            view = engine.view(state_store.load(game), 1)
            moves = [m for m in view["legal_moves"] if m["type"] not in ("offer", "end_turn")] or view["legal_moves"]
            services.submit_move(game_id=game.pk, user=bo, move=moves[0], expected_version=game.version)
    assert game.status == Game.Status.FINISHED
    assert game.result["ranks"][0] == 2 and game.result["ranks"][1] == 1 and game.result["resigned"] == [0]
    assert MoveEvent.objects.filter(game=game, seat=0, kind="ai").exists()


def test_a_game_whose_rules_play_missed_turns_has_no_resigning(make_user):
    from games.errors import BadMove
    from tests.support.factories import toy_game

    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    with pytest.raises(BadMove, match="no resigning"):
        services.resign_game(game_id=game.pk, user=ana)
    assert not Seat.objects.filter(game=game, resigned_at__isnull=False).exists()
