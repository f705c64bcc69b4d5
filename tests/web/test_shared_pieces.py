"""A Hextension board's repeated parts (diagram cards, standings rows, the draw's history) are
drawn once and reused by every viewer (games.hextension.fragments). Reuse must change nothing
anyone sees, and above all never carry one seat's open-round submission to another viewer."""
from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from games import live, services
from games.hextension import fragments
from games.hextension.svg import describe_tile
from games.models import Game
from tests.support.factories import hextension_place

pytestmark = pytest.mark.django_db


def game_of(users, tiles_per_round=1) -> Game:
    game = services.create_game(kind="hextension", config={"players": len(users), "tiles_per_round": tiles_per_round},
                                created_by=None, players=users, turn_seconds=86400)
    services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


submit = hextension_place


def board_of(game: Game, user, *, cold: bool = False) -> str:
    """Every region of ``user``'s live page, and the diagrams it loads when they are seen."""
    if cold:
        fragments.forget()
        live.forget_drawings()
    view = live.LiveView(Game.objects.get(pk=game.pk), user)
    html = "".join(live.page_regions(view, "token", chat=False).values())
    diagrams = live.region_by_id(view.game, "hx-diagrams")
    html += render_to_string(diagrams.body_template, view.context(diagrams))
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


def test_what_every_viewer_shares_marks_nobody_and_the_page_names_its_viewers_seat(make_user, client):
    """Standings and diagrams are drawn once for every viewer: they say "you" to nobody, and
    carry each seat's number, which the page marks for its own viewer (static/js/live.js)."""
    ana, bo, cy = (make_user(name) for name in ("ana", "bo", "cy"))
    game = game_of([ana, bo, cy])
    for seat, (user, cell) in enumerate(((ana, "A1"), (bo, "B2"), (cy, "C3"))):
        submit(game, user, seat, [cell])
    game.refresh_from_db()
    fragments.forget()
    pages = {user.username: board_of(game, user) for user in (ana, bo, cy, make_user("dee"))}
    for name, page in pages.items():
        assert "(you)" not in page and "hx-you" not in page, name
        assert all(f'data-seat="{seat}"' in page for seat in range(3)), name
    for seat, user in enumerate((ana, bo, cy)):
        client.force_login(user)
        assert f'data-viewer-seat="{seat}"' in client.get(f"/games/{game.pk}/").content.decode()
