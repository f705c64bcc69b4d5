"""The game log in the player's language (games/hexland/log_words.py).

The engine writes its log in English; the site reads each sentence back and writes it again
with translatable wording. Read back in English, every sentence of whole played games (and of
each kind of event the engine logs) must come out exactly as the engine wrote it: then every
sentence is known, and another language gets each one through gettext. No database.
"""
from __future__ import annotations

import random

import pytest
from django.utils import translation

from games.hexland import engine as H
from games.hexland import log_words
from games.hexland.engine import ai
from games.hexland.engine.view import describe
from games.hexland.engine.board import RESOURCES

NAMES = ["Ana", "Bo", "AI (medium)", "x.y+1 ?"]  # names with what a pattern would read as its own


def played(seed: int, players: int = 4):
    state, rng = H.new_state({"players": players, "names": NAMES[:players]}, seed), random.Random(seed)
    for _step in range(3000):
        if H.is_over(state):
            break
        seat = rng.choice(sorted(H.actors(state)))
        if rng.random() < 0.03:
            state = H.timeout_move(state, seat)
            continue
        view = H.view(state, seat, log_tail=0)
        move = ai.decide(view, "weighted", rng) if rng.random() < 0.8 else rng.choice(view["legal_moves"])
        state = H.apply(state, seat, move)
    return state


@pytest.fixture(scope="module")
def games():
    return [played(seed, players) for seed, players in ((1, 4), (2, 3), (3, 2))]


def known(line: str, names) -> bool:
    return log_words.read(line, names) is not None


def test_every_line_of_played_games_reads_back_as_the_engine_wrote_it(games):
    kinds = set()
    with translation.override("en-gb"):
        for state in games:
            names = state.g.names
            node = state.log
            while node is not None:
                kinds.add(node[0][0])
                node = node[1]
            for seat in [None, *range(state.g.n)]:
                for line in H.view(state, seat)["log"]:
                    assert log_words.render(line, names) == line
                    assert known(line, names), line
    assert {"roll", "build_road", "build_settlement", "trade", "end_turn", "robber", "discard"} <= kinds


def _describe_all(state) -> list[tuple]:
    """One event of each kind the engine logs, its variants too, as the engine words them."""
    b = state.g.board
    desert = b.resource.index(None)
    land = next(h for h in range(19) if b.resource[h] is not None)
    events = [
        ("place_settlement", 0, 5), ("place_road", 1, 3), ("payout", 2, (0, 3, 4)), ("payout", 1, ()),
        ("auto_pair", 3, 5, 7), ("move_pair", 0, 5, 9, 3), ("start", 1),
        ("roll", 0, 3, 4, (), ()), ("roll", 1, 2, 3, ((0, 1, 1), (3, 4, 2)), ()),
        ("roll", 1, 2, 3, ((0, 1, 1),), (2, 4)), ("roll", 1, 5, 6, (), (3,)),
        ("discard", 2, (1, 0, 2, 0, 1)), ("robber", 0, desert, None, None), ("robber", 0, land, 1, 3),
        ("robber", 0, desert, 1, 2), ("robber", 0, land, None, None),
        ("build_road", 1, 4, True), ("build_road", 1, 4, False), ("build_settlement", 2, 12),
        ("build_city", 3, 30), ("buy_dev", 0, 2), ("play_dev", 0, 0, None), ("play_dev", 0, 1, None),
        ("play_dev", 0, 2, (1, 4)), ("play_dev", 0, 2, (4,)), ("play_dev", 0, 3, (2, 5)),
        ("bank_trade", 1, 0, 4, 4, 1), ("offer", 2, (1, 0, 0, 0, 0), (0, 0, 0, 2, 1)), ("answer", 3, True),
        ("answer", 0, False), ("offer_closed", 2, "declined"), ("offer_closed", 2, "cancelled"),
        ("offer_closed", 2, "lapsed"), ("trade", 0, 3, (1, 0, 0, 0, 0), (0, 0, 0, 0, 1)),
        ("longest_road", -1, 2, 5), ("longest_road", 1, -1, 5), ("longest_road", 1, 2, 7),
        ("largest_army", 3, -1, 3), ("largest_army", 3, 0, 4), ("end_turn", 2),
        ("timeout", 1, "setup"), ("timeout", 1, "turn"), ("timeout", 1, "discard"), ("win", 0, 10),
        ("turn_limit", 2, 8), ("turn_limit", -1, 7),
    ]
    out = []
    for event in events:
        for seat in (None, event[1] if isinstance(event[1], int) and event[1] >= 0 else None, 1):
            out.append((event, describe(event, state, seat)))
    return out


def test_each_kind_of_event_reads_back_as_the_engine_wrote_it():
    state = H.new_state({"players": 4, "names": NAMES}, 9)
    with translation.override("en-gb"):
        for event, line in _describe_all(state):
            assert known(line, NAMES), (event, line)
            assert log_words.render(line, NAMES) == line, event


def test_an_english_page_shows_the_engines_lines_and_another_language_reads_them_through_gettext():
    state = H.new_state({"players": 4, "names": NAMES}, 9)
    lines = [line for _event, line in _describe_all(state)]
    with translation.override("en-gb"):
        assert log_words.log_lines(lines, NAMES) == lines
    engine_lines = ["Bo built a road", "Bo traded 4 wood for 1 ore with the bank", "a line the engine never writes"]
    with translation.override("de"):
        german = log_words.log_lines(engine_lines, NAMES)
    with translation.override("es"):
        spanish = log_words.log_lines(engine_lines, NAMES)
    # The site's own catalogues (locale/de, locale/es): wording, resource names and counts.
    assert german == ["Bo hat eine Straße gebaut", "Bo hat mit der Bank 4 Holz gegen 1 Erz getauscht",
                      "a line the engine never writes"]
    assert spanish == ["Bo construyó un camino", "Bo cambió 4 madera por 1 mineral con la banca",
                       "a line the engine never writes"]
    assert set(RESOURCES) == {"wood", "brick", "sheep", "wheat", "ore"}
