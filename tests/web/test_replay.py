"""Replays: a finished game stepped through move by move, in the viewer's own view."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games import services, state_store
from games.hextension import engine as hextension
from games.models import Game
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db


def test_a_finished_game_steps_through_every_move_and_an_open_one_is_refused(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = toy_game(ana, bo, target=5)
    client.force_login(ana)
    assert client.get(reverse("game_replay", args=[game.pk])).status_code == 403  # not over yet
    for n, user in enumerate([ana, bo, ana, bo, ana]):
        services.submit_move(game_id=game.pk, user=user, move={"type": "add", "n": 1}, expected_version=n)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.version == 5
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert reverse("game_replay", args=[game.pk]) in page
    for at, total in [(0, 0), (2, 2), (5, 5), (99, 5)]:
        response = client.get(reverse("game_replay", args=[game.pk]), {"at": at})
        assert response.status_code == 200
        assert response.context["view"]["total"] == total and response.context["step"].at == min(at, 5)
    assert client.get(reverse("game_replay", args=[game.pk]), {"at": "x"}).status_code == 400


def test_a_hextension_replay_shows_the_viewer_only_their_own_submissions(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 3},
                                created_by=ana, players=[ana, bo], join=False, turn_seconds=3600)
    services.start_game(game_id=game.pk)
    for _ in range(200):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        for seat in list(game.awaiting):
            view = hextension.view(state_store.load(game), seat)
            move = hextension.legal_moves(state_store.load(game), seat)[0]
            services.submit_move(game_id=game.pk, user=[ana, bo][seat], move=move,
                                 expected_version=Game.objects.get(pk=game.pk).version)
    game.refresh_from_db()
    client.force_login(bo)
    mid_round = client.get(reverse("game_replay", args=[game.pk]), {"at": 1})  # ana has submitted, bo not yet
    assert mid_round.context["view"]["seat"] == 1 and mid_round.context["view"]["pending"] is None
    first = game.events.get(seq=1)
    assert first.seat == 0 and mid_round.context["view"]["seats"][0]["board"] == {}  # ana's placement hidden
    client.force_login(ana)
    own = client.get(reverse("game_replay", args=[game.pk]), {"at": 1}).context["view"]
    assert own["seat"] == 0 and own["pending"] == first.payload["placements"]  # her own, to her


def test_a_rematch_keeps_the_settings_and_seats_and_the_others_join_it(client, make_user):
    ana, bo, eve = make_user("ana"), make_user("bo"), make_user("eve")
    game = services.create_game(kind="toy", config={"players": 3, "target": 3}, created_by=ana,
                                players=[ana, bo], ai_seats={2: "easy"}, join=False)
    services.start_game(game_id=game.pk)
    for n, user in enumerate([ana, bo]):
        services.submit_move(game_id=game.pk, user=user, move={"type": "add", "n": 1 if n == 0 else 2},
                             expected_version=n)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    client.force_login(eve)
    assert client.post(reverse("game_rematch", args=[game.pk])).status_code == 403
    client.force_login(bo)
    assert "Rematch with the same seats" in client.get(reverse("game_detail", args=[game.pk])).content.decode()
    response = client.post(reverse("game_rematch", args=[game.pk]))
    rematch = Game.objects.get(rematch_of=game)
    assert response["Location"] == reverse("game_detail", args=[rematch.pk])
    assert rematch.config == {"players": 3, "target": 3} and rematch.status == Game.Status.OPEN
    assert [(s.index, s.user_id, s.ai_level) for s in rematch.seats.order_by("index")] == [
        (0, None, ""), (1, bo.pk, ""), (2, None, "easy")]
    client.force_login(ana)
    assert "Join the rematch" in client.get(reverse("game_detail", args=[game.pk])).content.decode()
    client.post(reverse("game_rematch", args=[game.pk]))
    rematch.refresh_from_db()
    assert rematch.status == Game.Status.ACTIVE and rematch.seats.get(index=0).user == ana
    assert Game.objects.filter(rematch_of=game).count() == 1
