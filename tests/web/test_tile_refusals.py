"""Hextension's and Hextremadura's refusals in the site's words (games/<game>/refusals.py): every
entry of each table matches a sentence its engine really says, and gives the site's wording."""
from __future__ import annotations

from dataclasses import replace

import pytest
from django.utils import translation

from games.hextension import engine as hextension
from games.hextension.refusals import REFUSALS as HEXTENSION
from games.hextremadura import engine as hextremadura
from games.hextremadura.refusals import REFUSALS as HEXTREMADURA
from games.protocol import IllegalMove
from games.sites import get_site


def refusal(apply, *args) -> str:
    with pytest.raises(IllegalMove) as refused:
        apply(*args)
    return str(refused.value)


def hextension_examples() -> list[tuple[str, str]]:
    """(the engine's text, the site's English) for each thing Hextension refuses."""
    state = hextension.new_state({"players": 2, "tiles_per_round": 3}, 1)
    first, second, third = hextension.view(state, 0)["drawn"]
    elsewhere = next(tile for tile in hextension.TILES if tile not in (first, second, third))

    def place(state, seat=0, **placements):
        return refusal(hextension.apply, state, seat, {"type": "place", "placements": placements})

    placed = replace(state, boards=({"A1": first}, {}))
    return [
        (refusal(hextension.apply, replace(state, out=(True, True)), 0, {}), "The game is over."),
        (place(state, seat=5), "There is no seat 5 in this game."),
        (place(replace(state, out=(True, False))), "Seat 0 is out of the game after 3 rounds without a move."),
        (place(state), f"Say where each tile of this round goes: {first}, {second} and {third}."),
        (place(state, **{"999": "A1"}),
         "There is no tile '999'; a tile is named by its values on |, / and \\, like 174."),
        (place(placed, **{first: "B1"}), f"Tile {first} is already on your board, at A1."),
        (place(state, **{elsewhere: "A1"}),
         f"Tile {elsewhere} was not drawn this round; this round's tiles are {first}, {second} and {third}."),
        (place(state, **{first: "Z9"}), "There is no cell 'Z9'; cells run A1–A3, B1–B4, C1–C5, D1–D4, E1–E3."),
        (place(replace(state, boards=({"A1": elsewhere}, {})), **{first: "A1"}), f"A1 already holds tile {elsewhere}."),
        (place(state, **{first: "A1", second: "A1"}), f"Tiles {first} and {second} cannot both go on A1."),
        (place(state, **{first: "A1", second: "A2"}),
         f"Place every tile of this round in one move: {third} is missing."),
        (place(state, **{first: "A1"}),
         f"Place every tile of this round in one move: {second} and {third} are missing."),
        (refusal(hextension.apply, state, 0, {"type": "build"}),
         'Hextension knows one move: {"type": "place", "placements": {tile: cell, …}}.'),
    ]


def hextremadura_examples() -> list[tuple[str, str]]:
    """(the engine's text, the site's English) for each thing Hextremadura refuses."""
    state = hextremadura.new_state({}, 3)
    river, terrain = (entry["tile"] for entry in hextremadura.view(state, 0)["available"])
    assert river.startswith("R") and terrain.startswith("T")

    def place(state, **move):
        return refusal(hextremadura.apply, state, 0, {"type": "place", "tile": terrain, "q": 0, "r": 0, **move})

    over = state.copy()
    over.over = True
    back_up = state.copy()
    back_up.faces_up = {**state.faces_up, terrain: "back"}
    one_placed = hextremadura.apply(state, 0, {"type": "place", "tile": terrain, "q": 0, "r": 0})
    tile = hextremadura.view(one_placed, 0)["available"][0]["tile"]
    return [
        (refusal(hextremadura.apply, state, 1, {}), "Hextremadura has a single seat, 0."),
        (place(state, q="0"), "q must be a whole number."),
        (place(state, rotation=1.5), "Rotation must be a whole number."),
        (place(over), "The game is over."),
        (place(state, type="undo"), 'A move is {"type": "place", "tile", "q", "r", "rotation"}.'),
        (place(state, tile="T99"), f"Tile T99 is not one of the available tiles: {river} and {terrain}."),
        (place(state, rotation=6), "Rotation must be 0 to 5."),
        (place(state, tile=river, face="front"), 'A river tile is placed with face "a" or "b".'),
        (place(state, face="back"), f"Tile {terrain} shows its front now."),
        (place(back_up, face="front"), f"Tile {terrain} shows its back now."),
        (refusal(hextremadura.apply, one_placed, 0, {"type": "place", "tile": tile, "q": 0, "r": 0}),
         "Cell (0, 0) already holds a tile."),
        (refusal(hextremadura.apply, one_placed, 0, {"type": "place", "tile": tile, "q": 5, "r": -3}),
         "Cell (5, -3) does not touch the map."),
    ]


@pytest.mark.parametrize("table, examples", [(HEXTENSION, hextension_examples), (HEXTREMADURA, hextremadura_examples)],
                         ids=["hextension", "hextremadura"])
def test_every_entry_matches_an_engine_sentence_and_gives_the_sites_wording(table, examples):
    used = set()
    with translation.override("en-gb"):
        for text, english in examples():
            index = next((i for i, entry in enumerate(table.refusals) if entry.match(text) is not None), None)
            assert index is not None, f"no entry for the engine's {text!r}"
            used.add(index)
            assert table(text) == english, text
    assert used == set(range(len(table.refusals))), "an entry no engine sentence matches"


@pytest.mark.parametrize("kind, examples", [("hextension", hextension_examples), ("hextremadura", hextremadura_examples)])
def test_each_site_names_its_table_and_no_sentence_falls_back_to_the_general_one(kind, examples):
    site = get_site(kind)
    with translation.override("de"):
        general = site.readable_refusal("something no table knows")
        assert general == translation.gettext("That move is not allowed now.")
        for text, _english in examples():
            assert site.readable_refusal(text) != general, text
