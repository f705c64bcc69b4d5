"""A Hextension seat's own region (`hx-play`) is keyed from the game's row alone
(``games.hextension.site._own_part``): the round, the status, whether the seat is awaited. A
socket sends the region only when its key changes, so the key must change whenever the region's
drawing does, through submissions in any order, timeouts and the game's end."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.template.loader import render_to_string
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import live, selectors, services, state_store
from games.hextension import engine as hextension
from games.models import Game
from games.services.moves import apply_timeouts

pytestmark = pytest.mark.django_db


# The version the placement form was drawn at: a submission made at any version of its round is
# played (rounds are simultaneous: games.services.moves._is_current), so the form need not be
# drawn again when another seat submits, and it is not.
FORM_VERSION = re.compile(r'(name="version" value=)"\d+"')


def drawn_own_part(game: Game, user) -> tuple[tuple, str]:
    """The region's key and its drawing, drawn afresh (not from the drawings' cache, which is
    keyed by it), its form's version left out."""
    view = live.LiveView(game, user)
    region = live.region_by_id(game, "hx-play")
    html = live.compact(render_to_string(region.template, view.context(region)))
    return view.key(region), FORM_VERSION.sub(r'\1"…"', html)


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chance=st.randoms(use_true_random=False))
def test_the_own_region_s_key_changes_whenever_its_drawing_does(make_user, chance):
    players = [make_user() for _ in range(3)]
    game = services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 1}, created_by=None,
                                players=players, turn_seconds=86400)
    services.start_game(game_id=game.pk)
    viewers = [*players, None]  # None: a spectator
    shown: dict = {}
    changes = 0

    def look() -> Game:
        nonlocal changes
        current = selectors.game_for_viewer(game.pk, players[0])
        for viewer in viewers:
            key, html = drawn_own_part(current, viewer)
            if viewer in shown and shown[viewer][1] != html:
                assert shown[viewer][0] != key, f"the drawing changed at version {current.version} with the same key"
                changes += 1
            shown[viewer] = (key, html)
        return current

    current = look()
    for _round in range(5):
        order = chance.sample(range(len(players)), len(players))
        deadline_after = chance.choice([None, None, 0, 1, 2])  # how many submit before the deadline passes
        for done, seat in enumerate(order):
            if current.status != Game.Status.ACTIVE:
                break
            if done == deadline_after:
                apply_timeouts(game_id=game.pk, now=current.deadline_at + timedelta(seconds=1))
                current = look()
                break
            if seat not in current.awaiting:  # out of the game after missed rounds
                continue
            move = chance.choice(hextension.legal_moves(state_store.load(current), seat))
            services.submit_move(game_id=game.pk, user=players[seat], move=move, expected_version=current.version)
            current = look()
    assert changes > 0  # the drawings did change, so the check above was made
