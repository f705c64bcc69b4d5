"""The end of a Hexland game: the final board speaks of stand-ins only while a game runs, and
each player who asks for a rematch is told what fits them."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from games import services
from games.models import Game, Seat
from tests.support.factories import hexland_room

pytestmark = pytest.mark.django_db


def time_out(game: Game) -> None:
    game.refresh_from_db()
    assert services.apply_timeouts(game_id=game.pk, now=game.deadline_at + timedelta(seconds=1)) > 0


def test_a_player_the_ai_stood_in_for_is_not_called_away_on_the_final_board(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = hexland_room(ana, bo, order=[0, 1])
    time_out(game)  # ana's first setup placement
    services.submit_move(game_id=game.pk, user=bo, move=_first_move(game, 1), expected_version=Game.objects.get(pk=game.pk).version)
    game.refresh_from_db()
    while 0 not in game.awaiting:
        services.submit_move(game_id=game.pk, user=bo, move=_first_move(game, 1), expected_version=game.version)
        game.refresh_from_db()
    time_out(game)  # her second in a row: the AI stands in
    assert Seat.objects.get(game=game, index=0).standin_level == "medium"

    client.force_login(ana)  # while the game runs, ana is told in her own words
    running = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "the AI (medium) plays for you until you take your seat back" in running and "ana is away" not in running
    client.force_login(bo)
    running = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "ana is away; the AI (medium) plays for them" in running and "(AI playing for them)" in running

    # The game ends with the AI still in her seat; ana comes back to the final board.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, deadline_at=None,
                                           result={"winner": 1, "scores": [3, 10], "ranks": [2, 1]})
    for user in (ana, bo):
        client.force_login(user)
        final = client.get(reverse("game_detail", args=[game.pk])).content.decode()
        assert "Finished" in final
        assert "is away" not in final and "AI playing for them" not in final and "plays for you" not in final


def _first_move(game: Game, seat: int) -> dict:
    from games import state_store
    from games.hexland import engine

    return engine.view(state_store.load(Game.objects.get(pk=game.pk)), seat)["legal_moves"][0]


def test_each_player_joining_a_rematch_is_told_what_fits_them(client, make_user):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    game = hexland_room(ana, bo, cy)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, deadline_at=None,
                                           result={"winner": 0, "scores": [10, 5, 4], "ranks": [1, 2, 3]})
    client.force_login(bo)
    asked = client.post(reverse("game_rematch", args=[game.pk]), follow=True).content.decode()
    assert "The rematch is open: the other players are invited from the old game&#x27;s page." in asked

    client.force_login(ana)
    joined = client.post(reverse("game_rematch", args=[game.pk]), follow=True).content.decode()
    assert "You have joined the rematch: it starts when every seat is taken" in joined
    assert "the other players are invited" not in joined

    client.force_login(cy)  # the last seat: the rematch starts
    joined = client.post(reverse("game_rematch", args=[game.pk]), follow=True).content.decode()
    assert "You have joined the rematch: it has started." in joined and "the other players are invited" not in joined
    assert Game.objects.get(rematch_of=game).status == Game.Status.ACTIVE
