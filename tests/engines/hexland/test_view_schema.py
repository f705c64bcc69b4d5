"""Every Hexland view, each seat's and a spectator's, is of the engine's VIEW_SCHEMA (the API's
OpenAPI document gives it for a game's view): random legal games, trade offers and timeouts
included, kept short by the room's turn limit."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.hexland import engine as H
from tests.support.view_schemas import HIDDEN_NAMES, problems, property_names, validator

CHECK = validator(H.VIEW_SCHEMA)
MAX_STEPS = 400  # a game of one or two turns ends well within this


def _move(state, seat, rng: random.Random) -> dict:
    """Mostly a move without trade offers (a turn of offers would never end), now and then any."""
    moves = H.legal_moves(state, seat, offers=rng.random() < 0.15)
    return rng.choice(moves or H.legal_moves(state, seat))


@given(st.integers(0, 10**9), st.integers(2, 4), st.integers(1, 2), st.integers(0, 10**6))
@settings(max_examples=3, deadline=None)
def test_every_view_of_a_random_game_is_of_the_schema(seed, players, max_turns, choice):
    rng = random.Random(choice)
    state = H.new_state({"players": players, "max_turns": max_turns}, seed)
    for _ in range(MAX_STEPS):
        for seat in (None, *range(players)):
            found = problems(CHECK, H.view(state, seat))
            assert not found, (seat, H.view(state, seat)["phase"], found)
        if H.is_over(state):
            break
        seat = rng.choice(sorted(H.actors(state)))
        if rng.random() < 0.05:
            state = H.timeout_move(state, seat)
        else:
            state = H.apply(state, seat, _move(state, seat, rng))
    assert H.is_over(state)


def test_a_field_the_schema_does_not_name_is_refused():
    """The schema is closed: a new field in a view (a leak, say) fails the check above."""
    state = H.new_state({"players": 3}, 5)
    spectator = H.view(state, None)
    assert not problems(CHECK, spectator)
    assert problems(CHECK, {**spectator, "deck": list(state.deck)})
    assert problems(CHECK, {**spectator, "you": H.view(state, 0)["you"]})  # a spectator has no cards
    players = spectator["players"]
    assert problems(CHECK, {**spectator, "players": [{**players[0], "hand": {"wood": 1}}, *players[1:]]})


def test_the_schema_names_nothing_hidden():
    assert not property_names(H.VIEW_SCHEMA) & HIDDEN_NAMES
