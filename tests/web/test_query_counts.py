"""The pages the load harness reads and a round's push ask the database a fixed number of
questions: the count must not grow with the seats of a game, the games of a player or a lobby,
or the players of a league (benchmarks/push_costs.py prints the counts and the times)."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import copy
import json

from games import live, services, state_store
from games.consumers import Page, catch_up
from games.hextension import engine as hextension
from games.leagues import services as leagues
from games.leagues.models import League, LeagueEntry
from games.models import Game

pytestmark = pytest.mark.django_db


def queries(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


def running_game(users) -> Game:
    game = services.create_game(kind="hextension", config={"players": len(users), "tiles_per_round": 1},
                                created_by=None, players=users, turn_seconds=86400)
    services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def play_round(game: Game, users) -> None:
    for seat, user in enumerate(users):
        current = Game.objects.get(pk=game.pk)
        view = hextension.view(state_store.load(current), seat)
        empty = [c for c in hextension.CELLS if c not in view["seats"][seat]["board"]]
        services.submit_move(game_id=game.pk, user=user, move={"type": "place", "placements": {view["drawn"][0]: empty[0]}},
                             expected_version=current.version)


def test_the_game_page_and_a_rounds_push_do_not_grow_with_the_seats(client, make_user):
    everyone = [make_user() for _ in range(12)]
    counts = {}
    for size in (3, 12):
        users = everyone[:size]
        game = running_game(users)
        play_round(game, users[:-1])
        before = Page()
        catch_up(game.pk, users[1], before, page_stamp=live.stamp_of(Game.objects.get(pk=game.pk)))
        current = Game.objects.get(pk=game.pk)
        view = hextension.view(state_store.load(current), size - 1)
        services.submit_move(game_id=game.pk, user=users[-1],
                             move={"type": "place", "placements": {view["drawn"][0]: "A1"}},
                             expected_version=current.version)  # the round closes
        client.force_login(users[0])
        page = queries(lambda: client.get(f"/games/{game.pk}/"))
        push = queries(lambda: catch_up(game.pk, users[1], before))
        counts[size] = (page, push)
    assert counts[3] == counts[12], counts


def test_the_dashboard_and_the_lobby_do_not_grow_with_the_games(client, make_user):
    ana, bo, cy = make_user(), make_user(), make_user()
    client.force_login(ana)
    counts = []
    for more in (1, 6):
        for _ in range(more):
            running_game([ana, bo, cy])
            services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 1}, created_by=bo,
                                 turn_seconds=86400)
        counts.append((queries(lambda: client.get("/games/")), queries(lambda: client.get("/games/hextension/"))))
    assert counts[0] == counts[1], counts


def test_league_standings_do_not_grow_with_the_players(client, make_user):
    everyone = [make_user() for _ in range(10)]
    client.force_login(everyone[0])
    counts = []
    for size in (4, 10):
        league = League.objects.create(organiser=everyone[0], name=f"League {size}", starts_at=timezone.now(),
                                       schedule=League.Schedule.PARALLEL, season_games=2, round_hours=72)
        LeagueEntry.objects.bulk_create(LeagueEntry(league=league, user=u, status=LeagueEntry.Status.APPROVED)
                                        for u in everyone[:size])
        leagues.start_season(league_id=league.pk)
        counts.append(queries(lambda: client.get(f"/games/leagues/{league.pk}/")))
    assert counts[0] == counts[1], counts


def current(game: Game, user) -> Page:
    page = Page()
    catch_up(game.pk, user, page, page_stamp=live.stamp_of(Game.objects.get(pk=game.pk)))
    return page


def ids(frames: list[str]) -> list[str]:
    return [region["id"] for frame in frames for region in json.loads(frame)["regions"]]


def test_the_sockets_answering_one_announcement_read_the_game_once(make_user):
    users = [make_user() for _ in range(6)]
    game = running_game(users)
    pages = {user.pk: current(game, user) for user in users}
    play_round(game, users[:1])  # seat 0 moves: the others' sockets get who has moved
    alone = {user.pk: catch_up(game.pk, user, copy.deepcopy(pages[user.pk])) for user in users}  # each reading itself
    first = queries(lambda: catch_up(game.pk, users[1], copy.deepcopy(pages[users[1].pk]), announcement="one"))
    rest = queries(lambda: [catch_up(game.pk, user, copy.deepcopy(pages[user.pk]), announcement="one")
                            for user in users[2:]])
    assert first > 0 and rest == 0
    # Shared or not, each socket is sent the same thing: who has moved, and seat 0 its own board.
    shared = {user.pk: catch_up(game.pk, user, copy.deepcopy(pages[user.pk]), announcement="two") for user in users}
    assert shared == alone
    assert "hx-play" in ids(alone[users[0].pk])
    assert all(ids(alone[user.pk]) == ["hx-progress"] for user in users[1:])
    # The round closes: every socket gets its own board and the round's regions, from the one read.
    pages = {user.pk: current(game, user) for user in users}
    play_round(game, users[1:])
    first = queries(lambda: catch_up(game.pk, users[0], copy.deepcopy(pages[users[0].pk]), announcement="three"))
    rest = queries(lambda: [catch_up(game.pk, user, copy.deepcopy(pages[user.pk]), announcement="three")
                            for user in users[1:]])
    assert first > 0 and rest == 0
    boards = {user.pk: catch_up(game.pk, user, copy.deepcopy(pages[user.pk]), announcement="four") for user in users}
    assert boards == {user.pk: catch_up(game.pk, user, copy.deepcopy(pages[user.pk])) for user in users}
    assert all({"hx-play", "hx-standings", "hx-head"} <= set(ids(frames)) for frames in boards.values())


def play_hexland(game: Game, users, moves: int) -> None:
    """``moves`` legal moves (the first offered, offers aside) by whichever human seat is awaited."""
    from tests.support.factories import awaited_view

    for _ in range(moves):
        seat, view = awaited_view(game)
        legal = [m for m in view["legal_moves"] if m["type"] != "offer"]
        services.submit_move(game_id=game.pk, user=users[seat], move=legal[0], expected_version=game.version)


def test_the_hexland_room_and_its_lobby_do_not_grow_with_the_moves_or_the_rooms(client, make_user):
    """A room's page reads its state from the cache, never by replaying the events: the same
    questions after 4 moves as after 40; the lobby asks as many for 1 room as for 6."""
    from tests.support.factories import hexland_room

    ana, bo = make_user(), make_user()
    client.force_login(ana)
    game = hexland_room(ana, bo)
    play_hexland(game, [ana, bo], 4)
    counts = [(queries(lambda: client.get(f"/games/{game.pk}/")), queries(lambda: client.get("/games/hexland/")))]
    play_hexland(game, [ana, bo], 36)
    for _ in range(5):
        hexland_room(make_user(), make_user())
    counts.append((queries(lambda: client.get(f"/games/{game.pk}/")), queries(lambda: client.get("/games/hexland/"))))
    assert counts[0] == counts[1], counts


def game_page_statements(client, make_user) -> list[str]:
    """The SQL a seated player's game page asks, in order."""
    users = [make_user() for _ in range(3)]
    game = running_game(users)
    client.force_login(users[0])
    with CaptureQueriesContext(connection) as captured:
        assert client.get(f"/games/{game.pk}/").status_code == 200
    return [q["sql"] for q in captured]


def test_the_game_page_reads_the_seats_and_their_players_once(client, make_user):
    seat_reads = [sql for sql in game_page_statements(client, make_user)
                  if 'FROM "games_seat"' in sql and 'JOIN "accounts_user"' in sql]
    assert len(seat_reads) == 1, seat_reads  # the page's regions, presence and report links share them


def test_the_game_page_reads_the_chat_and_the_viewers_blocks_in_one_statement(client, make_user):
    statements = game_page_statements(client, make_user)
    assert not [sql for sql in statements if sql.startswith('SELECT "moderation_block"')], statements
    chat_reads = [sql for sql in statements if sql.startswith('SELECT "games_chatmessage"')]
    assert len(chat_reads) == 1 and '"moderation_block"' in chat_reads[0], chat_reads
