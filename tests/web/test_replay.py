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
    eve = make_user("eve")
    client.force_login(eve)  # a spectator waits for the end
    assert client.get(reverse("game_replay", args=[game.pk])).status_code == 403
    client.force_login(ana)
    services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 1}, expected_version=0)
    running = client.get(reverse("game_replay", args=[game.pk]))  # a player: the moves so far
    assert running.status_code == 200 and running.context["step"].last == 1
    assert "still running" in running.content.decode()
    game.refresh_from_db()
    for n, user in enumerate([bo, ana, bo, ana], start=1):
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


# --- every game's replay ----------------------------------------------------------------------


def _hextension_game(ana, bo, per_round=1):
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": per_round},
                                created_by=ana, players=[ana, bo], join=False, turn_seconds=86400)
    services.start_game(game_id=game.pk)
    return game


def _place(game, user, seat, choice=0):
    game.refresh_from_db()
    moves = hextension.legal_moves(state_store.load(game), seat)
    move = moves[min(choice, len(moves) - 1)]
    services.submit_move(game_id=game.pk, user=user, move=move, expected_version=game.version)
    return move


def test_a_running_hextension_replay_stops_before_the_open_round(client, make_user):
    ana, bo, eve = make_user("ana"), make_user("bo"), make_user("eve")
    game = _hextension_game(ana, bo)
    _place(game, ana, 0)
    _place(game, bo, 1)  # round 1 closes
    secret = _place(game, ana, 0, choice=7)  # round 2: ana's submission, open
    game.refresh_from_db()
    assert game.version == 3 and game.turn_started_version == 2
    state = state_store.load(game)
    undrawn = state.deck[2:]
    for user in (bo, ana):
        client.force_login(user)
        for at in (None, 3, 99):
            response = client.get(reverse("game_replay", args=[game.pk]), {} if at is None else {"at": at})
            assert response.status_code == 200
            step, view = response.context["step"], response.context["view"]
            assert step.last == 2 and step.at == 2 and view.get("pending") is None
            page = response.content.decode()
            (tile, cell), = secret["placements"].items()
            assert f"{tile} on {cell}" not in page and f"Cell {cell}, tile {tile}" not in page
            assert not any(f"tile {t}" in page or f">{t}<" in page or f"cell_{t}" in page for t in undrawn)
            assert str(game.seed) not in page and 'name="version"' not in page  # no move form in a replay
    assert reverse("game_replay", args=[game.pk]) in client.get(reverse("game_detail", args=[game.pk])).content.decode()
    client.force_login(eve)  # the game is public, but a running game is its players' to replay
    assert client.get(reverse("game_replay", args=[game.pk])).status_code == 403
    assert reverse("game_replay", args=[game.pk]) not in client.get(reverse("game_detail", args=[game.pk])).content.decode()


def test_a_finished_hextension_replay_shows_every_board_round_by_round(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = _hextension_game(ana, bo, per_round=3)
    for _ in range(7):
        _place(game, ana, 0)
        _place(game, bo, 1, choice=1)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.version == 14
    client.force_login(bo)
    first = client.get(reverse("game_replay", args=[game.pk]), {"at": 0})
    assert first.context["step"].turns == list(range(0, 15, 2)) and first.context["step"].next_turn == 2
    assert "Before the first round" in first.content.decode()
    mid = client.get(reverse("game_replay", args=[game.pk]), {"at": 5})
    page = mid.content.decode()
    assert "Diagrams after round 2 of 7" in page and page.count('class="hx-diagram"') == 2
    assert "1 of 2 had moved (ana)" in page and "at most" in page
    step = mid.context["step"]
    assert (step.previous_turn, step.next_turn, step.turn_label) == (4, 6, "Round 3 of 7")
    assert 'data-replay-key="PageDown"' in page and 'href="?at=6"' in page and "js/replay.js" in page
    end = client.get(reverse("game_replay", args=[game.pk])).content.decode()
    assert "Final diagrams" in end and end.count('class="hx-diagram"') == 2 and "at most" not in end


def test_a_hextremadura_replay_grows_the_map_tile_by_tile_with_the_objectives(client, make_user):
    from games.hextremadura import engine as hextremadura

    ana = make_user("ana")
    client.force_login(ana)
    client.post(reverse("hextremadura_new"))
    game = Game.objects.get()
    for version in range(4):
        move = hextremadura.legal_moves(state_store.load(game), 0)[0]
        services.submit_move(game_id=game.pk, user=ana, move=move, expected_version=version)
        game.refresh_from_db()
    for at in range(5):  # a running solo game: every placement so far
        response = client.get(reverse("game_replay", args=[game.pk]), {"at": at})
        assert response.status_code == 200 and response.context["step"].last == 4
        page = response.content.decode()
        assert len(response.context["view"]["map"]) == at and page.count('class="hxt-tile hxt-face-') == at
        assert "Objectives" in page and "Discover quests" in page and 'name="version"' not in page
    assert str(game.seed) not in page


def test_a_hexland_replay_shows_each_player_only_their_own_cards(client, make_user, settings):
    import random

    from games.hexland import engine as hexland

    settings.GAME_MOVE_RATE_LIMIT = (1000, 10)
    ana, bo = make_user("ana"), make_user("bo")
    game = services.create_game(kind="hexland", config={"players": 2, "layout": "fixed", "timers": "normal"},
                                created_by=ana, players=[ana, bo], join=False, turn_seconds=120)
    services.start_game(game_id=game.pk)
    rng, users = random.Random(3), {0: ana, 1: bo}
    for _ in range(30):
        game.refresh_from_db()
        seat = game.awaiting[0]
        moves = [m for m in hexland.view(state_store.load(game), seat)["legal_moves"] if m["type"] != "offer"]
        services.submit_move(game_id=game.pk, user=users[seat], move=rng.choice(moves), expected_version=game.version)
    game.refresh_from_db()
    for seat, user in users.items():
        client.force_login(user)
        for at in range(0, game.version + 1, 3):
            response = client.get(reverse("game_replay", args=[game.pk]), {"at": at})
            assert response.status_code == 200
            view = response.context["view"]
            assert view == hexland.view(state_store.replay(game, upto=at), seat)
            page = response.content.decode()
            owners = set(__import__("re").findall(r'data-owner="(\d+)"', page))
            assert owners == {str(seat)}  # only the viewer's own hand is drawn
            assert 'name="version"' not in page and str(game.seed) not in page
