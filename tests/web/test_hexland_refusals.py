"""Hexland's engine refusals in the site's words (games/hexland/refusals.py).

Every ``raise IllegalMove(...)`` in the engine's source is read here (its f-strings filled with
sample values), and so are the sentences of ``stale_message`` and of the move schema: each must
be a sentence the table knows, worded in English as the engine's sentence reads on the page
(``as_sentence``), and in another language through gettext. Refusals the engine really raises
in a played game are checked too. No database.
"""
from __future__ import annotations

import ast
import inspect
import itertools
import random
import re
import textwrap
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import trans_real

from games.errors import as_sentence
from games.hexland import engine as H
from games.hexland.engine import rules
from games.hexland.engine.schema import MOVE_SCHEMA
from games.hexland import words
from games.hexland.refusals import REFUSALS, Worded
from games.protocol import IllegalMove
from games.refusals import general_refusal
from games.sites import get_site

ENGINE = Path(rules.__file__).parent

# Sample values for the f-strings' expressions, by (expression, conversion): enough to write
# each sentence the way the engine can. A new expression in a refusal needs its samples here.
SAMPLES = {
    ("what", -1): ["node", "edge", "hex"],
    ("limit - 1", -1): ["53", "71", "18"],
    ("', '.join(RESOURCES)", -1): ["wood, brick, sheep, wheat, ore"],
    ("key", -1): ["give", "get", "resource", "cards"],
    ("name", ord("r")): ["'gold'", "3"],
    ("s.need[seat]", -1): ["1", "4"],
    ("cards[r]", -1): ["2"],
    ("give[r]", -1): ["3"],
    ("RESOURCES[r]", -1): ["wood", "brick", "sheep", "wheat", "ore"],
    ("names", -1): ["Ana, Bo", "AI (medium)"],
    ("name.replace('_', ' ')", -1): ["knight", "road building", "year of plenty", "monopoly"],
    ("rate * count", -1): ["8"],
    ("RESOURCES[give]", -1): ["wood", "ore"],
    ("rate", -1): ["4", "2"],
    ("s.bank[get]", -1): ["0", "1"],
    ("RESOURCES[get]", -1): ["sheep"],
    ("kind", ord("r")): ["'teleport'", "None"],
    ("kind", -1): ["build_road"],
    ("', '.join(extra)", -1): ["colour", "colour, size"],
}
# The refusals worded better than the engine's own sentence on an English page.
REWORDED = {"You only have to discard 1 card(s).": "You only have to discard 1 card.",
            "You only have to discard 4 card(s).": "You only have to discard 4 cards."}


def _texts(node: ast.expr) -> list[str]:
    """The sentences one ``IllegalMove(...)`` argument can be."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        choices = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                choices.append([part.value])
            else:
                key = (ast.unparse(part.value), part.conversion)
                assert key in SAMPLES, f"add sample values for {key} (a new refusal in the engine?)"
                choices.append(SAMPLES[key])
        return ["".join(parts) for parts in itertools.product(*choices)]
    if isinstance(node, ast.Call) and ast.unparse(node.func) == "_PHASE_REFUSAL.get":
        return [*rules._PHASE_REFUSAL.values(), *_texts(node.args[1])]
    raise AssertionError(f"a refusal this test cannot read: {ast.unparse(node)}")


def engine_refusals() -> list[str]:
    """Every sentence the engine's source refuses a move with."""
    out = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and ast.unparse(node.exc.func) == "IllegalMove"):
                assert len(node.exc.args) == 1, ast.unparse(node)
                out.extend(_texts(node.exc.args[0]))
    return out


def stale_sentences() -> list[str]:
    """What ``stale_message`` says of a move chosen on an older page."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(H.stale_message)))
    return [node.value.value for node in ast.walk(tree)
            if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)]


def schema_sentences(schema=MOVE_SCHEMA) -> set[str]:
    found = set()
    if isinstance(schema, dict):
        if isinstance(schema.get("errorMessage"), str):
            found.add(schema["errorMessage"])
        for value in schema.values():
            found |= schema_sentences(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= schema_sentences(value)
    return found


REFUSED = engine_refusals()
ALL = [*REFUSED, *stale_sentences(), *sorted(schema_sentences())]


def known(text: str) -> bool:
    return any(refusal.match(text) is not None for refusal in REFUSALS.refusals)


def test_the_engine_source_is_read_whole():
    assert len(REFUSED) > 60 and len(set(stale_sentences())) == 3 and len(schema_sentences()) == 10
    assert "it is not your turn" in REFUSED and "you do not hold 2 wheat" in REFUSED


@pytest.mark.parametrize("text", ALL)
def test_every_engine_sentence_is_in_the_table_and_reads_as_before_in_english(text):
    assert known(text), f"no refusal in games/hexland/refusals.py matches {text!r}"
    with translation.override("en-gb"):
        expected = as_sentence(text)
        assert REFUSALS(text) == REWORDED.get(expected, expected)


def test_every_table_entry_stands_for_an_engine_sentence():
    unused = [refusal.pattern for refusal in REFUSALS.refusals if not any(refusal.match(text) for text in ALL)]
    assert not unused, f"entries no engine sentence matches: {unused}"


def test_another_language_reads_the_tables_message_through_gettext():
    """German with no German words for a sentence: the table's message (English) through
    gettext, never the general sentence; a sentence no table knows is the general one."""
    for text in ALL:
        refusal = next(r for r in REFUSALS.refusals if r.match(text) is not None)
        with translation.override("en-gb"):
            english = REFUSALS(text)
        with translation.override("de"):
            worded = REFUSALS(text)
            assert worded != general_refusal(text), text
            # while German has no words for this message and the resources, it reads in English
            message_in_english = not isinstance(refusal, Worded) and str(refusal.message) == refusal.message._args[0]
            names_in_english = all(words.resource(code) == code for code in words.RESOURCES)
        if message_in_english and names_in_english:
            assert worded == english, text
    with translation.override("de"):
        assert REFUSALS("the moon is made of cheese") == general_refusal("the moon is made of cheese")
    with translation.override("en-gb"):
        assert REFUSALS("the moon is made of cheese") == "The moon is made of cheese."


def test_german_words_replace_the_message_and_the_resource(monkeypatch):
    """With German words in the catalogue, the refusal and the resource's name are German."""
    with translation.override("de"):
        catalog = trans_real.translation("de")._catalog
        added = {"It is not your turn.": "Du bist nicht am Zug.",
                 "You do not hold %(count)s %(resource)s.": "Du hast keine %(count)s %(resource)s.",
                 "hexland resource\x04wheat": "Getreide"}
        before = {key: catalog.get(key) for key in added}
        try:
            for key, value in added.items():
                catalog[key] = value
            assert REFUSALS("it is not your turn") == "Du bist nicht am Zug."
            assert REFUSALS("you do not hold 2 wheat") == "Du hast keine 2 Getreide."
        finally:
            for key, value in before.items():
                if value is None:
                    catalog._catalogs[0].pop(key, None)
                else:
                    catalog[key] = value


def test_the_site_reads_hexland_refusals_through_the_table():
    site = get_site("hexland")
    assert site.refusals is REFUSALS
    with translation.override("en-gb"):
        assert site.readable_refusal("you only have to discard 3 card(s)") == "You only have to discard 3 cards."
        assert site.readable_refusal("the bank has only 0 ore") == "The bank has only 0 ore."


def test_refusals_raised_in_played_games_are_all_known():
    """Moves of every type, sent by every seat in the states of a played game: each refusal
    the engine raises is one the table knows."""
    rng = random.Random(5)
    state = H.new_state({"players": 3, "names": ["Ana", "Bo", "Cy"]}, 5)
    samples = [
        {"type": kind, "node": rng.randrange(60), "edge": rng.randrange(80), "hex": rng.randrange(20),
         "victim": rng.choice([None, 0, 1, 2, 5]), "cards": rng.choice([{"wood": 1}, {"ore": 9}, {}, {"gold": 1}]),
         "give": rng.choice(["wood", "ore", {"wood": 1}, "gold"]), "get": rng.choice(["wood", "sheep", {"ore": 1}]),
         "count": rng.choice([1, 3, 0]), "card": rng.choice(["knight", "monopoly", "year_of_plenty",
                                                           "road_building", "victory_point", "joker"]),
         "resource": rng.choice(["wheat", "gold"]), "resources": rng.choice([["wood", "ore"], ["wood"]]),
         "seat": rng.randrange(4)}
        for kind in [*rules.MOVE_TYPES, "teleport"] for _ in range(3)]
    seen = set()
    for turn in range(400):
        if H.is_over(state):
            break
        for seat in range(3):
            for sample in rng.sample(samples, 6):
                kind = sample["type"]
                move = {k: v for k, v in sample.items() if k == "type" or k in rules._FIELDS.get(kind, ())}
                try:
                    H.apply(state, seat, move)
                except IllegalMove as refused:
                    seen.add(str(refused))
        seat = rng.choice(sorted(H.actors(state)))
        state = H.apply(state, seat, rng.choice(H.legal_moves(state, seat)))
    assert len(seen) > 25
    unknown = sorted(text for text in seen if not known(text))
    assert not unknown, unknown
    assert all(re.search(r"[a-z]", text) for text in seen)
