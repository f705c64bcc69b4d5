"""The Hexland board (SVG) and its page panel, drawn from real engine views.

Games are advanced by the engine itself (legal moves, its weighted bot, timeouts); nothing here
builds a view by hand except to check escaping. No database: the pictures and the template are
pure functions of a view.
"""
from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser
from math import sqrt
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils.html import escape
from hypothesis import given, settings
from hypothesis import strategies as st

from games.hexland import engine as H
from games.hexland import svg
from games.hexland.engine import ai
from games.hexland.engine.board import PIPS, TOPOLOGY
from games.hexland.engine.rules import _FIELDS, MOVE_TYPES
from games.hexland.engine.state import PHASES
from games.hexland.templatetags.hexland_boards import hexland_panel
from games.sites import get_site
from tests.engines.hexland.helpers import BOARD

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["Ana", "Bo", "Cy", "Di"]
ALL_PHASES = set(PHASES)
# The moves that are a place on the board (the rules' move list, written out here on purpose:
# the board module's own list is what is under test).
PLACEMENTS = {"place_settlement", "build_settlement", "build_city", "place_road", "build_road",
              "move_robber"}


# --- games ------------------------------------------------------------------------------------

def new_game(seed=0, players=4, **config):
    return H.new_state({"players": players, "names": NAMES[:players], **config}, seed)


def step(state, rng: random.Random, timeouts: float = 0.02, bot: float = 0.8):
    """One move by an actor: mostly the weighted bot (so games end), sometimes any legal move
    (trade offers, odd builds), now and then a timeout (auto-placed pairs, lapsed offers)."""
    seat = rng.choice(sorted(H.actors(state)))
    if rng.random() < timeouts:
        return H.timeout_move(state, seat)
    view = H.view(state, seat, log_tail=0)
    move = ai.decide(view, "weighted", rng) if rng.random() < bot else rng.choice(view["legal_moves"])
    return H.apply(state, seat, move)


def playout(seed, steps, **kw):
    state, rng = new_game(seed), random.Random(seed)
    for _ in range(steps):
        if H.is_over(state):
            break
        state = step(state, rng, **kw)
    return state


def states_by_phase(seed=0, limit=3000) -> dict[str, list]:
    """Every state of one played game, grouped by phase."""
    state, rng = new_game(seed), random.Random(seed)
    out: dict[str, list] = {}
    for _ in range(limit):
        out.setdefault(PHASES[state.phase], []).append(state)
        if H.is_over(state):
            break
        state = step(state, rng)
    return out


@pytest.fixture(scope="module")
def by_phase():
    return states_by_phase()


def seats_and_spectator(state):
    return [*range(state.g.n), None]


# --- reading the SVG --------------------------------------------------------------------------

def parse(markup) -> ET.Element:
    return ET.fromstring(str(markup))


def groups(root: ET.Element, css: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if css in g.get("class", "").split()]


def title(element: ET.Element) -> str:
    node = element.find(f"{SVG}title")
    return node.text if node is not None else ""


def pixel(point) -> tuple[float, float]:
    return point[0] * sqrt(3) / 2 * svg.R, point[1] * svg.R / 2


def targets_of(root) -> list[dict]:
    return [json.loads(g.get("data-move")) for g in groups(root, "hl-target")]


def board_moves(view) -> list[dict]:
    return [m for m in view["legal_moves"] if m["type"] in PLACEMENTS]


def canonical(moves) -> Counter:
    return Counter(json.dumps(m, sort_keys=True) for m in moves)


# --- the board --------------------------------------------------------------------------------

def test_fixed_board_shows_every_hex_token_harbour_and_the_robber():
    state = new_game(layout="fixed", board=BOARD)
    view = H.view(state, None)
    root = parse(svg.board_svg(view))
    assert root.get("role") == "img" and title(root) == "Hexland board"

    hexes = groups(root, "hl-hex")
    assert len(hexes) == 19
    for g, info in zip(sorted(hexes, key=lambda g: int(g.get("data-hex"))), view["board"]["hexes"]):
        assert g.get("data-terrain") == info["terrain"]
        assert info["terrain"] in title(g)
        if info["number"]:
            assert f"number {info['number']}" in title(g) and f"produces {info['resource']}" in title(g)
        # colour and pattern: a plain fill, then the terrain's pattern (none on the desert)
        fills = [p.get("fill") for p in g.findall(f"{SVG}polygon")]
        assert fills[0] == svg.TERRAIN_FILL[info["terrain"]]
        assert (f"url(#hl-pat-{info['terrain']})" in fills) == (info["terrain"] != "desert")

    tokens = groups(root, "hl-token")
    assert len(tokens) == 18
    assert sorted(int(t.get("data-number")) for t in tokens) == sorted(n for n in BOARD["numbers"] if n)
    for t in tokens:
        n = int(t.get("data-number"))
        pips = [c for c in t.iter(f"{SVG}circle") if c.get("class") == "hl-pip"]
        assert len(pips) == PIPS[n] == 6 - abs(7 - n)
        hot = "hot" in t.get("class").split()
        assert hot == (n in (6, 8))
        text = t.find(f"{SVG}text")
        assert text.text == str(n) and (text.get("fill") == "#c0271b") == hot

    harbours = groups(root, "hl-harbour")
    assert len(harbours) == 9
    nodes = {n["id"]: pixel(n["point"]) for n in TOPOLOGY["nodes"]}
    for g, harbour in zip(harbours, view["board"]["harbours"]):
        rate = "3:1" if harbour["resource"] is None else "2:1"
        assert g.get("data-rate") == rate and g.get("data-resource") == (harbour["resource"] or "any")
        assert [t.text for t in g.iter(f"{SVG}text")] == [rate, harbour["resource"] or "any"]
        ends = {(round(float(line.get("x2")), 1), round(float(line.get("y2")), 1)) for line in g.iter(f"{SVG}line")}
        assert ends == {(round(nodes[n][0], 1), round(nodes[n][1], 1)) for n in harbour["nodes"]}
    assert sorted(g.get("data-resource") for g in harbours) == sorted(
        "any" if h == "any" else h for h in BOARD["harbours"])

    robbers = groups(root, "hl-robber")
    assert len(robbers) == 1 and title(robbers[0]) == "robber"
    assert int(robbers[0].get("data-hex")) == view["robber"] == BOARD["resources"].index("desert")


def test_view_box_holds_the_whole_island_and_no_fixed_size_is_set():
    root = parse(svg.board_svg(H.view(new_game(), None)))
    assert root.get("width") is None and root.get("height") is None
    left, top, width, height = (float(v) for v in root.get("viewBox").split())
    for node in TOPOLOGY["nodes"]:
        x, y = pixel(node["point"])
        assert left < x < left + width and top < y < top + height
    # the sea frames the land: a hex's width or more on every side
    xs = [pixel(n["point"])[0] for n in TOPOLOGY["nodes"]]
    assert left < min(xs) - svg.R and left + width > max(xs) + svg.R


def test_pieces_are_drawn_one_per_building_and_road_in_their_owners_colour():
    state = playout(seed=5, steps=700)
    view = H.view(state, None)
    assert any(b["kind"] == "city" for b in view["buildings"]), "the game should have a city by now"
    root = parse(svg.board_svg(view))

    drawn = {int(g.get("data-node")): g for g in groups(root, "hl-building")}
    assert len(drawn) == len(groups(root, "hl-building")) == len(view["buildings"])
    for b in view["buildings"]:
        g = drawn[b["node"]]
        assert (int(g.get("data-seat")), g.get("data-kind")) == (b["seat"], b["kind"])
        assert g.find(f"{SVG}path").get("fill") == svg.PLAYER_COLOURS[b["seat"]]
        assert title(g) == f"{NAMES[b['seat']]}'s {b['kind']}"
        # colour is not the only cue: the seat's digit is on the piece
        assert g.find(f"{SVG}text").text == str(b["seat"] + 1)

    roads = {int(g.get("data-edge")): g for g in groups(root, "hl-road")}
    assert len(roads) == len(groups(root, "hl-road")) == len(view["roads"])
    for r in view["roads"]:
        g = roads[r["edge"]]
        outline, colour = g.findall(f"{SVG}line")
        assert colour.get("stroke") == svg.PLAYER_COLOURS[r["seat"]]
        assert (colour.get("stroke-dasharray") or "") == svg.ROAD_DASHES[r["seat"]]
        assert title(g) == f"{NAMES[r['seat']]}'s road"


def test_each_seat_has_its_own_colour_digit_and_road_pattern():
    cues = [(svg.seat_colour(q), svg.seat_marker(q), svg.seat_dash(q)) for q in range(4)]
    for i in range(3):
        assert len({c[i] for c in cues}) == 4


def test_the_robber_stands_on_the_views_hex_after_it_moves(by_phase):
    moved = [s for s in by_phase["main"] if s.robber != s.g.board.desert]
    assert moved, "the robber should have left the desert in a whole game"
    view = H.view(moved[-1], None)
    robbers = groups(parse(svg.board_svg(view)), "hl-robber")
    assert [int(g.get("data-hex")) for g in robbers] == [view["robber"]]


def test_names_are_escaped_in_titles_and_labels():
    state = H.new_state({"players": 2, "names": ['<b>"Eve"</b> & co', "Bo"]}, 1)
    state = H.apply(state, state.cur, H.legal_moves(state, state.cur)[0])
    view = H.view(state, state.cur)
    markup = str(svg.board_svg(view, interactive=True, label='Board <of> "Eve"'))
    root = parse(markup)  # still well-formed XML
    assert "<b>" not in markup
    assert title(root) == 'Board <of> "Eve"'
    name = view["players"][view["buildings"][0]["seat"]]["name"]
    assert title(groups(root, "hl-building")[0]) == f"{name}'s settlement"


# --- click targets ----------------------------------------------------------------------------

def test_targets_match_the_legal_board_moves_exactly_in_every_phase(by_phase):
    """Every legal placement is one focusable target whose data-move is that move, and nothing
    else is a target; the moves that are not places (roll, trade, a pair's move) are not."""
    checked = Counter()
    for phase, states in by_phase.items():
        for state in states[:: max(1, len(states) // 25)]:
            for seat in sorted(H.actors(state)):
                view = H.view(state, seat)
                root = parse(svg.board_svg(view, interactive=True))
                assert canonical(targets_of(root)) == canonical(board_moves(view))
                for g in groups(root, "hl-target"):
                    assert g.get("role") == "button" and g.get("tabindex") == "0"
                    move = json.loads(g.get("data-move"))
                    assert g.get("aria-label") == svg.move_label(view, move) == title(g)
                    place = {"node": "data-node", "edge": "data-edge", "hex": "data-hex"}
                    key = next(k for k in place if k in move)
                    assert int(g.get(place[key])) == move[key]
                checked[phase] += len(groups(root, "hl-target"))
    # placements of every kind were met: settlements, roads, cities, the robber (and victims)
    kinds = Counter()
    for states in by_phase.values():
        for state in states:
            for seat in H.actors(state):
                kinds.update(m["type"] for m in H.legal_moves(state, seat) if m["type"] in PLACEMENTS)
    assert set(kinds) == PLACEMENTS == set(svg.BOARD_MOVES)
    assert {"setup_settlement", "setup_road", "main", "robber", "free_roads"} <= {p for p, k in checked.items() if k}


def test_placements_are_the_engine_moves_that_name_one_place():
    """A move naming one corner, edge or hex is a click on the board; ``move_pair`` names two
    (a corner and an edge) and is chosen from the move list instead."""
    one_place = {t for t, keys in _FIELDS.items() if len(keys & {"node", "edge", "hex"}) == 1}
    assert one_place == PLACEMENTS and PLACEMENTS <= set(MOVE_TYPES)


def test_robber_hex_with_several_victims_offers_a_chip_per_victim(by_phase):
    for state in by_phase["robber"]:
        view = H.view(state, state.cur)
        per_hex = Counter(m["hex"] for m in view["legal_moves"])
        crowded = [h for h, k in per_hex.items() if k > 1]
        if crowded:
            break
    else:
        pytest.skip("no robber move with two victims on one hex in this game")
    root = parse(svg.board_svg(view, interactive=True))
    h = crowded[0]
    chips = [g for g in groups(root, "hl-target-victim") if int(g.get("data-hex")) == h]
    assert sorted(int(g.get("data-victim")) for g in chips) == sorted(
        m["victim"] for m in view["legal_moves"] if m["hex"] == h)
    for g in chips:
        assert f"steal from {NAMES[int(g.get('data-victim'))]}" in g.get("aria-label")


def test_click_targets_group_the_placements_by_node_edge_and_hex(by_phase):
    for phase, group, key in (("setup_settlement", "nodes", "node"), ("setup_road", "edges", "edge"),
                              ("robber", "hexes", "hex")):
        state = by_phase[phase][-1]
        view = H.view(state, state.cur)
        targets = svg.click_targets(view)
        assert [t["move"] for t in targets[group]] == board_moves(view)
        assert all(t["id"] == t["move"][key] for t in targets[group])
        assert sum(len(v) for v in targets.values()) == len(targets[group])


def test_without_interaction_or_for_a_spectator_nothing_is_clickable(by_phase):
    state = by_phase["setup_settlement"][0]
    for view, interactive in ((H.view(state, state.cur), False), (H.view(state, None), True)):
        markup = str(svg.board_svg(view, interactive=interactive))
        assert "data-move" not in markup and "tabindex" not in markup and 'role="button"' not in markup


def test_given_targets_replace_the_derived_ones(by_phase):
    state = by_phase["setup_settlement"][0]
    view = H.view(state, state.cur)
    only = svg.click_targets(view)["nodes"][:1]
    root = parse(svg.board_svg(view, interactive=True, targets={"nodes": only}))
    assert targets_of(root) == [only[0]["move"]]


# --- the page ---------------------------------------------------------------------------------

class Tags(HTMLParser):
    """The start tags of a page, with their attributes and the page's visible text."""

    def __init__(self, html: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def having(self, css: str) -> list[dict]:
        return [a for _, a in self.tags if css in (a.get("class") or "").split()]


def page(state, seat, your_move=None) -> str:
    view = H.view(state, seat)
    if your_move is None:
        your_move = seat is not None and seat in H.actors(state)
    game = SimpleNamespace(pk=7, version=state.log_len, status="finished" if H.is_over(state) else "active")
    return render_to_string("hexland/board.html", {"game": game, "seat": seat, "view": view, "your_move": your_move})


def private_log_lines(state, seat) -> set[str]:
    """Log lines only this seat reads this way (its own purchases, the card of its steals)."""
    public = set(H.view(state, None)["log"])
    return {line for line in H.view(state, seat)["log"] if line not in public}


def check_pages(state) -> None:
    """Every seat's page and the spectator's render; each holds its own cards only."""
    pages = {seat: page(state, seat) for seat in seats_and_spectator(state)}
    over = H.is_over(state)
    for viewer, html in pages.items():
        view = H.view(state, viewer)
        tags = Tags(html)
        assert tags.having("hl-board"), "the board is on the page"
        owners = [a.get("data-owner") for a in tags.having("hl-private")]
        assert owners == ([] if viewer is None else [str(viewer)])
        cards = {a["data-card"]: int(a["data-count"]) for a in tags.having("hl-card")}
        assert cards == (view["you"]["hand"] if viewer is not None else {})
        devs = {a["data-dev"]: int(a["data-count"]) for _, a in tags.tags if "data-dev" in a}
        expected = {c: k for c, k in view["you"]["dev_cards"].items() if k} if viewer is not None else {}
        assert devs == expected
        # other players show their public points only (hidden VP cards stay hidden until the end)
        rows = {int(a["data-seat"]): int(a["data-vp"]) for a in tags.having("hl-player")}
        assert rows == {p["seat"]: p["vp"] for p in view["players"]}
        assert sum(1 for _, a in tags.tags if "data-you-vp" in a) == (viewer is not None)
        for seat in range(state.g.n):
            if seat == viewer:
                continue
            for line in private_log_lines(state, seat) - set(view["log"]):
                assert escape(line) not in html, f"{NAMES[seat]}'s private line reached {viewer}'s page"
        if not over:
            assert ("hl-winner" in html) is False
        moves = tags.having("hl-moves")
        assert bool(moves) == (viewer is not None and viewer in H.actors(state))


def test_page_renders_for_every_seat_and_the_spectator_in_every_phase(by_phase):
    assert set(by_phase) == ALL_PHASES, "the sample game reaches every phase"
    for phase, states in by_phase.items():
        for state in (states[0], states[-1]):
            check_pages(state)


def test_page_shows_the_turn_dice_badges_and_log(by_phase):
    state = by_phase["main"][-1]
    view = H.view(state, state.cur)
    html = page(state, state.cur)
    assert f"{escape(NAMES[state.cur])}&#x27;s turn: trade and build" in html
    a, b = view["dice"]
    assert f'data-dice="{a} {b}"' in html and f"{a} + {b} = {a + b}" in html
    for line in view["log"][-8:]:
        assert escape(line) in html
    assert 'class="hl-log"' in html and 'aria-live="polite"' in html
    if view["longest_road"] is not None:
        assert "Longest Road (2 points)" in html
    # The players panel is drawn once for everyone: each row holds a "you" badge, and the page's
    # seat says which one shows (hexland.css; tests/e2e/test_hexland_room.py sees just one).
    assert html.count('class="badge hl-you-badge">you</span>') == len(view["players"])
    assert f'data-viewer-seat="{state.cur}"' in html


def test_final_page_names_the_winner_and_shows_hidden_points(by_phase):
    state = by_phase["over"][-1]
    view = H.view(state, None)
    html = page(state, None)
    winner = view["players"][view["winner"]]
    assert f"Game over: {escape(winner['name'])} wins" in html
    assert html.count("hl-winner") == 1
    for p in view["players"]:
        if p["vp_cards"]:
            assert f"incl. {p['vp_cards']} victory point card" in html


class Forms(HTMLParser):
    """Each form of a page: its fixed fields, and the values each select or number input offers."""

    def __init__(self, html: str):
        super().__init__()
        self.forms: list[dict] = []
        self._select = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"fixed": {}, "choices": {}})
        elif not self.forms:
            return
        elif tag == "input" and a.get("type") == "hidden":
            self.forms[-1]["fixed"][a["name"]] = a.get("value", "")
        elif tag == "input" and a.get("type") == "number":
            self.forms[-1]["choices"][a["name"]] = [str(n) for n in range(int(a.get("min", 0)), int(a.get("max", 0)) + 1)]
        elif tag == "select":
            self._select = self.forms[-1]["choices"].setdefault(a["name"], [])
        elif tag == "option" and self._select is not None:
            self._select.append(a.get("value"))

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None


def reachable(form: dict, move: dict) -> bool:
    """Can this form post ``move``: its fixed fields match and each other field is on offer?"""
    from django.http import QueryDict

    from games.hexland.forms import parse_move_form

    fixed, choices = form["fixed"], form["choices"]
    if "move" in choices:
        return json.dumps(move, sort_keys=True) in {json.dumps(json.loads(v), sort_keys=True) for v in choices["move"]}
    wanted = {"type": move["type"]}
    for key, value in move.items():
        if isinstance(value, dict):
            wanted.update({f"{'cards' if key == 'cards' else key}_{r}": str(n) for r, n in value.items()})
        elif key == "resources":
            wanted["resource_1"], wanted["resource_2"] = value
        elif key in ("give", "get") and move["type"] == "bank_trade":
            wanted["pair"] = f"{move['give']}:{move['get']}"
        elif key != "type":
            wanted[key] = str(value)
    if any(fixed.get(k, v) != v for k, v in wanted.items() if k in fixed):
        return False
    if any(k not in fixed and v not in choices.get(k, ()) for k, v in wanted.items()):
        return False
    data = QueryDict(mutable=True)
    data.update({**{k: c[0] for k, c in choices.items() if c}, **fixed, **wanted})
    return parse_move_form(data) == move


def test_the_action_panel_offers_every_legal_move_in_every_phase(by_phase):
    for phase, states in by_phase.items():
        for state in (states[0], states[-1]):
            for seat in sorted(H.actors(state)):
                view = H.view(state, seat)
                forms = Forms(page(state, seat, your_move=True)).forms
                for move in view["legal_moves"]:
                    assert any(reachable(form, move) for form in forms), (phase, move)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 600), timeouts=st.sampled_from([0.0, 0.05]))
def test_any_position_draws_for_everyone_and_keeps_each_seats_cards_private(seed, steps, timeouts):
    state = playout(seed, steps, timeouts=timeouts, bot=0.7)
    for seat in seats_and_spectator(state):
        view = H.view(state, seat)
        root = parse(svg.board_svg(view, interactive=seat is not None))
        assert len(groups(root, "hl-hex")) == 19 and len(groups(root, "hl-harbour")) == 9
        assert canonical(targets_of(root)) == canonical(board_moves(view))
    check_pages(state)


# --- the site ---------------------------------------------------------------------------------

def test_site_draws_hexland_with_its_board_and_checks_every_view_draws(by_phase):
    site = get_site("hexland")
    assert site.board_template == "hexland/board.html"
    for states in by_phase.values():
        for seat in seats_and_spectator(states[-1]):
            site.check_view(H.view(states[-1], seat))
    panel = hexland_panel(H.view(by_phase["trade"][-1], None))
    assert panel["offer"] and panel["phase"].endswith("offers a trade")


# --- the game page, through the platform --------------------------------------------------------

@pytest.fixture
def hexland_game(make_user):
    from games.services import lifecycle

    ana, bo = make_user("ana"), make_user("bo")
    game = lifecycle.create_game(kind="hexland", config={"players": 2, "names": ["ana", "bo"]},
                                 created_by=ana, players=[ana, bo], join=False)
    lifecycle.start_game(game_id=game.pk)
    game.refresh_from_db()
    return game, ana, bo


@pytest.mark.django_db
def test_game_page_draws_the_board_with_targets_for_the_seat_to_move_only(client, hexland_game, make_user):
    from django.urls import reverse

    from games import state_store

    game, ana, bo = hexland_game
    state = state_store.load(game)
    mover = {0: ana, 1: bo}[state.cur]
    client.force_login(mover)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'class="hl-board hl-pieces hl-interactive"' in html and 'class="hl-board hl-island"' in html
    assert "hexland/hexland.css" in html
    assert html.count('class="hl-target hl-target-node"') == len(H.legal_moves(state, state.cur))
    client.force_login(make_user("cy"))   # a public game: anyone may watch
    spectator = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'class="hl-board hl-pieces"' in spectator and 'class="hl-board hl-island"' in spectator
    assert "data-move=" not in spectator and 'class="card hl-you hl-private"' not in spectator

    client.force_login(mover)
    move = H.legal_moves(state, state.cur)[0]
    response = client.post(reverse("game_move", args=[game.pk]), {"version": game.version, "move": json.dumps(move)})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 1


@pytest.mark.django_db
def test_a_position_whose_board_cannot_be_drawn_is_never_stored(client, hexland_game, monkeypatch):
    from django.urls import reverse

    from games import state_store
    from games.models import MoveEvent

    game, ana, bo = hexland_game
    state = state_store.load(game)
    client.force_login({0: ana, 1: bo}[state.cur])

    def broken(view, **kw):
        raise ValueError("cannot draw")

    monkeypatch.setattr(svg, "pieces_svg", broken)  # what changes with a move
    move = H.legal_moves(state, state.cur)[0]
    response = client.post(reverse("game_move", args=[game.pk]), {"version": game.version, "move": json.dumps(move)})
    assert response.status_code == 400
    assert not MoveEvent.objects.filter(game=game).exists()


def test_the_end_shows_each_players_points_broken_down_and_the_dice(by_phase):
    state = by_phase["over"][-1]
    html = page(state, None)
    view = H.view(state, None)
    assert "Final scores" in html and "winner" in html
    from games.hexland.templatetags.hexland_boards import hexland_final

    final = hexland_final(view)
    for row in final["rows"]:
        player = view["players"][row["seat"]]
        assert row["settlements"] + 2 * row["cities"] + row["longest_road"] + row["largest_army"] + row["vp_cards"] == row["total"]
        assert row["total"] == player["total_vp"]
    rolls = sum(1 for line in view["log"] if " rolled " in line) if len(view["log"]) == view["log_length"] else final["rolls"]
    assert final["rolls"] == rolls and sum(d["count"] for d in final["dice"]) == final["rolls"]
    assert hexland_final(H.view(by_phase["main"][-1], None)) is None
