"""Every Hextremadura view is of the engine's VIEW_SCHEMA (the API's OpenAPI document gives it
for a game's view): random legal games to their end."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import games.hextremadura.engine as hx
from tests.support.view_schemas import HIDDEN_NAMES, problems, property_names, validator

CHECK = validator(hx.VIEW_SCHEMA)
MAX_PLACEMENTS = 18 + 15  # every tile, and each terrain tile once more


@given(seed=st.integers(0, 2**31), picks=st.lists(st.integers(0, 10**6), min_size=MAX_PLACEMENTS,
                                                  max_size=MAX_PLACEMENTS))
@settings(max_examples=3, deadline=None)
def test_every_view_of_a_random_game_is_of_the_schema(seed, picks):
    state = hx.new_state({}, seed)
    for pick in picks:
        for seat in (0, None):  # the player, and a spectator (who sees the same)
            found = problems(CHECK, hx.view(state, seat))
            assert not found, (seat, found)
        if hx.is_over(state):
            break
        legal = hx.legal_moves(state, 0)
        state = hx.apply(state, 0, legal[pick % len(legal)])
    assert hx.is_over(state)


def test_a_field_the_schema_does_not_name_is_refused():
    state = hx.new_state({}, 3)
    view = hx.view(state)
    assert not problems(CHECK, view)
    assert problems(CHECK, {**view, "queue": list(state.queue)})
    assert problems(CHECK, {**view, "discovery": {**view["discovery"], "order": list(state.queue)}})


def test_the_schema_names_nothing_hidden():
    assert not property_names(hx.VIEW_SCHEMA) & HIDDEN_NAMES
