"""Hextension pictures and page: SVG boards, diagrams and tiles from real engine views (no database)."""
from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from dataclasses import replace
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games.hextension.svg import DEAD_FILL, board_svg, diagram_svg, tile_sprite, tile_svg
from games.hextension import engine
from games.hextension.engine.board import CELLS, LINES
from games.hextension.templatetags.hextension_boards import player_rows, round_history, tile_choices

SVG = "{http://www.w3.org/2000/svg}"


def parse(markup: str) -> ET.Element:
    return ET.fromstring(str(markup))


def cell_groups(root: ET.Element) -> dict[str, ET.Element]:
    """Every drawn cell by name: the pictures draw the cells in the engine's CELLS order."""
    groups = [g for g in root.iter(f"{SVG}g") if "hx-cell" in g.get("class", "").split()]
    assert len(groups) == len(CELLS)
    return dict(zip(CELLS, groups))


def sprite_entries() -> dict[str, ET.Element]:
    """The page's sprite of tile marks (``tile_sprite``), by id."""
    return {g.get("id"): g for g in parse(tile_sprite()).iter(f"{SVG}g") if g.get("id")}


def texts(element: ET.Element) -> list[str]:
    """The text drawn in ``element``, in order, a tile's marks read from the sprite it uses
    (as a browser draws them)."""
    entries = sprite_entries()
    found = []
    for node in element.iter():
        if node.tag == f"{SVG}text":
            found.append(node.text)
        elif node.tag == f"{SVG}use":
            found += texts(entries[node.get("href").removeprefix("#")])
    return found


def test_the_sprite_holds_every_tile_once_and_each_drawing_uses_an_entry_of_it():
    entries = sprite_entries()
    assert len(entries) == len(engine.TILES) == 27
    for tile in engine.TILES:
        root = parse(tile_svg(tile, 48))
        (use,) = root.iter(f"{SVG}use")
        assert use.get("href").removeprefix("#") in entries
        assert texts(root) == list(tile)  # its three numbers, | / \ in order


def play(state, seat_cells: dict[int, list[str]], rounds: int):
    """Close ``rounds`` rounds, each seat filling its cells in the order given."""
    for _ in range(rounds):
        for seat, cells in seat_cells.items():
            drawn = engine.view(state, seat)["drawn"]
            state = engine.apply(state, seat, {"type": "place", "placements": {t: cells.pop(0) for t in drawn}})
    return state


@pytest.fixture
def game():
    """Two players, three rounds closed; seat 0 has submitted the fourth round."""
    state = engine.new_state({"players": 2}, 11)
    state = play(state, {0: list(CELLS), 1: list(reversed(CELLS))}, 3)
    drawn = engine.view(state, 0)["drawn"]
    return engine.apply(state, 0, {"type": "place", "placements": dict(zip(drawn, ["E2", "E3"]))})


def constructed_view():
    """One board, built through the engine, whose line statuses are known:
    | A1 A2 A3 full of 1s (scores 3), | B1..B4 holds a 5 and a 9 (dead), / A1 B1 C1 holds 2, 2 and 6 (dead)."""
    board = {"A1": "126", "A2": "137", "A3": "148", "B1": "523", "B2": "973", "C1": "564"}
    state = replace(engine.new_state({"players": 1}, 3), boards=(board,), last_placed=(("B2", "C1"),), round=3)
    return engine.view(state, 0)


def line_index(direction: str, first: str) -> int:
    return next(i for i, ln in enumerate(LINES) if ln.symbol == direction and ln.cells[0] == first)


def marker(root: ET.Element, index: int) -> ET.Element:
    return next(g for g in root.iter(f"{SVG}g") if g.get("data-line") == str(index))


# --- boards ---------------------------------------------------------------------------------


def test_board_shows_every_placed_tile_with_its_three_numbers(game):
    view = engine.view(game, 1)
    for seat_view in view["seats"]:
        assert len(seat_view["board"]) == 6
        cells = cell_groups(parse(board_svg(seat_view, label="Board")))
        assert set(cells) == set(CELLS)
        for cell, tile in seat_view["board"].items():
            assert texts(cells[cell]) == list(tile), cell
            assert tile in cells[cell].findtext(f"{SVG}title")


def test_latest_round_is_darker_than_earlier_tiles(game):
    seat_view = engine.view(game, 1)["seats"][1]
    cells = cell_groups(parse(board_svg(seat_view)))
    assert len(seat_view["last_placed"]) == 2
    for cell in seat_view["board"]:
        expected = "hx-latest" if cell in seat_view["last_placed"] else "hx-placed"
        assert expected in cells[cell].get("class"), cell
    latest = seat_view["last_placed"]
    fills = {cells[c].find(f"{SVG}polygon").get("fill") for c in latest}
    older = {cells[c].find(f"{SVG}polygon").get("fill") for c in seat_view["board"] if c not in latest}
    assert len(fills) == 1 and len(older) == 1 and fills != older


def test_interactive_board_names_and_offers_each_empty_cell(game):
    view = engine.view(game, 1)
    root = parse(board_svg(view["seats"][1], interactive=True, label="Yours"))
    assert root.get("role") == "group" and root.findtext(f"{SVG}title") == "Yours"
    empty = [c for c in CELLS if c not in view["seats"][1]["board"]]
    buttons = {g.get("data-cell"): g for g in root.iter(f"{SVG}g") if g.get("data-cell")}
    assert sorted(buttons) == sorted(empty)
    for cell, g in buttons.items():
        assert g.get("role") == "button" and g.get("tabindex") == "0"
        assert g.get("aria-label") == f"Cell {cell}, empty"
        assert texts(g) == [cell]


def test_static_board_has_no_buttons():
    root = parse(board_svg(engine.view(engine.new_state({"players": 1}, 1), 0)["seats"][0]))
    assert root.get("role") == "img"
    assert not [g for g in root.iter(f"{SVG}g") if g.get("data-cell") or g.get("role")]
    assert {t for g in root.iter(f"{SVG}g") for t in texts(g)} == set(CELLS)


def test_pending_tiles_appear_only_when_passed(game):
    view = engine.view(game, 0)
    assert view["pending"] and set(view["pending"].values()) == {"E2", "E3"}
    seat_view = view["seats"][0]
    with_pending = cell_groups(parse(board_svg(seat_view, pending=view["pending"], interactive=True)))
    for tile, cell in view["pending"].items():
        group = with_pending[cell]
        assert "hx-pending" in group.get("class")
        assert texts(group)[-3:] == list(tile)
        assert group.get("data-cell") == cell  # a planned tile can still be moved
        assert "dasharray" in ET.tostring(group.find(f"{SVG}polygon"), encoding="unicode")
    without = parse(board_svg(seat_view, interactive=True))
    assert "hx-pending" not in ET.tostring(without, encoding="unicode")
    for cell in view["pending"].values():
        assert texts(cell_groups(without)[cell]) == [cell]


def test_other_seats_see_no_pending_placement(game):
    view = engine.view(game, 1)
    assert view["seats"][0]["moved"] and view["pending"] is None
    assert "hx-pending" not in board_svg(view["seats"][0])


# --- diagrams -------------------------------------------------------------------------------


def test_diagram_marks_full_scoring_lines_shaded_and_dead_lines_with_a_dark_circle():
    view = constructed_view()
    seat_view = view["seats"][0]
    root = parse(diagram_svg(seat_view, label="Diagram"))
    scoring, dead_column, dead_diagonal = line_index("|", "A1"), line_index("|", "B1"), line_index("/", "A1")
    statuses = [seat_view["lines"][i]["status"] for i in (scoring, dead_column, dead_diagonal)]
    assert statuses == ["scoring", "dead", "dead"]

    shaded = marker(root, scoring)
    assert shaded.get("data-status") == "scoring" and texts(shaded) == ["1"]
    assert shaded.find(f"{SVG}circle").get("fill") not in (None, "none", DEAD_FILL)
    for index in (dead_column, dead_diagonal):
        dark = marker(root, index)
        assert dark.get("data-status") == "dead" and texts(dark) == []
        assert dark.find(f"{SVG}circle").get("fill") == DEAD_FILL
    markers = [g for g in root.iter(f"{SVG}g") if g.get("data-line")]
    assert len(markers) == 15
    assert [g.get("data-status") for g in markers] == [entry["status"] for entry in seat_view["lines"]]


def test_diagram_prints_the_value_an_open_line_can_still_score():
    seat_view = constructed_view()["seats"][0]
    # \ A1 B2 C3 D3 E3 holds 6 (A1: 126) and 3 (B2: 973): dead; \ C1 D1 E1 holds C1's 4 only: open on 4.
    open_line = line_index("\\", "C1")
    assert seat_view["lines"][open_line]["status"] == "open" and seat_view["lines"][open_line]["value"] == 4
    assert texts(marker(parse(diagram_svg(seat_view)), open_line)) == ["4"]


def test_diagram_shows_tiles_and_latest_round_but_no_cell_buttons(game):
    seat_view = engine.view(game, None)["seats"][0]
    root = parse(diagram_svg(seat_view, label="Ana"))
    assert root.get("role") == "img" and root.get("viewBox") and root.get("width") is None
    cells = cell_groups(root)
    for cell, tile in seat_view["board"].items():
        assert texts(cells[cell]) == list(tile)
    assert sum("hx-latest" in g.get("class") for g in cells.values()) == 2
    assert not [g for g in root.iter(f"{SVG}g") if g.get("data-cell")]


def test_a_hundred_diagrams_render_fast():
    state = engine.new_state({"players": 100}, 5)
    order = {seat: list(CELLS[seat % 7:] + CELLS[:seat % 7]) for seat in range(100)}
    state = play(state, order, 6)
    seat_views = engine.view(state, None)["seats"]
    best = min(_time_diagrams(seat_views) for _ in range(3))
    assert best < 0.1, f"100 diagrams took {best * 1000:.0f} ms"


def _time_diagrams(seat_views) -> float:
    start = time.perf_counter()
    for i, seat_view in enumerate(seat_views):
        diagram_svg(seat_view, label=f"Player {i}")
    return time.perf_counter() - start


# --- tiles and escaping ---------------------------------------------------------------------


def test_tile_svg_shows_its_numbers_at_the_size_asked():
    root = parse(tile_svg("174", 48))
    assert root.get("width") == "48" and texts(root) == ["1", "7", "4"]
    assert "174" in root.findtext(f"{SVG}title")


def test_hostile_labels_and_view_data_are_escaped():
    hostile = '<script>alert("x")</script> & \'"'
    seat_view = {
        "board": {"A1": "<b>bad</b>", "Z9": "174"},
        "last_placed": ['"><script>'],
        "lines": [{"status": "open", "value": None, "values": [1, 5, 9]}] * 15,
    }
    outputs = [
        board_svg(seat_view, pending={"<i>": "B1", "963": '"><script>'}, interactive=True, label=hostile),
        diagram_svg(seat_view, label=hostile),
        tile_svg("<svg onload=alert(1)>"),
    ]
    for markup in outputs:
        assert "<script" not in markup and "<b>" not in markup and "<svg onload" not in markup
        root = parse(markup)
        assert root.tag == f"{SVG}svg"
    assert parse(outputs[0]).findtext(f"{SVG}title") == hostile
    assert parse(outputs[1]).findtext(f"{SVG}title") == hostile


# --- the page's data and template -------------------------------------------------------------


def seat_rows(*names):
    return [SimpleNamespace(index=i, label=name) for i, name in enumerate(names)]


def test_player_rows_rank_by_score_with_those_out_below():
    state = engine.new_state({"players": 3}, 2)
    state = replace(
        state,
        boards=({"A1": "126", "A2": "137", "A3": "148"}, {}, {"A1": "923", "A2": "937", "A3": "948"}),
        out=(False, False, True), nmr=(0, 1, 3), round=2,
    )
    rows = player_rows(engine.view(state, 1), seat_rows("Ana", "Bo", "Cy"), {"ai_scores": [50, 60, 70]})
    assert [(r["name"], r["score"], r["rank"], r["out"]) for r in rows] == [
        ("Ana", 3, 1, False), ("Bo", 0, 2, False), ("Cy", 27, 3, True),
    ]
    assert [r["ai_score"] for r in rows] == [50, 60, 70] and rows[0]["best_score"] is None
    assert [r["is_you"] for r in rows] == [False, True, False]


def test_round_history_and_tile_choices(game):
    view = engine.view(game, 0)
    history = round_history(view)
    assert [r["number"] for r in history] == [3, 2, 1]
    assert [t for r in reversed(history) for t in r["tiles"]] == view["earlier"]
    choices = tile_choices(view)
    assert [c["tile"] for c in choices] == view["drawn"]
    assert [c["selected"] for c in choices] == ["E2", "E3"]
    assert all(c["field"] == f"cell_{c['tile']}" and len(c["cells"]) == 13 for c in choices)


def render_page(state, seat, status="active", analysis=None):
    view = engine.view(state, seat)
    game = SimpleNamespace(pk=7, version=12, status=status, deadline_at=None, config={})
    context = {"game": game, "seat": seat, "view": view, "your_move": False, "seats": seat_rows("Ana", "<Bo>"),
               "analysis": analysis}
    return render_to_string("hextension/board.html", context), view


def test_page_offers_a_placement_form_preselected_from_the_submission(game):
    html, view = render_page(game, 0)
    url = reverse("game_move", args=[7])
    assert f'action="{url}"' in html and f'hx-post="{url}"' in html and 'hx-swap="none"' in html
    assert 'name="version" value="12"' in html
    for tile, cell in view["pending"].items():
        assert f'name="cell_{tile}"' in html and f'<option value="{cell}" selected>' in html
    assert "You have submitted; you may change it until the round closes" in html
    assert f"Submit round {view['round']}" in html
    assert "&lt;Bo&gt;" in html and "<Bo>" not in html
    assert html.count('class="hx-diagram"') == 2


def test_spectator_page_has_diagrams_but_no_form(game):
    html, _ = render_page(game, None)
    assert "<form" not in html and "cell_" not in html
    assert html.count('class="hx-diagram"') == 2 and "Standings" in html


def test_finished_page_shows_results_or_says_they_are_being_computed():
    state = engine.new_state({"players": 2}, 4)
    state = play(state, {0: list(CELLS), 1: list(reversed(CELLS))}, 10)
    assert engine.is_over(state)
    html, _ = render_page(state, 0, status="finished")
    assert "being computed…" in html and "<form" not in html
    html, view = render_page(state, 0, status="finished", analysis={"ai_scores": [101, 102], "best_scores": [201, 202]})
    assert "being computed" not in html and "<td>201</td>" in html and "<td>102</td>" in html
    html, _ = render_page(state, 0, status="finished", analysis={"ai_score": 150, "best_score": 240})
    assert "being computed" not in html and html.count("<td>240</td>") == 2 and html.count("<td>150</td>") == 2


def test_a_running_game_ranks_equal_scores_by_the_most_each_board_can_still_make():
    # Nobody has a full line yet: 0 points each. Cy's A column is dead (9 and 1), Bo's is open
    # at 9, Ana's board is empty: ranks follow what each board can still make.
    state = replace(engine.new_state({"players": 3}, 5), round=1,
                    boards=({}, {"A1": "973", "A2": "978"}, {"A1": "973", "A2": "174"}))
    view = engine.view(state, 0)
    rows = player_rows(view, seat_rows("Ana", "Bo", "Cy"))
    assert [r["score"] for r in rows] == [0, 0, 0]
    assert [r["name"] for r in rows] == ["Ana", "Bo", "Cy"]
    assert rows[0]["potential"] > rows[1]["potential"] > rows[2]["potential"] > 0
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert rows[2]["lines"] == {"scoring": 0, "open": 14, "dead": 1}
    html = render_to_string("hextension/board.html", {
        "game": SimpleNamespace(pk=7, version=3, status="active", deadline_at=None, config={}), "seat": 0,
        "view": view, "your_move": False, "seats": seat_rows("Ana", "Bo", "Cy"), "analysis": None})
    assert "<th scope=\"col\">At most</th>" in html
    assert f"<td>{rows[2]['potential']}</td>" in html
    assert f"Cy</strong> · 0 · at most {rows[2]['potential']}" in html


def test_diagrams_enlarge_on_a_click_and_come_with_a_legend(game):
    html, view = render_page(game, 1)
    # each diagram is the summary of its own details element: click or Enter enlarges it, no script needed
    assert html.count('<details class="hx-zoom">') == 2
    assert html.count('<summary title="Enlarge or shrink this diagram">') == 2
    assert "Lines: " in html and "full and scoring" in html and "Click the diagram again" in html
    legend = html[html.index("How to read the diagrams"):]
    for words in ("the value that line can still score", "A shaded number: the line is full",
                  "A dark circle: the line can no longer score", "placed in the latest round"):
        assert words in legend
    assert legend.count('class="hx-swatch"') == 6 and 'aria-hidden="true"' in legend
    assert "style=" not in html and "<script>" not in html  # the CSP forbids inline style and script
