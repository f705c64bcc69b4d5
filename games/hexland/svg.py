"""The Hexland board as SVG, drawn from one seat's view (rules: shared/rules/hexland.md).

Pure functions from the engine's view (``games.hexland.engine.view``) to SVG markup: the
picture never reads engine state, so it can show nothing the view does not hold. Every value
taken from the view is either checked against a fixed list of names, turned into a number, or
escaped before it is written; only markup built that way is marked safe.

Geometry: the view's ``topology`` gives each corner a lattice point ``[u, v]`` with
``x = u * sqrt(3) / 2 * R`` and ``y = v * R / 2`` (pointy-topped hexes of circumradius R, y
growing downward) and each hex its centre, cube coordinates and six corners. The sea around
the island is the ring of hexes next to the land, found from the same cube coordinates.

Colour is never the only cue: every terrain has a pattern, every seat a digit on its
buildings and a dash pattern on its roads, and every piece a title naming it.
"""
from __future__ import annotations

import json
from math import sqrt
from typing import Iterable, Mapping

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.hexland import words

R = 40.0  # circumradius of a hex
_UX, _UY = R * sqrt(3) / 2, R / 2   # one lattice step across, one down
MARGIN = 8.0  # beyond the sea's rounded outline (its stroke reaches 6 past it)
TOKEN_R = 13.5
HARBOUR_FONT = 15   # a harbour's two words (docs/hexland.md: readable on a phone)
HARBOUR_W, HARBOUR_H = 52.0, 40.0   # its badge: inside the water hex, clear of the coast
INK, SEA = "#1f2430", "#4f8fc6"
_TEXT = 'font-family="system-ui, sans-serif" text-anchor="middle"'

TERRAINS = ("forest", "hills", "pasture", "fields", "mountains", "desert")
TERRAIN_FILL = {"forest": "#2f7a3b", "hills": "#c2603a", "pasture": "#93c957",
                "fields": "#f1c644", "mountains": "#8e939c", "desert": "#e6d3a0"}
RESOURCES = ("wood", "brick", "sheep", "wheat", "ore")
RESOURCE_TERRAIN = {"wood": "forest", "brick": "hills", "sheep": "pasture", "wheat": "fields",
                    "ore": "mountains"}
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}

# Okabe-Ito orange, blue and reddish purple, and white (the base game's white pieces): four
# colours that stay apart under the common colour-vision deficiencies.
PLAYER_COLOURS = ("#E69F00", "#0072B2", "#F4F4F4", "#CC79A7")
PLAYER_INKS = (INK, "#ffffff", INK, INK)     # the digit on a piece of that colour
PLAYER_COLOUR_NAMES = words.COLOUR_NAMES  # in the active language
ROAD_DASHES = ("", "7 3", "2.5 2.5", "9 3 2.5 3")   # solid, dashed, dotted, dash-dot

NODE_MOVES = ("place_settlement", "build_settlement", "build_city")
EDGE_MOVES = ("place_road", "build_road")
HEX_MOVES = ("move_robber",)
BOARD_MOVES = NODE_MOVES + EDGE_MOVES + HEX_MOVES


def _fmt(x: float) -> str:
    text = f"{x:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _int(value, default: int = -1) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def seat_colour(seat) -> str:
    return PLAYER_COLOURS[_int(seat, 0) % 4]


def seat_ink(seat) -> str:
    return PLAYER_INKS[_int(seat, 0) % 4]


def seat_marker(seat) -> str:
    """The digit a seat's pieces carry (seat 0 is "1")."""
    return str(_int(seat, 0) % 4 + 1)


def seat_dash(seat) -> str:
    return ROAD_DASHES[_int(seat, 0) % 4]


# --- geometry from the view -------------------------------------------------------------------

class Geometry:
    """Pixel positions of the view's hexes, corners and edges (and the sea around them)."""

    def __init__(self, topology: Mapping):
        self.nodes = {_int(n.get("id")): self.pixel(n.get("point"))
                      for n in topology.get("nodes") or []}
        self.node_hexes = {_int(n.get("id")): [_int(h) for h in n.get("hexes") or []]
                           for n in topology.get("nodes") or []}
        self.edges = {_int(e.get("id")): [_int(x) for x in (e.get("nodes") or [])[:2]]
                      for e in topology.get("edges") or []}
        self.hexes, self.hex_nodes, cubes = {}, {}, {}
        for h in topology.get("hexes") or []:
            i = _int(h.get("id"))
            self.hexes[i] = self.pixel(h.get("centre"))
            self.hex_nodes[i] = [_int(x) for x in h.get("nodes") or []]
            cube = tuple(_int(c, 0) for c in h.get("cube") or ())
            if len(cube) == 3:
                cubes[cube] = i
        self.sea = self._sea(cubes)

    @staticmethod
    def pixel(point) -> tuple[float, float]:
        try:
            u, v = point
            return float(u) * _UX, float(v) * _UY
        except (TypeError, ValueError):
            return 0.0, 0.0

    @staticmethod
    def _sea(cubes: Mapping) -> list[tuple[float, float]]:
        """The sea around the island: the hexagon through the centres of the corner hexes of
        the ring of water bordering the land, pushed out to cover that ring."""
        if not cubes:
            return []
        n = max(max(abs(c) for c in cube) for cube in cubes) + 1
        corners = [(n, -n, 0), (n, 0, -n), (0, n, -n), (-n, n, 0), (-n, 0, n), (0, -n, n)]
        # a hex centre in lattice units is (x - y, 3z), as for the land
        points = [((x - y) * _UX, 3 * z * _UY) for x, y, z in corners]
        reach = sqrt(points[0][0] ** 2 + points[0][1] ** 2)
        grow = (reach + R * 0.55) / reach
        return [(x * grow, y * grow) for x, y in points]

    def edge_points(self, e: int):
        a, b = self.edges.get(e, (None, None))
        if a not in self.nodes or b not in self.nodes:
            return None
        return self.nodes[a], self.nodes[b]

    def edge_hexes(self, e: int) -> list[int]:
        a, b = self.edges.get(e, (None, None))
        return [h for h in self.node_hexes.get(a, []) if h in self.node_hexes.get(b, [])]

    def view_box(self) -> str:
        points = self.sea or [(x + dx, y + dy) for x, y in self.hexes.values() or [(0.0, 0.0)]
                              for dx, dy in ((-_UX, -R), (_UX, R))]
        left = min(x for x, _y in points) - MARGIN
        right = max(x for x, _y in points) + MARGIN
        top = min(y for _x, y in points) - MARGIN
        bottom = max(y for _x, y in points) + MARGIN
        return " ".join(_fmt(v) for v in (left, top, right - left, bottom - top))


def _hex_points(cx: float, cy: float, scale: float = 1.0) -> str:
    pts = ((0, -R), (_UX, -_UY), (_UX, _UY), (0, R), (-_UX, _UY), (-_UX, -_UY))
    return " ".join(f"{_fmt(cx + dx * scale)},{_fmt(cy + dy * scale)}" for dx, dy in pts)


# --- words -------------------------------------------------------------------------------------

def _hex_info(view: Mapping) -> dict[int, Mapping]:
    return {_int(h.get("id")): h for h in (view.get("board") or {}).get("hexes") or []}


def _terrain(value) -> str:
    return value if value in TERRAIN_FILL else "desert"


def _resource(value) -> str | None:
    return value if value in RESOURCES else None


def _number(value) -> int | None:
    n = _int(value, 0)
    return n if n in PIPS else None


def hex_text(info: Mapping | None) -> str:
    """"the 8 ore (mountains)", "the desert"."""
    if not info or _terrain(info.get("terrain")) == "desert":
        return _("the desert")
    res, n = _resource(info.get("resource")), _number(info.get("number"))
    # Translators: a hex of the Hexland island, e.g. "the 8 ore (mountains)".
    return _("the %(number)s %(resource)s (%(terrain)s)") % {
        "number": n, "resource": words.resource(res), "terrain": words.terrain(_terrain(info.get("terrain")))}


def _short_hex(info: Mapping | None) -> str:
    if not info or _terrain(info.get("terrain")) == "desert":
        return words.terrain("desert")
    return words.spot(_number(info.get("number")), _resource(info.get("resource")))


def _harbour_text(harbour: Mapping) -> str:
    res = _resource(harbour.get("resource"))
    # Translators: a Hexland harbour where 2 cards of one resource buy 1 card, e.g. "2:1 wood harbour".
    return _("2:1 %(resource)s harbour") % {"resource": words.resource(res)} if res else _("3:1 harbour")


def node_text(view: Mapping, geo: Geometry, node: int) -> str:
    """The corner in words: the hexes it touches and its harbour ("6 wheat / 8 ore / coast")."""
    info = _hex_info(view)
    parts = [_short_hex(info.get(h)) for h in geo.node_hexes.get(node, [])]
    if len(parts) < 3:
        parts.append(_("the coast"))
    for harbour in (view.get("board") or {}).get("harbours") or []:
        if node in [_int(x) for x in harbour.get("nodes") or []]:
            parts.append(_harbour_text(harbour))
    # Translators: a corner of the Hexland board by its number and what is around it, e.g.
    # "corner 12 (6 wheat, 8 ore, the coast)".
    return _("corner %(node)s (%(around)s)") % {"node": node, "around": ", ".join(parts)}


def edge_text(view: Mapping, geo: Geometry, edge: int) -> str:
    info = _hex_info(view)
    parts = [_short_hex(info.get(h)) for h in geo.edge_hexes(edge)]
    if len(parts) < 2:
        parts.append(_("the coast"))
    # Translators: an edge of the Hexland board by its number and the two hexes (or a hex and
    # the coast) on either side, e.g. "edge 30 (between 6 wheat and the coast)".
    return _("edge %(edge)s (between %(first)s and %(second)s)") % {
        "edge": edge, "first": ", ".join(parts[:-1]), "second": parts[-1]}


def _name(view: Mapping, seat) -> str:
    fallback = _("Player %(number)s") % {"number": _int(seat) + 1}
    for p in view.get("players") or []:
        if _int(p.get("seat")) == _int(seat):
            return str(p.get("name") or fallback)
    return fallback


def move_label(view: Mapping, move: Mapping, geo: Geometry | None = None) -> str:
    """A move in words, for buttons and their labels ("Build a road on edge 12 (...)")."""
    geo = geo or Geometry(view.get("topology") or {})
    kind = move.get("type")
    if kind in ("place_settlement", "build_settlement", "build_city"):
        corner = node_text(view, geo, _int(move.get("node")))
        if kind == "place_settlement":
            return _("Place a settlement at %(corner)s") % {"corner": corner}
        if kind == "build_settlement":
            return _("Build a settlement at %(corner)s") % {"corner": corner}
        return _("Upgrade to a city at %(corner)s") % {"corner": corner}
    if kind == "place_road":
        return _("Place a road on %(edge)s") % {"edge": edge_text(view, geo, _int(move.get("edge")))}
    if kind == "build_road":
        return _("Build a road on %(edge)s") % {"edge": edge_text(view, geo, _int(move.get("edge")))}
    if kind == "move_pair":
        return _("Move your auto-placed pair: settlement at %(corner)s, road on edge %(edge)s") % {
            "corner": node_text(view, geo, _int(move.get("node"))), "edge": _int(move.get("edge"))}
    if kind == "move_robber":
        where = hex_text(_hex_info(view).get(_int(move.get("hex"))))
        victim = move.get("victim")
        if victim is not None:
            return _("Move the robber to %(hex)s and steal from %(player)s") % {"hex": where,
                                                                               "player": _name(view, victim)}
        return _("Move the robber to %(hex)s") % {"hex": where}
    return _other_label(view, move)


def _cards(bundle) -> str:
    if not isinstance(bundle, Mapping):
        return str(words.NOTHING)
    return words.amounts((r, _int(k, 0)) for r, k in bundle.items() if r in RESOURCES)


def _play_label(move: Mapping) -> str:
    """A development card's move in words ("Play Year of Plenty for wood and ore")."""
    card = move.get("card")
    if card == "knight":
        return _("Play a Knight")
    if card == "road_building":
        return _("Play Road Building")
    if card == "year_of_plenty":
        picks = [words.resource(r) for r in move.get("resources") or [] if r in RESOURCES]
        if len(picks) == 2:
            return _("Play Year of Plenty for %(first)s and %(second)s") % {"first": picks[0], "second": picks[1]}
        if len(picks) == 1:
            return _("Play Year of Plenty for %(resource)s") % {"resource": picks[0]}
        return _("Play Year of Plenty")
    if card == "monopoly":
        if _resource(move.get("resource")):
            return _("Play Monopoly on %(resource)s") % {"resource": words.resource(move.get("resource"))}
        return _("Play Monopoly")
    return _("Play a development card")


def _other_label(view: Mapping, move: Mapping) -> str:
    kind = move.get("type")
    fixed = {"roll": _("Roll the dice"), "end_turn": _("End your turn"),
             "buy_dev": _("Buy a development card"), "accept": _("Accept the offer"),
             "decline": _("Decline the offer"), "cancel": _("Withdraw your offer")}
    if kind in fixed:
        return fixed[kind]
    if kind == "discard":
        return _("Discard %(cards)s") % {"cards": _cards(move.get("cards"))}
    if kind == "play_dev":
        return _play_label(move)
    if kind == "bank_trade":
        give, get = _resource(move.get("give")), _resource(move.get("get"))
        rate = 4
        you = _int(view.get("seat"))
        for p in view.get("players") or []:
            if _int(p.get("seat")) == you:
                rate = _int((p.get("rates") or {}).get(give), 4)
        count = max(1, _int(move.get("count"), 1))
        # Translators: give and get are amounts of resources, e.g. "Trade 4 wood for 1 ore with the bank".
        return _("Trade %(give)s for %(get)s with the bank") % {"give": words.amount(rate * count, give),
                                                                "get": words.amount(count, get)}
    if kind == "offer":
        return _("Offer %(give)s for %(get)s") % {"give": _cards(move.get("give")), "get": _cards(move.get("get"))}
    if kind == "confirm":
        return _("Trade with %(player)s") % {"player": _name(view, move.get("seat"))}
    return str(kind)


# --- click targets -----------------------------------------------------------------------------

def click_targets(view: Mapping) -> dict[str, list[dict]]:
    """What the seat may click on the board, from ``view["legal_moves"]``: for nodes, edges and
    hexes, a list of ``{"id", "move", "label"}`` (a hex may appear once per robber victim).
    Moves that are not a place on the board (rolling, trading, a ``move_pair``'s two-part
    choice) are left to the page's move form."""
    return _click_targets(view, Geometry(view.get("topology") or {}))


def _click_targets(view: Mapping, geo: Geometry) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {"nodes": [], "edges": [], "hexes": []}
    for move in view.get("legal_moves") or []:
        if not isinstance(move, Mapping):
            continue
        kind = move.get("type")
        if kind in NODE_MOVES:
            group, key = "nodes", "node"
        elif kind in EDGE_MOVES:
            group, key = "edges", "edge"
        elif kind in HEX_MOVES:
            group, key = "hexes", "hex"
        else:
            continue
        out[group].append({"id": _int(move.get(key)), "move": dict(move),
                           "label": move_label(view, move, geo)})
    return out


def _move_attrs(target: Mapping) -> str:
    data = json.dumps(target.get("move"), separators=(",", ":"))
    label = escape(target.get("label") or "")
    return (f' role="button" tabindex="0" aria-label="{label}" data-move="{escape(data)}"')


def _node_target(geo: Geometry, target: Mapping) -> str:
    n = _int(target.get("id"))
    if n not in geo.nodes:
        return ""
    x, y = geo.nodes[n]
    kind = escape(str((target.get("move") or {}).get("type")))
    # an upgrade rings the settlement it upgrades, which stays visible inside
    radius, opacity = (13, ".2") if kind == "build_city" else (8.5, ".75")
    return (f'<g class="hl-target hl-target-node" data-node="{n}" data-kind="{kind}"{_move_attrs(target)}>'
            f'<title>{escape(target.get("label") or "")}</title>'
            f'<circle class="hl-target-mark" cx="{_fmt(x)}" cy="{_fmt(y)}" r="{radius}" fill="#ffffff" '
            f'fill-opacity="{opacity}" stroke="{INK}" stroke-width="1.8" stroke-dasharray="3 2"/></g>')


def _edge_target(geo: Geometry, target: Mapping) -> str:
    e = _int(target.get("id"))
    ends = geo.edge_points(e)
    if ends is None:
        return ""
    (x1, y1), (x2, y2) = ends
    # the inner part of the edge, clear of the corners' own targets
    a = (x1 + (x2 - x1) * 0.2, y1 + (y2 - y1) * 0.2)
    b = (x1 + (x2 - x1) * 0.8, y1 + (y2 - y1) * 0.8)
    line = f'x1="{_fmt(a[0])}" y1="{_fmt(a[1])}" x2="{_fmt(b[0])}" y2="{_fmt(b[1])}"'
    kind = escape(str((target.get("move") or {}).get("type")))
    return (f'<g class="hl-target hl-target-edge" data-edge="{e}" data-kind="{kind}"{_move_attrs(target)}>'
            f'<title>{escape(target.get("label") or "")}</title>'
            f'<line class="hl-target-hit" {line} stroke="#ffffff" stroke-opacity=".7" '
            f'stroke-width="9" stroke-linecap="round"/>'
            f'<line class="hl-target-mark" {line} stroke="{INK}" stroke-width="2" '
            f'stroke-dasharray="3 2"/></g>')


def _hex_targets(geo: Geometry, view: Mapping, h: int, targets: list) -> str:
    """One hex the robber may go to: the hex is the button when there is one way to go there;
    with several possible victims, a chip per victim (in the victim's colour) is."""
    if h not in geo.hexes:
        return ""
    cx, cy = geo.hexes[h]
    area = (f'<polygon class="hl-target-mark" points="{_hex_points(cx, cy, 0.82)}" '
            f'fill="#ffffff" fill-opacity=".18" stroke="{INK}" stroke-width="2" '
            f'stroke-dasharray="5 3"/>')
    if len(targets) == 1:
        t = targets[0]
        return (f'<g class="hl-target hl-target-hex" data-hex="{h}" data-kind="move_robber"{_move_attrs(t)}>'
                f'<title>{escape(t.get("label") or "")}</title>{area}</g>')
    chips = []
    width = 18 * (len(targets) - 1)
    for i, t in enumerate(targets):
        victim = (t.get("move") or {}).get("victim")
        # in a row above the number disc, clear of the corners' buildings
        x, y = cx - width / 2 + 18 * i, cy - R * 0.55
        chips.append(
            f'<g class="hl-target hl-target-hex hl-target-victim" data-hex="{h}" '
            f'data-victim="{_int(victim)}" data-kind="move_robber"{_move_attrs(t)}>'
            f'<title>{escape(t.get("label") or "")}</title>'
            f'<circle class="hl-target-mark" cx="{_fmt(x)}" cy="{_fmt(y)}" r="8.5" '
            f'fill="{seat_colour(victim)}" stroke="{INK}" stroke-width="1.8" stroke-dasharray="3 2"/>'
            f'<text x="{_fmt(x)}" y="{_fmt(y + 3.5)}" font-size="10" font-weight="700" '
            f'fill="{seat_ink(victim)}">{seat_marker(victim)}</text></g>')
    return f'<g class="hl-robber-choice" data-hex="{h}">{area}{"".join(chips)}</g>'


def _targets(geo: Geometry, view: Mapping, targets: Mapping) -> str:
    parts = []
    by_hex: dict[int, list] = {}
    for t in targets.get("hexes") or []:
        by_hex.setdefault(_int(t.get("id")), []).append(t)
    parts.extend(_hex_targets(geo, view, h, ts) for h, ts in by_hex.items())
    parts.extend(_edge_target(geo, t) for t in targets.get("edges") or [])
    parts.extend(_node_target(geo, t) for t in targets.get("nodes") or [])
    return f'<g class="hl-targets">{"".join(parts)}</g>' if parts else ""


# --- patterns: colour is never the only cue ----------------------------------------------------

def pattern_defs() -> str:
    """The terrain patterns (one per terrain; the desert stays plain sand) and the sea's waves."""
    return (
        "<defs>"
        # forest: little fir trees
        '<pattern id="hl-pat-forest" width="16" height="16" patternUnits="userSpaceOnUse">'
        '<path d="M4 1 L8 7.5 L0 7.5 Z M12 8 L16 14.5 L8 14.5 Z" fill="#153f1d" fill-opacity=".55"/>'
        '<path d="M4 7.5 V10 M12 14.5 V16" stroke="#153f1d" stroke-opacity=".55" stroke-width="1.4"/>'
        "</pattern>"
        # hills: a brick bond
        '<pattern id="hl-pat-hills" width="16" height="10" patternUnits="userSpaceOnUse">'
        '<path d="M0 0.5 H16 M0 5.5 H16 M4 0.5 V5.5 M12 5.5 V10" fill="none" stroke="#6e2a12" '
        'stroke-opacity=".55" stroke-width="1.2"/></pattern>'
        # pasture: a flock of sheep (white dots, staggered)
        '<pattern id="hl-pat-pasture" width="12" height="12" patternUnits="userSpaceOnUse">'
        '<circle cx="3" cy="3" r="1.9" fill="#ffffff" fill-opacity=".85"/>'
        '<circle cx="9" cy="9" r="1.9" fill="#ffffff" fill-opacity=".85"/></pattern>'
        # fields: diagonal rows of wheat
        '<pattern id="hl-pat-fields" width="7" height="7" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)">'
        '<line x1="0" y1="0" x2="0" y2="7" stroke="#8a6410" stroke-opacity=".55" stroke-width="1.8"/>'
        "</pattern>"
        # mountains: peaks with snow caps
        '<pattern id="hl-pat-mountains" width="18" height="14" patternUnits="userSpaceOnUse">'
        '<path d="M1 13 L7 4 L13 13 Z" fill="#4c5058" fill-opacity=".6"/>'
        '<path d="M5.3 6.5 L7 4 L8.7 6.5 Z" fill="#ffffff" fill-opacity=".9"/></pattern>'
        '<pattern id="hl-pat-sea" width="20" height="10" patternUnits="userSpaceOnUse">'
        '<path d="M0 6 Q5 3 10 6 T20 6" fill="none" stroke="#ffffff" stroke-opacity=".3" '
        'stroke-width="1.2"/></pattern>'
        "</defs>"
    )


# --- the pieces of the picture -----------------------------------------------------------------

def _sea(geo: Geometry) -> str:
    if not geo.sea:
        return ""
    pts = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in geo.sea)
    return (f'<g class="hl-sea" aria-hidden="true">'
            f'<polygon points="{pts}" fill="{SEA}" stroke="{SEA}" stroke-width="12" '
            f'stroke-linejoin="round"/><polygon points="{pts}" fill="url(#hl-pat-sea)"/></g>')


def _token(cx: float, cy: float, n: int) -> str:
    """A number disc: the number and its pips (1 for 2 and 12 ... 5 for 6 and 8); the two most
    frequent rolls, 6 and 8, in bold red."""
    hot = n in (6, 8)
    css = "hl-token hot" if hot else "hl-token"
    colour = "#c0271b" if hot else INK
    pips, spacing = PIPS[n], 3.2
    start = cx - spacing * (pips - 1) / 2
    dots = "".join(f'<circle class="hl-pip" cx="{_fmt(start + spacing * i)}" cy="{_fmt(cy + 7.2)}" '
                   f'r="1.15"/>' for i in range(pips))
    return (f'<g class="{css}" data-number="{n}" data-pips="{pips}">'
            f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{TOKEN_R}" fill="#f8efd8" stroke="{INK}" '
            f'stroke-width="1"/>'
            f'<text x="{_fmt(cx)}" y="{_fmt(cy + 3.6)}" font-size="{13 if hot else 12}" '
            f'font-weight="{800 if hot else 600}" fill="{colour}">{n}</text>'
            f'<g fill="{colour}">{dots}</g></g>')


def _land(geo: Geometry, view: Mapping) -> str:
    parts = []
    for h, info in sorted(_hex_info(view).items()):
        if h not in geo.hexes:
            continue
        cx, cy = geo.hexes[h]
        terrain = _terrain(info.get("terrain"))
        res, n = _resource(info.get("resource")), _number(info.get("number"))
        if n and res:
            title = _("Hex %(hex)s: %(terrain)s, number %(number)s, produces %(resource)s") % {
                "hex": h, "terrain": words.terrain(terrain), "number": n, "resource": words.resource(res)}
        else:
            title = _("Hex %(hex)s: %(terrain)s, no number, produces nothing") % {
                "hex": h, "terrain": words.terrain(terrain)}
        pts = _hex_points(cx, cy)
        pattern = (f'<polygon points="{pts}" fill="url(#hl-pat-{terrain})"/>'
                   if terrain != "desert" else "")
        token = _token(cx, cy, n) if n else ""
        number = f' data-number="{n}"' if n else ""
        parts.append(
            f'<g class="hl-hex hl-{terrain}" data-hex="{h}" data-terrain="{terrain}"{number}>'
            f"<title>{escape(title)}</title>"
            f'<polygon points="{pts}" fill="{TERRAIN_FILL[terrain]}"/>{pattern}'
            f'<polygon class="hl-hex-edge" points="{pts}" fill="none" stroke="#f3ead2" '
            f'stroke-width="2.2" stroke-linejoin="round"/>{token}</g>')
    return f'<g class="hl-land">{"".join(parts)}</g>'


def _harbours(geo: Geometry, view: Mapping) -> str:
    """Each harbour on the water in front of its coastal edge, with a pier to each corner."""
    parts = []
    for harbour in (view.get("board") or {}).get("harbours") or []:
        e = _int(harbour.get("edge"))
        nodes = [_int(x) for x in harbour.get("nodes") or []]
        if len(nodes) != 2 or any(x not in geo.nodes for x in nodes):
            continue
        (ax, ay), (bx, by) = geo.nodes[nodes[0]], geo.nodes[nodes[1]]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        land = [geo.hexes[h] for h in geo.edge_hexes(e) if h in geo.hexes]
        hx, hy = land[0] if land else (0.0, 0.0)
        # the water hex's centre lies as far beyond the edge as the land hex's is before it
        px, py = hx + (mx - hx) * 1.68, hy + (my - hy) * 1.68
        res = _resource(harbour.get("resource"))
        rate = "2:1" if res else "3:1"
        # Translators: a Hexland harbour's title, e.g. "2:1 wood harbour: trade 2:1 at corners 3 and 4".
        title = _("%(harbour)s: trade %(rate)s at corners %(first)s and %(second)s") % {
            "harbour": _harbour_text(harbour), "rate": rate, "first": nodes[0], "second": nodes[1]}
        # Translators: the word under "3:1" on a harbour that takes any resource (a few letters:
        # it is drawn on a small badge, as are the resources' names on the other harbours).
        word = words.resource(res) if res else pgettext("hexland harbour", "any")
        ring = TERRAIN_FILL[RESOURCE_TERRAIN[res]] if res else "#ffffff"
        piers = "".join(
            f'<line x1="{_fmt(px)}" y1="{_fmt(py)}" x2="{_fmt(x)}" y2="{_fmt(y)}"/>'
            for x, y in ((ax, ay), (bx, by)))
        # The rate over its resource on a badge inside the water hex, in letters big enough to
        # read at a phone's width (the board about 360 px wide: 15 units are 11 CSS px there).
        box = (f'<rect x="{_fmt(px - HARBOUR_W / 2)}" y="{_fmt(py - HARBOUR_H / 2)}" width="{_fmt(HARBOUR_W)}" '
               f'height="{_fmt(HARBOUR_H)}" rx="8" fill="#fffaf0" stroke="{ring}" stroke-width="3.5"/>')
        parts.append(
            f'<g class="hl-harbour" data-edge="{e}" data-nodes="{nodes[0]} {nodes[1]}" '
            f'data-rate="{rate}" data-resource="{res or "any"}">'
            f"<title>{escape(title)}</title>"
            f'<g stroke="#7a5a34" stroke-width="2.6" stroke-linecap="round">{piers}</g>{box}'
            f'<text class="hl-harbour-rate" x="{_fmt(px)}" y="{_fmt(py - 3)}" font-size="{HARBOUR_FONT}" '
            f'font-weight="700" fill="{INK}">{rate}</text>'
            f'<text class="hl-harbour-word" x="{_fmt(px)}" y="{_fmt(py + 13)}" font-size="{HARBOUR_FONT}" '
            f'fill="{INK}">{escape(word)}</text></g>')
    return f'<g class="hl-harbours">{"".join(parts)}</g>'


def _roads(geo: Geometry, view: Mapping) -> str:
    parts = []
    for road in view.get("roads") or []:
        e, seat = _int(road.get("edge")), _int(road.get("seat"))
        ends = geo.edge_points(e)
        if ends is None or seat < 0:
            continue
        (x1, y1), (x2, y2) = ends
        # stop short of the corners so buildings sit cleanly on top
        a = (x1 + (x2 - x1) * 0.12, y1 + (y2 - y1) * 0.12)
        b = (x1 + (x2 - x1) * 0.88, y1 + (y2 - y1) * 0.88)
        line = f'x1="{_fmt(a[0])}" y1="{_fmt(a[1])}" x2="{_fmt(b[0])}" y2="{_fmt(b[1])}"'
        dash = seat_dash(seat)
        title = _("%(player)s's road") % {"player": _name(view, seat)}
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<g class="hl-road hl-seat-{seat % 4}" data-edge="{e}" data-seat="{seat}" '
            f'data-colour="{seat_colour(seat)}">'
            f"<title>{escape(title)}</title>"
            f'<line {line} stroke="{INK}" stroke-width="7.5" stroke-linecap="round"/>'
            f'<line {line} stroke="{seat_colour(seat)}" stroke-width="4.5"{dash_attr}/></g>')
    return f'<g class="hl-roads">{"".join(parts)}</g>'


_SETTLEMENT = "M-7 7 V-1.5 L0 -8.5 L7 -1.5 V7 Z"
_CITY = "M-12 8 V-3 H-3 V-7 L2.5 -12.5 L8 -7 V8 Z"


def _buildings(geo: Geometry, view: Mapping) -> str:
    parts = []
    for b in view.get("buildings") or []:
        n, seat = _int(b.get("node")), _int(b.get("seat"))
        if n not in geo.nodes or seat < 0:
            continue
        kind = "city" if b.get("kind") == "city" else "settlement"
        x, y = geo.nodes[n]
        shape = _CITY if kind == "city" else _SETTLEMENT
        digit_at = (-5.5, 6) if kind == "city" else (0, 4.5)
        if kind == "city":
            title = _("%(player)s's city") % {"player": _name(view, seat)}
        else:
            title = _("%(player)s's settlement") % {"player": _name(view, seat)}
        parts.append(
            f'<g class="hl-building hl-{kind} hl-seat-{seat % 4}" data-node="{n}" '
            f'data-seat="{seat}" data-kind="{kind}" data-colour="{seat_colour(seat)}" '
            f'transform="translate({_fmt(x)} {_fmt(y)}) scale(1.2)">'
            f"<title>{escape(title)}</title>"
            f'<path d="{shape}" fill="{seat_colour(seat)}" stroke="{INK}" stroke-width="1.6" '
            f'stroke-linejoin="round"/>'
            f'<text x="{_fmt(digit_at[0])}" y="{_fmt(digit_at[1])}" font-size="8.5" '
            f'font-weight="700" fill="{seat_ink(seat)}">{seat_marker(seat)}</text></g>')
    return f'<g class="hl-buildings">{"".join(parts)}</g>'


def _robber(geo: Geometry, view: Mapping) -> str:
    h = _int(view.get("robber"))
    if h not in geo.hexes:
        return ""
    cx, cy = geo.hexes[h]
    has_token = _number(_hex_info(view).get(h, {}).get("number")) is not None
    # beside the number disc, so the number it blocks stays readable
    x, y = (cx - 23, cy + 2) if has_token else (cx, cy)
    title = escape(pgettext("hexland piece", "robber"))  # outside the f-string: xgettext finds it there
    return (f'<g class="hl-robber" data-hex="{h}" transform="translate({_fmt(x)} {_fmt(y)})">'
            f"<title>{title}</title>"
            f'<path d="M-6 10 C-7 4 -5 0 -3.2 -2.5 A5 5 0 1 1 3.2 -2.5 C5 0 7 4 6 10 Z" '
            f'fill="#2b2b30" stroke="#f8efd8" stroke-width="1.3"/></g>')


# --- the board ---------------------------------------------------------------------------------

def board_svg(view: Mapping, *, interactive: bool = False, targets: Mapping | None = None,
              label: str = "") -> SafeString:
    """The whole board as ``view`` shows it. With ``interactive``, each place the seat may
    click (``targets``, by default ``click_targets(view)``) is a focusable button carrying
    its move as JSON in ``data-move``."""
    geo = Geometry(view.get("topology") or {})
    body = _island(geo, view) + _pieces(geo, view, interactive, targets)
    return _svg(geo, "hl-board", interactive, label or _("Hexland board"), body)


def island_svg(view: Mapping, *, label: str = "") -> SafeString:
    """What stays as it is for a whole game: the sea, the hexes with their numbers and the
    harbours. The live page draws it once and lays ``pieces_svg`` over it (same viewBox)."""
    geo = Geometry(view.get("topology") or {})
    return _svg(geo, "hl-board hl-island", False, label or _("Hexland island"), _island(geo, view))


def pieces_svg(view: Mapping, *, interactive: bool = False, targets: Mapping | None = None,
               label: str = "") -> SafeString:
    """What a game changes, to lay over ``island_svg``: the roads, buildings and robber, and
    with ``interactive`` the seat's places to click (as ``board_svg``'s)."""
    geo = Geometry(view.get("topology") or {})
    body = _pieces(geo, view, interactive, targets)
    return _svg(geo, "hl-board hl-pieces", interactive, label or _("Pieces on the island"), body)


def _island(geo: Geometry, view: Mapping) -> list[str]:
    return [pattern_defs(), _sea(geo), _land(geo, view), _harbours(geo, view)]


def _pieces(geo: Geometry, view: Mapping, interactive: bool, targets: Mapping | None) -> list[str]:
    body = [_roads(geo, view), _buildings(geo, view), _robber(geo, view)]
    if interactive:
        body.append(_targets(geo, view, targets if targets is not None else _click_targets(view, geo)))
    return body


def _svg(geo: Geometry, css: str, interactive: bool, label: str, body: list[str]) -> SafeString:
    """An interactive drawing is a group of buttons; a plain one an image."""
    css = f"{css} hl-interactive" if interactive else css
    return mark_safe(
        f'<svg class="{css}" xmlns="http://www.w3.org/2000/svg" viewBox="{geo.view_box()}" '
        f'role="{"group" if interactive else "img"}" aria-label="{escape(label)}" {_TEXT}>'
        f"<title>{escape(label)}</title>{''.join(body)}</svg>")


def describe_dice(dice: Iterable | None) -> str:
    values = [_int(d, 0) for d in dice or []]
    if len(values) != 2:
        return _("not rolled yet")
    return f"{values[0]} + {values[1]} = {sum(values)}"


__all__ = ["board_svg", "island_svg", "pieces_svg", "click_targets", "move_label", "node_text", "edge_text", "hex_text",
           "seat_colour", "seat_ink", "seat_marker", "seat_dash", "PLAYER_COLOURS",
           "PLAYER_COLOUR_NAMES", "BOARD_MOVES", "pattern_defs", "Geometry", "describe_dice"]
