"""Leaving a live game: two turns timed out in a row hand the seat to the AI until its player
takes it back; a player who resigns is played on by the AI and ranks last."""
from __future__ import annotations

import html
import re
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


def play_out(game: Game, users: dict) -> None:
    """Play ``game`` to its end: the AI for the seats it plays, and for the others (``users``, by
    seat) a player who never builds: declines offers, rolls, ends turns, else the first legal move."""
    for _ in range(20_000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        seat = game.awaiting[0]
        if seat in game.ai_seat_indexes():
            assert services.play_ai_move(game_id=game.pk, expected_version=game.version, seat=seat)
            continue
        moves = engine.view(state_store.load(game), seat)["legal_moves"]
        move = next((m for kind in ("decline", "roll", "end_turn") for m in moves if m["type"] == kind), moves[0])
        services.submit_move(game_id=game.pk, user=users[seat], move=move, expected_version=game.version)
    raise AssertionError("the game did not end")


def test_players_who_resigned_rank_last_in_every_place_the_result_is_shown(client, make_user, mailoutbox):
    """ana resigns, then bo; the AI plays both seats and one of them reaches the points to win
    while cy never builds: cy wins, bo (the last to resign) is second, ana last, on the final
    screen, in the ratings, the players' figures and the result e-mail."""
    from games.hexland import selectors as hexland_selectors
    from games.models import RatingChange
    from games.services import notifications

    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    game = services.create_game(kind="hexland", config={"players": 3, "layout": "fixed", "order": [0, 1, 2], "vp_to_win": 4},
                                created_by=ana, players=[ana, bo, cy], join=False, turn_seconds=120)
    services.start_game(game_id=game.pk)
    print("seed", Game.objects.get(pk=game.pk).seed)
    services.resign_game(game_id=game.pk, user=ana)
    services.resign_game(game_id=game.pk, user=bo)
    play_out(game, {2: cy})

    game.refresh_from_db()
    played = engine.result(state_store.load(game))
    assert played["winner"] in (0, 1), played  # the AI won a resigned seat: cy never built
    assert game.result["ranks"] == [3, 2, 1] and game.result["winner"] == 2 and game.result["resigned"] == [0, 1]
    assert game.result["scores"] == played["scores"]

    for viewer in (ana, cy, make_user("dee")):  # dee watches
        client.force_login(viewer)
        response = client.get(reverse("game_detail", args=[game.pk]))
        assert response.status_code == 200, response
        page = response.content.decode()
        assert "Game over: cy wins" in page
        assert "ana wins" not in page and "bo wins" not in page
        final = page[page.index("hl-final-heading"):page.index("hl-dice-histogram")]
        rows = re.findall(r'<th scope="row">(\w+)(.*?)</th>', final)
        assert [name for name, _badges in rows] == ["cy", "bo", "ana"]
        assert [("winner" in badges, "resigned" in badges) for _name, badges in rows] == \
            [(True, False), (False, True), (False, True)]
        players = page[page.index('id="hl-players"'):]
        assert players.count("hl-winner") == 1 and 'data-seat="2"' in players[:players.index("hl-winner")].rsplit("<li", 1)[1]
        assert page.count('id="hl-public"') == 1, page
        log = html.unescape(page[page.index('class="hl-log"'):page.index("</ol>", page.index('class="hl-log"'))])
        assert re.search(r"(ana|bo)'s seat, played by the AI after they resigned, (reaches \d+ victory points|has the most points)",
                         log), log

    services.game_finished(game_id=game.pk)  # ratings and the result e-mail (sent for correspondence games only)
    mu = {change.user_id: change.mu for change in RatingChange.objects.filter(game=game)}
    assert mu[cy.pk] > mu[bo.pk] > mu[ana.pk]
    assert [hexland_selectors.player_stats(user).wins for user in (ana, bo, cy)] == [0, 0, 1]
    assert hexland_selectors.player_stats(ana).best_points is None  # the AI's points, not hers
    notifications.game_finished(game)
    mail = {message.to[0]: message.body for message in mailoutbox}
    assert "finished in place 3 of 3" in mail["ana@example.com"] and "finished in place 1 of 3" in mail["cy@example.com"]


@pytest.mark.parametrize("result, resigned, expected", [
    # Every player resigned (bo first): nobody wins; the last to resign ranks first.
    ({"winner": 0, "scores": [10, 7, 3], "ranks": [1, 2, 3]}, [[1], [0], [2]],
     {"winner": None, "ranks": [2, 3, 1], "resigned": [0, 1, 2]}),
    # The two who stayed share the first place: no single winner.
    ({"winner": 0, "scores": [10, 6, 6], "ranks": [1, 2, 2]}, [[0]], {"winner": None, "ranks": [3, 1, 1], "resigned": [0]}),
    # An engine naming its winners (as Hextension's): those ranked first that did not resign.
    ({"winners": [2], "scores": [50, 50, 60], "ranks": [2, 2, 1]}, [[2]], {"winners": [0, 1], "ranks": [1, 1, 3], "resigned": [2]}),
])
def test_players_who_resigned_rank_by_when_they_did_and_never_win(result, resigned, expected):
    from games import ranking

    ranked = ranking.resigned_rank_last(result, resigned)
    assert ranked == {**result, **expected}
