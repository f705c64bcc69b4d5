"""Pushes send what changed: within a Hextension round a submission sends watchers only who has
moved (an out-of-band fragment); the submitter's own sockets, a new round and any change of the
clock or status get the whole board. Over the real Redis channel layer."""
from __future__ import annotations

import itertools
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from hypothesis import given, settings
from hypothesis import strategies as st

from games import services, state_store
from games.consumers import PushState, push_for
from games.hextension import engine as hextension
from accounts.models import User
from games.models import Game
from tests.web.test_consumer import close_db_connections, communicator_for, run_scenario

pytestmark = pytest.mark.django_db(transaction=True)
USER_NUMBERS = itertools.count()


def three_player_game(ana, bo, cy) -> Game:
    game = services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 2},
                                created_by=None, players=[ana, bo, cy], turn_seconds=86400)
    services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def placement(game: Game, seat: int, cells: list[str]) -> dict:
    view = hextension.view(state_store.load(Game.objects.get(pk=game.pk)), seat)
    return {"type": "place", "placements": dict(zip(view["drawn"], cells))}


def submit(game: Game, user, seat: int, cells: list[str]) -> None:
    current = Game.objects.get(pk=game.pk)
    services.submit_move(game_id=game.pk, user=user, move=placement(game, seat, cells), expected_version=current.version)


def is_board(html: str) -> bool:
    return html.lstrip().startswith('<div id="game-board"')


def moved_names(html: str) -> str:
    return re.search(r"Moved: (.*?)\.</p>", html, re.S).group(1)


def assert_progress_fragment(html: str, moved: list[str], hidden: list[str]) -> None:
    """Only the progress element, swapped out of band by its id; nothing of anyone's board."""
    assert html.lstrip().startswith('<div id="hx-progress"') and 'hx-swap-oob="true"' in html
    assert not is_board(html) and 'id="game-board"' not in html
    assert "<svg" not in html and "<form" not in html and "<select" not in html
    assert moved_names(html) == ", ".join(moved)
    for secret in hidden:
        assert secret not in html


def test_a_submission_sends_watchers_who_moved_and_the_submitter_their_board(make_user):
    ana, bo, cy, dee = make_user("ana"), make_user("bo"), make_user("cy"), make_user("dee")
    game = three_player_game(ana, bo, cy)
    drawn = hextension.view(state_store.load(game), None)["drawn"]
    ana_cells = ["A1", "C3"]

    async def scenario():
        sockets = {user.username: communicator_for(game, user, token=game.board_token) for user in (ana, bo, cy, dee)}
        for socket in sockets.values():
            assert (await socket.connect())[0]
        for socket in sockets.values():
            assert await socket.receive_nothing(timeout=0.3)  # every page is current

        # Ana (seat 0) submits: the others see that she moved, and nothing of where.
        await sync_to_async(submit)(game, ana, 0, ana_cells)
        for name in ("bo", "cy", "dee"):
            fragment = await sockets[name].receive_from(timeout=5)
            assert_progress_fragment(fragment, moved=["ana"], hidden=ana_cells + [f"cell_{tile}" for tile in drawn])
            assert "1 of 3 have moved" in fragment and "Waiting for: bo, cy." in fragment
        # Her own socket (another tab of hers) gets the board, with her submission in it.
        own = await sockets["ana"].receive_from(timeout=5)
        assert is_board(own) and "You have submitted" in own and 'data-version="1"' in own
        assert '<option value="A1" selected>' in own and '<option value="C3" selected>' in own

        # Bo submits: Ana, now a watcher of others' moves, gets the fragment too.
        await sync_to_async(submit)(game, bo, 1, ["B2", "D1"])
        for name in ("ana", "cy", "dee"):
            fragment = await sockets[name].receive_from(timeout=5)
            assert_progress_fragment(fragment, moved=["ana", "bo"], hidden=["B2", "D1", "A1", "C3"])
        assert is_board(await sockets["bo"].receive_from(timeout=5))

        # Cy's submission closes the round: everyone gets the board of round 2.
        token_in_round_1 = (await sync_to_async(Game.objects.get)(pk=game.pk)).board_token
        await sync_to_async(submit)(game, cy, 2, ["E1", "E2"])
        for name, socket in sockets.items():
            html = await socket.receive_from(timeout=5)
            assert is_board(html) and "Round 2 of" in html and "<svg" in html, name
        for socket in sockets.values():
            assert await socket.receive_nothing(timeout=0.3)
            await socket.disconnect()

        # A page from round 1 reconnects: it catches up with the whole board at once.
        again = communicator_for(game, dee, token=token_in_round_1)
        assert (await again.connect())[0]
        html = await again.receive_from(timeout=5)
        assert is_board(html) and "Round 2 of" in html
        await again.disconnect()
        await close_db_connections()

    run_scenario(scenario)


def test_a_socket_reconnecting_within_the_round_gets_the_board_not_a_fragment(make_user):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    game = three_player_game(ana, bo, cy)
    page_token = game.board_token
    submit(game, ana, 0, ["A1", "C3"])

    async def scenario():
        socket = communicator_for(game, bo, token=page_token)
        assert (await socket.connect())[0]
        html = await socket.receive_from(timeout=5)
        assert is_board(html) and "Moved: ana." in html
        assert await socket.receive_nothing(timeout=0.3)
        await socket.disconnect()
        await close_db_connections()

    run_scenario(scenario)


def test_the_board_is_sent_again_when_the_clock_the_status_or_the_figures_change(make_user):
    """The decision itself, step by step: a change of the deadline, the status or the hindsight
    figures within a round is not "who has moved", whatever else happened."""
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    game = three_player_game(ana, bo, cy)
    _, sent = push_for(game.pk, bo, None, page_token=game.board_token)
    assert sent == PushState.of(game)

    submit(game, ana, 0, ["A1", "C3"])
    html, sent = push_for(game.pk, bo, sent)
    assert html.lstrip().startswith('<div id="hx-progress"') and sent.version == 1
    assert push_for(game.pk, bo, sent) == (None, sent)  # nothing new: nothing sent

    changes = [
        {"deadline_at": game.deadline_at + timedelta(hours=5)},  # an organiser extends the round
        {"status": Game.Status.PAUSED, "deadline_at": None},
        {"status": Game.Status.ACTIVE, "deadline_at": game.deadline_at},
        {"analysis": {"best_score": 180}},  # (only finished games have figures; the token alone here)
        {"analysis": None},
    ]
    for change in changes:
        Game.objects.filter(pk=game.pk).update(**change)
        html, sent = push_for(game.pk, bo, sent)
        assert is_board(html), change
    submit(game, cy, 2, ["B1", "B2"])
    html, sent = push_for(game.pk, bo, sent)
    assert html.lstrip().startswith('<div id="hx-progress"') and moved_names(html) == "ana, cy"
    # Bo moves from another tab: his board shows his own submission, so this tab gets the board.
    submit(game, bo, 1, ["C1", "C2"])
    html, sent = push_for(game.pk, bo, sent)
    assert is_board(html) and "Round 2 of" in html


def test_a_watcher_whose_own_seat_moved_in_another_tab_gets_the_board_even_among_others_moves(make_user):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    game = three_player_game(ana, bo, cy)
    sent = PushState.of(game)
    submit(game, ana, 0, ["A1", "C3"])
    submit(game, bo, 1, ["B1", "B2"])  # Bo's other tab, then Ana's move: one push covers both
    html, _ = push_for(game.pk, bo, sent)
    assert is_board(html) and "You have submitted" in html
    html, _ = push_for(game.pk, cy, sent)
    assert html.lstrip().startswith('<div id="hx-progress"') and moved_names(html) == "ana, bo"


def progress_of(html: str) -> str:
    """The page's #hx-progress element, as a fresh board draws it (without the push's marker)."""
    element = re.search(r'<div id="hx-progress".*?</div>', html, re.S).group(0)
    return element.replace(' hx-swap-oob="true"', "")


@settings(max_examples=12, deadline=None)
@given(moves=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 10_000)), min_size=1, max_size=9))
def test_pages_fed_by_pushes_show_what_a_fresh_board_shows(moves):
    """Any order of submissions and resubmissions: after each, every page (three players and a
    spectator) that applies its pushes (a board replaces the page, a fragment its progress)
    shows the same progress as a board drawn afresh, and no fragment names a placed cell."""
    watchers = [User.objects.create(username=f"w{next(USER_NUMBERS)}") for _ in range(4)]
    players = watchers[:3]
    game = three_player_game(*players)
    sent = {user.pk: PushState.of(game) for user in watchers}
    shown = {user.pk: progress_of(push_for(game.pk, user, None)[0]) for user in watchers}
    placed: set[str] = set()
    for seat, choice in moves:
        current = Game.objects.get(pk=game.pk)
        if current.status != Game.Status.ACTIVE:
            break
        view = hextension.view(state_store.load(current), seat)
        empty = [cell for cell in hextension.CELLS if cell not in view["seats"][seat]["board"]]
        cells = [empty[(choice + i) % len(empty)] for i in range(2)]
        cells[1] = cells[1] if cells[1] != cells[0] else empty[(choice + 2) % len(empty)]
        submit(game, players[seat], seat, cells)
        placed.update(cells)
        for user in watchers:
            html, sent[user.pk] = push_for(game.pk, user, sent[user.pk])
            if html is None:
                continue
            if is_board(html):
                shown[user.pk] = progress_of(html) if 'id="hx-progress"' in html else ""
            else:
                assert not any(re.search(rf"\b{cell}\b", html) for cell in placed)
                shown[user.pk] = progress_of(html)
            fresh = push_for(game.pk, user, None)[0]
            assert shown[user.pk] == (progress_of(fresh) if 'id="hx-progress"' in fresh else "")
