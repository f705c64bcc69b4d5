"""A Hextension board's repeated parts (diagram cards, standings rows, the draw's history) are
drawn once and reused by every viewer (games.hextension.fragments). Reuse must change nothing
anyone sees, and above all never carry one seat's open-round submission to another viewer."""
from __future__ import annotations

import re

import pytest

from games import services, state_store
from games.consumers import board_push
from games.hextension import engine as hextension
from games.hextension import fragments
from games.hextension.svg import describe_tile
from games.models import Game

pytestmark = pytest.mark.django_db


def game_of(users, tiles_per_round=1) -> Game:
    game = services.create_game(kind="hextension", config={"players": len(users), "tiles_per_round": tiles_per_round},
                                created_by=None, players=users, turn_seconds=86400)
    services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def submit(game: Game, user, seat: int, cells: list[str]) -> dict:
    current = Game.objects.get(pk=game.pk)
    view = hextension.view(state_store.load(current), seat)
    placements = dict(zip(view["drawn"], cells))
    services.submit_move(game_id=game.pk, user=user, move={"type": "place", "placements": placements},
                         expected_version=current.version)
    return placements


def board_of(game: Game, user, *, cold: bool = False) -> str:
    if cold:
        fragments.forget()
    html, _ = board_push(game.pk, user)
    # The CSRF token differs per render; nothing else may.
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


def test_pieces_reused_across_viewers_give_each_the_board_a_fresh_draw_gives(make_user):
    ana, bo, cy, dee = (make_user(name) for name in ("ana", "bo", "cy", "dee"))  # dee watches
    game = game_of([ana, bo, cy])
    for seat, (user, cell) in enumerate(((ana, "A1"), (bo, "B2"), (cy, "C3"))):
        submit(game, user, seat, [cell])  # round 1 closes: every board has a tile, diagrams show it
    # Round 2 is open and Ana has submitted: only her own board may show it.
    (tile, cell), = submit(game, ana, 0, ["E3"]).items()
    game.refresh_from_db()

    fragments.forget()
    warm = {user.username: board_of(game, user) for user in (ana, bo, cy, dee)}  # Ana's first: she fills the caches
    assert len(fragments._cards) > 0  # the others were served from pieces her page drew
    for user in (ana, bo, cy, dee):
        assert warm[user.username] == board_of(game, user, cold=True), user.username

    own_planned = f"{cell}: {describe_tile(tile)}, planned this round"
    assert 'data-state="pending"' in warm["ana"] and own_planned in warm["ana"]
    for name in ("bo", "cy", "dee"):
        page = warm[name]
        assert 'data-state="pending"' not in page and "planned this round" not in page, name
        assert f"{cell}: {describe_tile(tile)}" not in page, name  # Ana's open-round tile, nowhere
    # No piece kept for reuse holds anyone's open-round submission.
    for pieces in (fragments._cards, fragments._rows, fragments._histories):
        for html in pieces._items.values():
            assert "pending" not in html and "planned this round" not in html


def test_you_is_marked_for_the_viewer_alone(make_user):
    ana, bo, cy = (make_user(name) for name in ("ana", "bo", "cy"))
    game = game_of([ana, bo, cy])
    for seat, (user, cell) in enumerate(((ana, "A1"), (bo, "B2"), (cy, "C3"))):
        submit(game, user, seat, [cell])
    game.refresh_from_db()
    fragments.forget()
    for user in (ana, bo, cy, make_user("dee")):
        page = board_of(game, user)
        marked = re.findall(r"<strong>(\w+)</strong> \(you\)|<th scope=\"row\">(\w+) \(you\)</th>", page)
        names = {a or b for a, b in marked}
        if user.username == "dee":
            assert names == set() and "hx-you" not in page
        else:
            # One diagram card and one standings row, both the viewer's own.
            assert names == {user.username} and len(marked) == 2 and page.count("hx-you") == 2, user.username
