"""What a Hexland move means (``move_context``): the platform plays a move chosen at an older
version only when its context there is its context now (docs/hexland.md)."""
from __future__ import annotations

import json

from games.hexland import engine as H
from games.protocol import Engine

from .helpers import position

ENGINE = Engine(H)
OFFER = {"type": "offer", "give": {"wood": 1}, "get": {"ore": 1}}


def trading():
    """Ana (seat 0) offers a wood for an ore to Bo and Cy, who both hold ore."""
    state = position(players=3, settlements={0: [10], 1: [40], 2: [30]},
                     hands={0: {"wood": 2}, 1: {"ore": 2}, 2: {"ore": 1}})
    return state, H.apply(state, 0, OFFER)


def test_answers_of_others_change_nothing_a_seat_answers_confirms_or_ends():
    main, offered = trading()
    accepted = H.apply(offered, 1, {"type": "accept"})
    declined = H.apply(accepted, 2, {"type": "decline"})
    assert ENGINE.still_meant(offered, declined, 2, {"type": "decline"})
    assert ENGINE.still_meant(accepted, declined, 0, {"type": "confirm", "seat": 1})
    assert ENGINE.still_meant(offered, declined, 0, {"type": "end_turn"})
    # The offer closed (every answer a no): the turn goes on; ending it still means ending it.
    closed = H.apply(H.apply(offered, 1, {"type": "decline"}), 2, {"type": "decline"})
    assert closed.offer is None
    assert ENGINE.still_meant(offered, closed, 0, {"type": "end_turn"})
    assert ENGINE.still_meant(main, closed, 0, {"type": "build_road", "edge": 3})
    assert not ENGINE.still_meant(offered, closed, 0, {"type": "confirm", "seat": 1})


def test_an_answer_to_a_replaced_offer_means_something_else():
    _, offered = trading()
    replaced = H.apply(H.apply(offered, 0, {"type": "cancel"}), 0, {**OFFER, "get": {"ore": 2}})
    assert not ENGINE.still_meant(offered, replaced, 1, {"type": "accept"})
    assert ENGINE.stale_message(offered, replaced, 1, {"type": "accept"}) == \
        "That offer has changed: look at the new one before you answer."
    withdrawn = H.apply(offered, 0, {"type": "cancel"})
    assert ENGINE.stale_message(offered, withdrawn, 1, {"type": "decline"}) == "That offer is no longer open."
    # The same offer made again is the same question.
    again = H.apply(withdrawn, 0, OFFER)
    assert ENGINE.still_meant(offered, again, 1, {"type": "accept"})


def test_a_new_turn_changes_every_meaning_and_contexts_are_json():
    main, offered = trading()
    next_turn = H.apply(main, 0, {"type": "end_turn"})
    for move in ({"type": "end_turn"}, {"type": "build_road", "edge": 3}, {"type": "accept"}):
        assert not ENGINE.still_meant(main, next_turn, 0, move)
    for state in (main, offered, next_turn):
        for move in ({"type": "accept"}, {"type": "discard", "cards": {"wood": 1}},
                     {"type": "bank_trade", "give": "wood", "get": "ore"}):
            context = H.move_context(state, 1, move)
            assert json.loads(json.dumps(context)) == context  # lists, not tuples


def test_an_engine_without_the_hook_keeps_strict_versions():
    from games.hextremadura import engine as solo

    engine = Engine(solo)
    state = solo.new_state({"players": 1}, 7)
    move = solo.legal_moves(state, 0)[0]
    assert not engine.has_move_context and not engine.still_meant(state, state, 0, move)
