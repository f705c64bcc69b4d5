"""Before a move is stored, its views must be strict JSON (``state_store.check_storable``). A
seat's view is checked against the spectator's, skipping the parts that are the very same
objects: that shortcut must refuse exactly what ``json.dumps(view, allow_nan=False)`` refuses."""
from __future__ import annotations

import json
import types

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from games.errors import BadMove
from games.state_store import check_storable, check_strict_json

keys = st.text(max_size=3)
valid_leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                         st.text(max_size=4))
any_leaves = st.one_of(valid_leaves, st.sampled_from([float("nan"), float("inf"), -float("inf")]),
                       st.builds(set), st.just(b"bytes"), st.builds(object))
valid_values = st.recursive(valid_leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
                            max_leaves=24)
any_values = st.recursive(
    any_leaves,
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner) | st.dictionaries(keys, inner, max_size=3)
    | st.dictionaries(st.one_of(st.integers(), st.floats(), st.booleans(), st.none(), st.tuples(st.integers())),
                      inner, max_size=2),
    max_leaves=8)


def seat_view_of(data, value):
    """A view made from ``value`` as engines make them: parts shared as they are, containers
    copied one level deep, some parts new (perhaps not JSON at all)."""
    how = data.draw(st.sampled_from(["share", "copy", "new"]))
    if how == "share":
        return value
    if how == "new":
        return data.draw(any_values)
    if isinstance(value, dict):
        made = {key: seat_view_of(data, item) for key, item in value.items()}
        if data.draw(st.booleans()):
            made[data.draw(keys)] = data.draw(any_values)
        return made
    if isinstance(value, list):
        return [seat_view_of(data, item) for item in value]
    return value


def refused(check) -> bool:
    try:
        check()
    except (TypeError, ValueError):
        return True
    return False


@hsettings(max_examples=400, deadline=None)
@given(public=st.dictionaries(keys, valid_values, max_size=5), data=st.data())
def test_checking_a_seat_view_against_the_spectators_refuses_what_json_refuses(public, data):
    seat_view = seat_view_of(data, public)
    assert refused(lambda: check_strict_json(seat_view, checked=public)) == \
        refused(lambda: json.dumps(seat_view, allow_nan=False))


def test_a_view_that_holds_itself_is_refused_before_it_is_stored():
    """The spectator's view is encoded without the encoder's check for cycles: a cycle must
    still be refused, with the players' message, not loop or fail as a server error."""
    looped: dict = {"board": {}}
    looped["board"]["again"] = looped
    engine = types.SimpleNamespace(view=lambda state, seat: looped)
    game = types.SimpleNamespace(pk=1, kind="hextension")
    with pytest.raises(BadMove, match="cannot be shown"):
        check_storable(game, engine, state=None, seats={None})
