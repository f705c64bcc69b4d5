"""SVG pictures of a Hextremadura map and its tiles (rules: shared/rules/hextremadura.md).

Pure functions from the engine's view (``docs/hextremadura.md``, "View") to SVG markup. Every
value read from the view is escaped, or checked against a fixed list of names, before it is
written; only markup built that way is marked safe. The engine's words (terrains, icons, faces,
objectives) are written in the site's words, in the active language (``words``).

Geometry: pointy-topped hexagons at axial (q, r), y growing downward. Side i faces direction i
(0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE, counter-clockwise on screen); space i is the triangle between
the centre and side i.
"""
from __future__ import annotations

from math import cos, radians, sin, sqrt
from typing import Iterable, Mapping

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.hextremadura import words
from games.hextremadura.engine.tiles import TILES

R = 40.0  # circumradius of a hex
APOTHEM = R * sqrt(3) / 2
MARGIN = 12.0

KINDS = ("forest", "water", "crops")
KIND_FILL = {"forest": "#3f7d3a", "water": "#3b82c4", "crops": "#e2b53f"}
ICONS = ("acorn", "stork", "monument")
ICON_FILL = {"acorn": "#7a4a1f", "stork": "#ffffff", "monument": "#6b6b6b"}
ICON_INK = {"acorn": "#ffffff", "stork": "#1f2430", "monument": "#ffffff"}
INK, MET, UNMET, LEGAL = "#1f2430", "#276749", "#9b2c2c", "#2f6f4f"
_TEXT = 'font-family="system-ui, sans-serif" text-anchor="middle"'


def _fmt(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") or "0"


def centre(q: int, r: int) -> tuple[float, float]:
    """Pixel centre of the hex at axial (q, r)."""
    return sqrt(3) * R * (q + r / 2), 1.5 * R * r


def _polar(angle_deg: float, dist: float) -> tuple[float, float]:
    # Screen y grows downward, so counter-clockwise angles are negative.
    return dist * cos(radians(-angle_deg)), dist * sin(radians(-angle_deg))


CORNERS = tuple(_polar(60 * i - 30, R) for i in range(6))  # corner i lies between sides i-1 and i
HEX_POINTS = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in CORNERS)


def side_point(side: int, fraction: float) -> tuple[float, float]:
    """A point on the way from the centre to the middle of ``side``."""
    return _polar(60 * side, APOTHEM * fraction)


def _space_points(i: int) -> str:
    a, b = CORNERS[i], CORNERS[(i + 1) % 6]
    return f"0,0 {_fmt(a[0])},{_fmt(a[1])} {_fmt(b[0])},{_fmt(b[1])}"


SPACE_POINTS = tuple(_space_points(i) for i in range(6))


def _kind(value) -> str:
    """A terrain kind from the view, or "water" for anything unknown (never written raw)."""
    return value if value in KIND_FILL else "water"


def _int(value, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


# --- patterns: colour is never the only cue -------------------------------------------------------

def pattern_defs() -> SafeString:
    """One hidden SVG holding the terrain patterns every picture on the page refers to (one
    copy per page keeps element ids unique)."""
    return mark_safe(
        '<svg class="hxt-defs" width="0" height="0" aria-hidden="true" focusable="false" '
        '><defs>'
        '<pattern id="hxt-pat-forest" width="10" height="10" patternUnits="userSpaceOnUse">'
        '<path d="M5 2 L8 8 L2 8 Z" fill="#ffffff" fill-opacity=".35"/></pattern>'
        '<pattern id="hxt-pat-water" width="12" height="8" patternUnits="userSpaceOnUse">'
        '<path d="M0 5 Q3 2 6 5 T12 5" fill="none" stroke="#ffffff" stroke-opacity=".5" stroke-width="1.2"/></pattern>'
        '<pattern id="hxt-pat-crops" width="7" height="7" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<line x1="0" y1="0" x2="0" y2="7" stroke="#7a5a10" stroke-opacity=".45" stroke-width="1.6"/></pattern>'
        "</defs></svg>"
    )


# --- one tile, centred on (0, 0) -------------------------------------------------------------------

def _spaces(spaces: list) -> str:
    parts = []
    for i, raw in enumerate((spaces or [])[:6]):
        kind = _kind(raw)
        parts.append(
            f'<g class="hxt-space hxt-{kind}" data-space="{i}" data-kind="{kind}">'
            f'<polygon points="{SPACE_POINTS[i]}" fill="{KIND_FILL[kind]}"/>'
            f'<polygon points="{SPACE_POINTS[i]}" fill="url(#hxt-pat-{kind})"/></g>'
        )
    return "".join(parts)


def _upright(x: float, y: float, rotation: int) -> str:
    """Place a label at (x, y) so that it still reads upright inside a group turned by
    ``rotation`` steps (the JS preview turns the group and sets this counter-turn again)."""
    return f'transform="translate({_fmt(x)} {_fmt(y)}) rotate({60 * rotation})"'


def requirement_text(req: Mapping) -> str:
    kind = _kind(req.get("kind"))
    side = _int(req.get("side")) % 6
    text = words.requirement_phrase(kind, _int(req.get("n")), side)
    if "met" not in req:
        return text
    if req.get("met"):
        # Translators: a requirement of a tile on the map, as in "needs 6 forest at side 1 (NE): met".
        return _("%(requirement)s: met") % {"requirement": text}
    return _("%(requirement)s: not met (largest %(reach)s)") % {"requirement": text, "reach": _int(req.get("reach"))}


def _bubble(req: Mapping, rotation: int = 0) -> str:
    """A requirement bubble near the side it points to: kind letter and number, ringed in the
    kind's colour; on the map a badge says met (tick) or not met (cross)."""
    kind, n, side = _kind(req.get("kind")), _int(req.get("n")), _int(req.get("side")) % 6
    x, y = side_point(side, 0.6)
    css, status, badge = "hxt-req", "", ""
    if "met" in req:  # only bubbles on the map carry a status; a tile alone has none
        met = bool(req.get("met"))
        css += " hxt-met" if met else " hxt-unmet"
        status = f' data-met="{"true" if met else "false"}"'
        badge = (
            f'<circle cx="9" cy="-8" r="6" fill="{MET if met else UNMET}" stroke="#fff"/>'
            f'<text x="9" y="-5" font-size="9" font-weight="700" fill="#fff">{"✓" if met else "✗"}</text>'
        )
    return (
        f'<g class="{css}" data-kind="{kind}" data-n="{n}" data-side="{side}"{status} {_upright(x, y, rotation)}>'
        f"<title>{escape(requirement_text(req))}</title>"
        f'<circle r="10.5" fill="#fff" stroke="{KIND_FILL[kind]}" stroke-width="3"/>'
        f'<text y="3.5" font-size="10" font-weight="700" fill="{INK}">{escape(words.kind_letter(kind))}{n}</text>{badge}</g>'
    )


def _icon(entry: Mapping, rotation: int = 0) -> str:
    icon = entry.get("icon") if entry.get("icon") in ICONS else None
    if icon is None:
        return ""
    space = _int(entry.get("space")) % 6
    x, y = _polar(60 * space, APOTHEM * 0.62)
    return (
        f'<g class="hxt-icon hxt-icon-{icon}" data-icon="{icon}" data-space="{space}" {_upright(x, y, rotation)}>'
        f"<title>{escape(words.icon_name(icon))}</title>"
        f'<circle r="8" fill="{ICON_FILL[icon]}" stroke="{INK}" stroke-width="1"/>'
        f'<text y="3.5" font-size="9.5" font-weight="700" fill="{ICON_INK[icon]}">{escape(words.icon_letter(icon))}</text></g>'
    )


def objective_text(objective: Mapping) -> str:
    text = words.objective_phrase(objective)
    if "met" not in objective:
        return text
    if objective.get("met"):
        return _("%(objective)s: met") % {"objective": text}
    return _("%(objective)s: not met yet") % {"objective": text}


def _objective_marker(objective: Mapping | None, rotation: int = 0) -> str:
    """A small centre disc: a star when met, a hollow ring when not (and the text as title)."""
    if not isinstance(objective, Mapping):
        return ""
    met = objective.get("met")
    if met is None:
        fill, mark, data = "#fff", "?", ""
    else:
        fill, mark = ("#f0b429", "★") if met else ("#fff", "○")
        data = f' data-met="{"true" if met else "false"}"'
    return (
        f'<g class="hxt-objective"{data} {_upright(0, 0, rotation)}><title>{escape(objective_text(objective))}</title>'
        f'<circle r="7.5" fill="{fill}" stroke="{INK}" stroke-width="1"/>'
        f'<text y="3.5" font-size="9" fill="{INK}">{mark}</text></g>'
    )


def tile_body(face: Mapping, rotation: int = 0) -> str:
    """The inside of one tile: spaces, then bubbles or icons and objective marker. ``face`` holds
    spaces and sides as they lie (already turned by the engine); ``rotation`` only keeps labels
    upright inside a group the caller turns."""
    parts = [_spaces(face.get("spaces") or [])]
    parts.extend(_bubble(req, rotation) for req in face.get("requirements") or [] if isinstance(req, Mapping))
    parts.extend(_icon(icon, rotation) for icon in face.get("icons") or [] if isinstance(icon, Mapping))
    parts.append(_objective_marker(face.get("objective"), rotation))
    parts.append(f'<polygon class="hxt-outline" points="{HEX_POINTS}" fill="none" stroke="{INK}" stroke-width="1.2"/>')
    return "".join(parts)


def describe_face(tile: str, face: Mapping) -> str:
    """A readable account of one face, for titles and screen readers."""
    kinds = [words.kind_letter(_kind(k)) for k in face.get("spaces") or []]
    name = face.get("face")
    # Translators: a tile and the face it shows, as in "T1 (front)" or "R2 (a)".
    parts = [_("%(tile)s (%(face)s)") % {"tile": tile, "face": words.face_name(name)} if name else str(tile),
             # Translators: a face's six spaces by their terrains' letters, as in "spaces FFWWCC".
             _("spaces %(letters)s") % {"letters": "".join(kinds)}]
    parts += [requirement_text(req) for req in face.get("requirements") or [] if isinstance(req, Mapping)]
    icons = [words.icon_name(icon.get("icon")) for icon in face.get("icons") or [] if isinstance(icon, Mapping)]
    if icons:
        parts.append(_("icons %(icons)s") % {"icons": ", ".join(icons)})
    if isinstance(face.get("objective"), Mapping):
        parts.append(_("objective: %(objective)s") % {"objective": objective_text(face["objective"])})
    return "; ".join(parts)


def tile_svg(entry: Mapping, face: str | None = None, rotation: int = 0, size: int = 96) -> SafeString:
    """One tile alone (an ``available`` or ``explored`` entry of the view), showing ``face`` (the
    face it shows by default) turned by ``rotation`` steps."""
    faces = entry.get("faces") or {}
    face = face if face in faces else entry.get("face")
    data = faces.get(face) or next(iter(faces.values()), {})
    rotation = _int(rotation) % 6
    tile = str(entry.get("tile", ""))
    size = max(16, _int(size, 96))
    box = f"{_fmt(-R - 2)} {_fmt(-R - 2)} {_fmt(2 * R + 4)} {_fmt(2 * R + 4)}"
    return mark_safe(
        f'<svg class="hxt-tile-svg" xmlns="http://www.w3.org/2000/svg" viewBox="{box}" width="{size}" height="{size}" '
        f'role="img" data-tile="{escape(tile)}" data-face="{escape(face or "")}" data-rotation="{rotation}" {_TEXT}>'
        f"<title>{escape(describe_face(tile, data))}</title>"
        f'<g class="hxt-turn" transform="rotate({-60 * rotation})">{tile_body(data, rotation)}</g></svg>'
    )


# --- the map ---------------------------------------------------------------------------------------

def _translate(q: int, r: int) -> str:
    x, y = centre(q, r)
    return f'transform="translate({_fmt(x)} {_fmt(y)})"'


def _placed(tile: Mapping) -> str:
    q, r = _int(tile.get("q")), _int(tile.get("r"))
    name = escape(str(tile.get("tile", "")))
    face = escape(str(tile.get("face", "")))
    caption = escape(f"({q}, {r}): " + describe_face(str(tile.get("tile", "")), tile))
    return (
        f'<g class="hxt-tile hxt-face-{face}" data-tile="{name}" data-q="{q}" data-r="{r}" data-face="{face}" '
        f'{_translate(q, r)}><title>{caption}</title>{tile_body(tile)}</g>'
    )


def _legal(q: int, r: int) -> str:
    # Translators: keep "%(q)s, %(r)s" together as it is: the cell shows these words and a voice control user says them.
    label = escape(_("Place the tile at %(q)s, %(r)s") % {"q": q, "r": r})
    return (
        f'<g class="hxt-cell hxt-legal" data-q="{q}" data-r="{r}" role="button" tabindex="0" '
        f'aria-label="{label}" {_translate(q, r)}>'
        f'<polygon points="{HEX_POINTS}" fill="#eef6f1" stroke="{LEGAL}" stroke-width="2" stroke-dasharray="5 3"/>'
        f'<text y="4" font-size="11" fill="{LEGAL}">{q}, {r}</text></g>'  # the name's words (WCAG 2.5.3)
    )


def legal_cells(view: Mapping) -> list[tuple[int, int]]:
    cells = []
    for cell in view.get("legal_cells") or []:
        try:
            q, r = cell
            cells.append((int(q), int(r)))
        except (TypeError, ValueError):
            continue
    return cells


def view_box(cells: Iterable[tuple[int, int]]) -> str:
    """Fitted to the cells drawn, plus a margin; one hex around the origin on an empty map."""
    points = [centre(q, r) for q, r in cells] or [(0.0, 0.0)]
    reach = R + MARGIN
    left = min(x for x, _ in points) - reach
    top = min(y for _, y in points) - reach
    width = max(x for x, _ in points) + reach - left
    height = max(y for _, y in points) + reach - top
    return " ".join(_fmt(v) for v in (left, top, width, height))


def map_svg(view: Mapping, *, interactive: bool = False, label: str = "") -> SafeString:
    """The map: every placed tile, and (when ``interactive``) the legal cells as buttons."""
    label = label or _("Hextremadura map")
    tiles = [t for t in view.get("map") or [] if isinstance(t, Mapping)]
    legal = legal_cells(view) if interactive else []
    cells = [(_int(t.get("q")), _int(t.get("r"))) for t in tiles] + legal
    css = "hxt-map hxt-interactive" if interactive else "hxt-map"
    body = "".join(_placed(t) for t in tiles) + "".join(_legal(q, r) for q, r in legal)
    return mark_safe(
        f'<svg class="{css}" xmlns="http://www.w3.org/2000/svg" viewBox="{view_box(cells)}" '
        f'role="{"group" if interactive else "img"}" aria-label="{escape(label)}" {_TEXT}>'
        f"<title>{escape(label)}</title>"
        f'<g class="hxt-viewport">{body}</g></svg>'
    )


def pile_svg(entries: Iterable[Mapping], size: int = 40) -> SafeString:
    """The explored pile, small, first explored first."""
    return mark_safe("".join(tile_svg(entry, rotation=0, size=size) for entry in entries if isinstance(entry, Mapping)))


def removed_svg(removed: Mapping, size: int = 80) -> SafeString:
    """A tile the last placement removed, drawn as it lay on the map (for its flight to the
    explored pile). The view gives only its name, face and rotation, so the face comes from the
    engine's tile set."""
    tile = TILES.get(str(removed.get("tile", "")))
    face = tile.faces.get(str(removed.get("face", ""))) if tile else None
    if face is None:
        return mark_safe("")
    rotation = _int(removed.get("rotation")) % 6
    entry = {"tile": tile.id, "face": face.name, "faces": {face.name: face.to_json(rotation)}}
    return tile_svg(entry, face.name, 0, size)
