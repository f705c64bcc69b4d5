"""Every Hextension view, a seat's and a spectator's, is of the engine's VIEW_SCHEMA (the API's
OpenAPI document gives it for a game's view): random legal games, timeouts and missed rounds
included, short (three tiles a round)."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.hextension import engine as hx
from tests.support.view_schemas import HIDDEN_NAMES, problems, property_names, validator

CHECK = validator(hx.VIEW_SCHEMA)


def _viewers(state) -> list:
    return [None, *range(state.players)]


@given(st.integers(0, 10**9), st.integers(1, 3), st.integers(0, 10**6))
@settings(max_examples=4, deadline=None)
def test_every_view_of_a_random_game_is_of_the_schema(seed, players, choice):
    rng = random.Random(choice)
    state = hx.new_state({"players": players, "tiles_per_round": 3}, seed)
    while True:
        for seat in _viewers(state):
            found = problems(CHECK, hx.view(state, seat))
            assert not found, (seat, found)
        if hx.is_over(state):
            break
        seat = rng.choice(sorted(hx.waiting_for(state)))
        if rng.random() < 0.1:  # a missed round (the first is placed by the strong AI: slow)
            state = hx.timeout_move(state, seat)
        else:
            state = hx.apply(state, seat, rng.choice(hx.legal_moves(state, seat)))
    assert hx.view(state, None)["over"] is True


def test_a_field_the_schema_does_not_name_is_refused():
    """The schema is closed: a new field in a view (a leak, say) fails the check above."""
    state = hx.new_state({"players": 2, "tiles_per_round": 2}, 7)
    assert not problems(CHECK, hx.view(state, 0))
    assert problems(CHECK, {**hx.view(state, 0), "deck": list(state.deck)})
    assert problems(CHECK, {**hx.view(state, None), "pending": None})  # a spectator has no move of its own
    seats = hx.view(state, 1)["seats"]
    assert problems(CHECK, {**hx.view(state, 1), "seats": [{**seats[0], "pending": {"123": "A1"}}, seats[1]]})


def test_the_schema_names_nothing_hidden():
    assert not property_names(hx.VIEW_SCHEMA) & HIDDEN_NAMES
