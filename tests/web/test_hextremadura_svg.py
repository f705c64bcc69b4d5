"""Hextremadura pictures and board page: SVG from real engine views (no database)."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

from django.template.loader import render_to_string
from django.urls import reverse

from games.hextremadura.svg import centre, map_svg, pile_svg, removed_svg, tile_svg, view_box
from games.hextremadura import engine
from games.hextremadura.templatetags.hextremadura_boards import rating_rows, round_began

SVG = "{http://www.w3.org/2000/svg}"
WITNESSES = json.loads((Path(engine.__file__).parent / "witnesses.json").read_text())


def parse(markup) -> ET.Element:
    return ET.fromstring(str(markup))


def groups(root: ET.Element, css: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if css in g.get("class", "").split()]


def play(moves: list[dict], seed: int):
    state = engine.new_state({}, seed)
    for move in moves:
        state = engine.apply(state, 0, move)
    return state


def perfect_after(n: int):
    """The stored perfect game (seed and moves) played up to its ``n``-th placement."""
    return play(WITNESSES["perfect"]["moves"][:n], WITNESSES["perfect"]["seed"])


def first_removal():
    """The first placement of the perfect game that removes tiles, and the state after it."""
    moves = WITNESSES["perfect"]["moves"]
    for n in range(1, len(moves) + 1):
        state = perfect_after(n)
        if engine.view(state, 0)["last_removed"]:
            return n, state
    raise AssertionError("the perfect game never removes a tile")


# --- the map -------------------------------------------------------------------------------------


def test_every_legal_cell_is_a_focusable_button_and_nothing_else_is():
    view = engine.view(perfect_after(5), 0)
    root = parse(map_svg(view, interactive=True))
    legal = groups(root, "hxt-legal")
    assert {(int(g.get("data-q")), int(g.get("data-r"))) for g in legal} == {tuple(c) for c in view["legal_cells"]}
    for g in legal:
        assert g.get("role") == "button" and g.get("tabindex") == "0"
        assert g.get("aria-label") == f"Place the tile at {g.get('data-q')}, {g.get('data-r')}"
        assert "".join(g.itertext()).strip() in g.get("aria-label")  # the visible words are in the name
    assert not [g for g in root.iter(f"{SVG}g") if g.get("role") == "button" and g not in legal]
    # Not interactive (a spectator, a finished game): no buttons at all.
    assert not groups(parse(map_svg(view)), "hxt-legal")


def test_each_placed_tile_shows_its_six_spaces_and_requirements_as_in_the_view():
    state = perfect_after(12)
    view = engine.view(state, 0)
    root = parse(map_svg(view, interactive=True))
    tiles = {(g.get("data-q"), g.get("data-r")): g for g in groups(root, "hxt-tile")}
    assert len(tiles) == len(view["map"])
    checked = {True: 0, False: 0}
    for entry in view["map"]:
        g = tiles[(str(entry["q"]), str(entry["r"]))]
        assert g.get("data-tile") == entry["tile"]
        assert [s.get("data-kind") for s in groups(g, "hxt-space")] == entry["spaces"]
        reqs = groups(g, "hxt-req")
        assert len(reqs) == len(entry.get("requirements", []))
        for drawn, req in zip(reqs, entry.get("requirements", [])):
            assert (drawn.get("data-kind"), drawn.get("data-n"), drawn.get("data-side")) == (req["kind"], str(req["n"]), str(req["side"]))
            assert drawn.get("data-met") == ("true" if req["met"] else "false")
            assert ("hxt-met" if req["met"] else "hxt-unmet") in drawn.get("class")
            assert ("✓" if req["met"] else "✗") in "".join(drawn.itertext())
            checked[req["met"]] += 1
    assert checked[True] and checked[False], "the position should show both met and unmet requirements"


def test_removed_tiles_leave_the_map_and_are_drawn_for_their_flight():
    n, state = first_removal()
    before = engine.view(perfect_after(n - 1), 0)
    view = engine.view(state, 0)
    removed = view["last_removed"]
    root = parse(map_svg(view, interactive=True))
    on_map = {(g.get("data-tile"), g.get("data-q"), g.get("data-r")) for g in groups(root, "hxt-tile")}
    for gone in removed:
        assert (gone["tile"], str(gone["q"]), str(gone["r"])) not in on_map
        assert any(t["tile"] == gone["tile"] for t in before["map"]) or gone["tile"] == view["last_move"]["tile"]
        flyer = parse(removed_svg(gone))
        assert flyer.get("data-tile") == gone["tile"] and len(groups(flyer, "hxt-space")) == 6
    # The explored pile holds them, small.
    pile = parse(f"<div>{pile_svg(view['explored'])}</div>")
    assert [s.get("data-tile") for s in pile] == [t["tile"] for t in view["explored"]]


def test_back_tiles_show_icons_and_an_objective_marker_matching_the_view():
    state = perfect_after(len(WITNESSES["perfect"]["moves"]))
    view = engine.view(state, 0)
    root = parse(map_svg(view))
    backs = [t for t in view["map"] if t["face"] == "back"]
    assert backs
    tiles = {g.get("data-tile"): g for g in groups(root, "hxt-tile")}
    for entry in backs:
        g = tiles[entry["tile"]]
        assert sorted(i.get("data-icon") for i in groups(g, "hxt-icon")) == sorted(i["icon"] for i in entry["icons"])
        (marker,) = groups(g, "hxt-objective")
        assert marker.get("data-met") == ("true" if entry["objective"]["met"] else "false")


def test_view_box_grows_with_the_map_and_keeps_a_margin():
    small = [float(v) for v in view_box([(0, 0)]).split()]
    big = [float(v) for v in view_box([(0, 0), (3, -2), (-2, 4)]).split()]
    assert big[2] > small[2] and big[3] > small[3]
    for q, r in [(0, 0), (3, -2), (-2, 4)]:
        x, y = centre(q, r)
        assert big[0] < x - 40 and x + 40 < big[0] + big[2]
        assert big[1] < y - 40 and y + 40 < big[1] + big[3]


def test_tile_alone_at_a_rotation_and_face():
    view = engine.view(engine.new_state({}, 3), 0)
    for entry in view["available"]:
        for face in entry["faces"]:
            root = parse(tile_svg(entry, face, 2, 64))
            assert root.get("data-face") == face and root.get("data-rotation") == "2" and root.get("width") == "64"
            (turn,) = groups(root, "hxt-turn")
            assert turn.get("transform") == "rotate(-120)"


def test_labels_are_escaped():
    evil = "<script>alert(1)</script>"
    view = {"map": [{"tile": evil, "q": 0, "r": 0, "face": evil, "spaces": ["forest", evil] + ["water"] * 4,
                     "requirements": [{"kind": evil, "n": evil, "side": 1, "met": True, "reach": 0}],
                     "icons": [{"space": 0, "icon": evil}], "objective": {"text": evil, "met": False}}],
            "legal_cells": [[1, 0], ["x", evil]]}
    markup = str(map_svg(view, interactive=True, label=evil)) + str(tile_svg({"tile": evil, "face": evil, "faces": {}}))
    assert "<script>" not in markup and "&lt;script&gt;" in markup
    parse(map_svg(view, interactive=True, label=evil))


# --- page helpers ----------------------------------------------------------------------------------


def test_rating_rows_follow_the_rulebook_table():
    assert [r["least"] for r in rating_rows(None)] == [9, 12, 14, 15]
    rows = rating_rows(13)
    assert [r["reached"] for r in rows] == [True, True, False, False]
    assert [r.get("yours", False) for r in rows] == [False, True, False, False]


def test_round_banner_shows_when_the_pile_has_just_been_flipped():
    moves = WITNESSES["perfect"]["moves"]
    seed = WITNESSES["perfect"]["seed"]
    assert not round_began(engine.view(play(moves[:17], seed), 0))
    flipped = engine.view(play(moves[:18], seed), 0)
    assert flipped["round"] == 2 and round_began(flipped)
    assert not round_began(engine.view(play(moves[:19], seed), 0))


def render_page(state, *, daily=None, status="active", your_move=True):
    view = engine.view(state, 0)
    game = SimpleNamespace(pk=9, kind="hextremadura", version=view["turn"], status=status, daily_attempt=daily, deadline_at=None,
                           config={} if daily else {"players": 1, "undo": True})
    context = {"game": game, "seat": 0, "view": view, "your_move": your_move, "seats": [], "analysis": None}
    return render_to_string("hextremadura/board.html", context), view


def test_page_has_the_plain_form_hint_and_undo_in_a_casual_game():
    html, view = render_page(perfect_after(4))
    url = reverse("game_move", args=[9])
    assert f'action="{url}"' in html and f'hx-post="{url}"' in html and 'name="version" value="4"' in html
    for entry in view["available"]:
        assert f'name="tile" id="hxt-tile-{entry["tile"]}" value="{entry["tile"]}"' in html
    for q, r in view["legal_cells"]:
        assert f'<option value="{q},{r}">{q}, {r}</option>' in html
    assert reverse("game_hint", args=[9]) in html and reverse("game_undo", args=[9]) in html
    assert 'name="rotation"' in html and ">Place</button>" in html
    root = parse(html.split('<div class="hxt-map-frame" id="hxt-map-frame">')[1].split("</svg>")[0] + "</svg>")
    assert len(groups(root, "hxt-legal")) == len(view["legal_cells"])


def test_plain_form_posts_q_and_r_without_the_script():
    html, view = render_page(perfect_after(4))
    fallback = html.split("<noscript>")[1].split("</noscript>")[0]
    for name, index in (("q", 0), ("r", 1)):
        values = sorted({cell[index] for cell in view["legal_cells"]})
        options = "".join(f'<option value="{v}">{v}</option>' for v in values)
        assert f'name="{name}">{options}</select>' in fallback


def test_daily_game_has_neither_hint_nor_undo():
    html, _ = render_page(perfect_after(4), daily=3)
    assert reverse("game_hint", args=[9]) not in html and reverse("game_undo", args=[9]) not in html


def test_finished_page_shows_the_score_against_the_table_and_the_quests():
    state = perfect_after(len(WITNESSES["perfect"]["moves"]))
    html, view = render_page(state, status="finished", your_move=False)
    assert f'data-score="{view["final"]["score"]}"' in html and "excellent" in html and "perfect" in html
    for quest in view["quests"].values():
        assert quest["name"] in html
    assert "<form" not in html
