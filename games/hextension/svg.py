"""SVG pictures of Hextension boards, evaluation diagrams and tiles (rules: shared/rules/hextension.md).

Pure functions from view data (``rules.view``) to SVG markup. Every value taken from the view is
either checked against the engine's fixed names (cells, tiles) or escaped before it is written.
The geometry is computed once at import, and the drawing of a tile is cached, so a page with a
hundred diagrams stays cheap. Drawings holding words are cached per language (``_language``).
"""
from __future__ import annotations

from functools import lru_cache
from math import sqrt
from typing import Iterable, Mapping

from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.hextension.engine.board import AXIAL, CELLS, DIRECTIONS, LINES, TILE_SET

# --- geometry (computed once) ----------------------------------------------------------------

R = 30.0  # circumradius of a cell
APOTHEM = R * sqrt(3) / 2
_COS30 = sqrt(3) / 2


def _fmt(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _language() -> str:
    """The active language: part of the key of every cached drawing that holds words."""
    return translation.get_language() or ""


def _centre(q: int, r: int) -> tuple[float, float]:
    """Pixel centre of a flat-topped hex at axial (q, r), r growing downward."""
    return 1.5 * R * q, sqrt(3) * R * (r + q / 2)


CENTRES: dict[str, tuple[float, float]] = {cell: _centre(*AXIAL[cell]) for cell in CELLS}
_CORNERS = ((R, 0), (R / 2, APOTHEM), (-R / 2, APOTHEM), (-R, 0), (-R / 2, -APOTHEM), (R / 2, -APOTHEM))
HEX_POINTS = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in _CORNERS)

# Each direction's band runs between two opposite edge midpoints; its number sits near one end
# (| at the top, / at the lower left, \ at the lower right) so the three numbers never overlap.
_BAND_ENDS = (
    ((0.0, -APOTHEM), (0.0, APOTHEM)),
    ((-_COS30 * APOTHEM, APOTHEM / 2), (_COS30 * APOTHEM, -APOTHEM / 2)),
    ((-_COS30 * APOTHEM, -APOTHEM / 2), (_COS30 * APOTHEM, APOTHEM / 2)),
)
_NUMBER_AT = tuple((x * 0.6, y * 0.6) for x, y in (_BAND_ENDS[0][0], _BAND_ENDS[1][0], _BAND_ENDS[2][1]))
BAND_WIDTH = 8
NUMBER_RADIUS = 8.5
NUMBER_FONT = 12.5

# The traditional colour of each value; the number is always printed too.
VALUE_COLOURS = {
    1: "#9a9a9a", 2: "#f3a6bd", 3: "#d9559b", 4: "#5fb0e6", 5: "#1fa89a",
    6: "#e0392e", 7: "#4caf50", 8: "#f08a24", 9: "#f2c500",
}
CELL_FILL = {"empty": "#ffffff", "placed": "#cdcdcd", "latest": "#8c8c8c", "pending": "#eef6f1"}
INK, MUTED, LINE_COLOUR, ACCENT = "#1f2430", "#5b6475", "#d9d6cf", "#2f6f4f"
SCORING_FILL, DEAD_FILL = "#bfe0cc", "#1f2430"

# Where each line's diagram marker stands: a step beyond the line's end, outside the board.
# | lines: below the bottom cell; / lines: beyond the upper-right cell; \ lines: beyond the
# upper-left cell. These fifteen places are all distinct.
_MARKER_STEP = 0.85
_STEPS = (_centre(0, 1), _centre(1, -1), _centre(-1, 0))
MARKER_RADIUS = 11
DEAD_RADIUS = 7.5


def _marker_position(line) -> tuple[float, float]:
    end = line.cells[0] if line.direction == 2 else line.cells[-1]
    x, y = CENTRES[end]
    dx, dy = _STEPS[line.direction]
    return x + _MARKER_STEP * dx, y + _MARKER_STEP * dy


MARKERS: tuple[tuple[float, float], ...] = tuple(_marker_position(line) for line in LINES)


def _view_box(points: Iterable[tuple[float, float]], reach: float) -> str:
    points = list(points)
    left = min(x for x, _ in points) - reach
    top = min(y for _, y in points) - reach
    width = max(x for x, _ in points) + reach - left
    height = max(y for _, y in points) + reach - top
    return " ".join(_fmt(v) for v in (left, top, width, height))


BOARD_VIEW_BOX = _view_box(CENTRES.values(), R + 2)
DIAGRAM_VIEW_BOX = _view_box([*CENTRES.values(), *MARKERS], R + 2)
TILE_VIEW_BOX = f"{_fmt(-R - 2)} {_fmt(-APOTHEM - 2)} {_fmt(2 * R + 4)} {_fmt(2 * APOTHEM + 4)}"
_SVG_TEXT = f'font-family="system-ui, sans-serif" text-anchor="middle" fill="{INK}"'

# --- one tile ----------------------------------------------------------------------------------


def _band(a: tuple[float, float], b: tuple[float, float], colour: str) -> str:
    return f'<line x1="{_fmt(a[0])}" y1="{_fmt(a[1])}" x2="{_fmt(b[0])}" y2="{_fmt(b[1])}" stroke="{colour}"/>'


def _number_disc(at: tuple[float, float]) -> str:
    return f'<circle cx="{_fmt(at[0])}" cy="{_fmt(at[1])}" r="{NUMBER_RADIUS}"/>'


def _number_text(at: tuple[float, float], value: int) -> str:
    # y is lowered by a third of the font size to centre the digit: dy is not inherited, so
    # the offset is baked in rather than repeated on every <text>.
    return f'<text x="{_fmt(at[0])}" y="{_fmt(at[1] + NUMBER_FONT * 0.35)}">{value}</text>'


def describe_tile(tile: str) -> str:
    """A readable name of the tile for titles and labels: "tile 174 (| 1, / 7, \\ 4)"."""
    return _described(tile, translation.get_language())


@lru_cache(maxsize=4096)
def _described(tile: str, language: str | None) -> str:
    """``describe_tile`` once per tile and language (every board's words and labels name its
    tiles: a 100-seat round's close named 1,500 of them)."""
    if tile not in TILE_SET:
        return _("tile %(tile)s") % {"tile": tile}
    values = ", ".join(f"{DIRECTIONS[d]} {tile[d]}" for d in range(3))
    # Translators: a tile named by its values; "values" is its three directions and values, "| 1, / 7, \ 4".
    return _("tile %(tile)s (%(values)s)") % {"tile": tile, "values": values}


@lru_cache(maxsize=4096)
def tile_marks(tile: str) -> str:
    """The tile's three bands and numbers, centred on (0, 0), as trusted markup: a reference to
    the page's sprite (``tile_sprite``), so that a board or a push names each tile in a few
    dozen bytes instead of drawing its bands and numbers again (a 100-seat round's close sent
    every socket some thirty tiles' drawings)."""
    if tile not in TILE_SET:
        return f'<text dy=".35em" font-size="11">{escape(tile)}</text>'
    return f'<use class="hx-marks" href="#{_sprite_id(tile)}"/>'


def _sprite_id(tile: str) -> str:
    return f"hx-tile-marks-{tile}"


@lru_cache(maxsize=64)
def drawn_tile_marks(tile: str) -> str:
    """The tile's bands and numbers themselves (the sprite's entries, and drawings that must
    stand alone)."""
    values = [int(ch) for ch in tile]
    # The | band is drawn last: it is the one the eye follows down a column.
    bands = "".join(_band(*_BAND_ENDS[d], VALUE_COLOURS[values[d]]) for d in (2, 1, 0))
    discs = "".join(_number_disc(_NUMBER_AT[d]) for d in range(3))
    numbers = "".join(_number_text(_NUMBER_AT[d], values[d]) for d in range(3))
    # Shared attributes sit on the groups: a page may carry a hundred diagrams of 19 tiles.
    return (
        f'<g class="hx-marks"><g stroke-width="{BAND_WIDTH}">{bands}</g>'
        f'<g fill="#fff" stroke="{INK}" stroke-width=".6">{discs}</g>'
        f'<g font-size="{NUMBER_FONT}" font-weight="700">{numbers}</g></g>'
    )


@lru_cache(maxsize=1)
def tile_sprite() -> SafeString:
    """Every tile's marks, once in a page that shows tiles (outside its live regions): each
    tile drawn elsewhere on the page uses its entry. All 27 tiles, whatever the game has drawn,
    so the sprite says nothing of the deck. Its text and colours inherit from each drawing that
    uses it, as the marks drawn in place did."""
    entries = "".join(
        drawn_tile_marks(tile).replace('<g class="hx-marks">', f'<g id="{_sprite_id(tile)}">', 1)
        for tile in sorted(TILE_SET))
    return mark_safe(
        '<svg class="hx-sprite" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false" '
        f'width="0" height="0"><defs>{entries}</defs></svg>'
    )


def _hex(fill: str, outline: str = f'stroke="{LINE_COLOUR}" stroke-width="1.5"') -> str:
    return f'<polygon class="hx-hex" points="{HEX_POINTS}" fill="{fill}" {outline}/>'


def tile_svg(tile: str, size: int = 64) -> SafeString:
    """One tile alone, ``size`` pixels wide."""
    size = int(size)
    name = escape(describe_tile(tile))
    return mark_safe(
        f'<svg class="hx-tile-svg" xmlns="http://www.w3.org/2000/svg" viewBox="{TILE_VIEW_BOX}" '
        f'width="{size}" height="{round(size * (APOTHEM + 2) / (R + 2))}" role="img" {_SVG_TEXT}>'
        f'<title>{name}</title>{_hex(CELL_FILL["placed"])}{tile_marks(tile)}</svg>'
    )


# --- boards ----------------------------------------------------------------------------------

_PENDING_OUTLINE = f'stroke="{ACCENT}" stroke-width="2.5" stroke-dasharray="5 3"'


def _translate(cell: str) -> str:
    x, y = CENTRES[cell]
    return f'transform="translate({_fmt(x)} {_fmt(y)})"'


def _filled_cell(cell: str, tile: str, state: str, interactive: bool, detailed: bool = True) -> str:
    """A cell holding a tile: "placed", "latest" (placed in the latest round) or "pending".
    Only a ``detailed`` cell carries a title: diagrams stay small."""
    return _drawn_filled_cell(cell, tile, state, interactive, detailed, _language())


@lru_cache(maxsize=4096)
def _drawn_filled_cell(cell: str, tile: str, state: str, interactive: bool, detailed: bool, language: str) -> str:
    values = {"cell": cell, "tile": describe_tile(tile)}
    if state == "pending":
        caption = _("Cell %(cell)s, %(tile)s, your placement this round (not final yet)") % values
    elif state == "latest":
        caption = _("Cell %(cell)s, %(tile)s, placed in the latest round") % values
    else:
        caption = _("Cell %(cell)s, %(tile)s") % values
    caption = escape(caption)
    shape = _hex(CELL_FILL[state], _PENDING_OUTLINE) if state == "pending" else _hex(CELL_FILL[state])
    title = f"<title>{caption}</title>" if detailed else ""
    handle = name = ""
    if interactive and state == "pending":
        # A planned tile may still be moved, so its cell stays a button like an empty one, and
        # keeps its (hidden) name for when the script empties it again.
        handle = _button_attrs(cell, caption)
        name = _cell_name(cell, visible=False)
    return (
        f'<g class="hx-cell hx-{state}" data-state="{state}" {_translate(cell)}{handle}>'
        f"{title}{shape}{name}{tile_marks(tile)}</g>"
    )


def _cell_name(cell: str, visible: bool = True) -> str:
    hidden = "" if visible else ' visibility="hidden"'
    return f'<text class="hx-name" dy=".35em" font-size="12" fill="{MUTED}"{hidden}>{cell}</text>'


def _button_attrs(cell: str, caption: str) -> str:
    return f' data-cell="{cell}" role="button" tabindex="0" aria-label="{caption}"'


def _empty_cell(cell: str, interactive: bool, detailed: bool) -> str:
    return _drawn_empty_cell(cell, interactive, detailed, _language())


@lru_cache(maxsize=4096)
def _drawn_empty_cell(cell: str, interactive: bool, detailed: bool, language: str) -> str:
    handle = _button_attrs(cell, escape(_("Cell %(cell)s, empty") % {"cell": cell})) if interactive else ""
    name = _cell_name(cell) if detailed else ""
    return (
        f'<g class="hx-cell hx-empty" data-state="empty" {_translate(cell)}{handle}>'
        f'{_hex(CELL_FILL["empty"])}{name}</g>'
    )


def _cells(seat_view: Mapping, pending: Mapping | None, interactive: bool, detailed: bool) -> str:
    """Every cell; ``detailed`` adds the empty cells' names and every filled cell's title."""
    board = seat_view.get("board") or {}
    latest = set(seat_view.get("last_placed") or ())
    planned = {cell: tile for tile, cell in (pending or {}).items() if isinstance(cell, str)}
    parts = []
    for cell in CELLS:
        tile = board.get(cell)
        if tile is not None:
            state = "latest" if cell in latest else "placed"
            parts.append(_filled_cell(cell, str(tile), state, False, detailed))
        elif cell in planned:
            parts.append(_filled_cell(cell, str(planned[cell]), "pending", interactive))
        else:
            parts.append(_empty_cell(cell, interactive, detailed))
    return "".join(parts)


def _svg_open(css_class: str, view_box: str, role: str, label: str) -> str:
    return (
        f'<svg class="{css_class}" xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}" '
        f'role="{role}" {_SVG_TEXT}><title>{escape(label)}</title>'
    )


def board_svg(
    seat_view: Mapping, *, pending: Mapping | None = None, interactive: bool = False, label: str = ""
) -> SafeString:
    """One player's board: placed tiles (the latest round's darker), ``pending`` (tile -> cell, the
    viewer's own submission of the open round) as a dashed preview, empty cells named. When
    ``interactive``, empty and planned cells are keyboard-focusable buttons carrying ``data-cell``."""
    label = label or _("Hextension board")
    css_class = "hx-board hx-interactive" if interactive else "hx-board"
    head = _svg_open(css_class, BOARD_VIEW_BOX, "group" if interactive else "img", label)
    return mark_safe(head + _cells(seat_view, pending, interactive, detailed=True) + "</svg>")


# --- evaluation diagram ------------------------------------------------------------------------


def _values_text(values: list) -> str:
    words = [str(int(v)) for v in values]
    if len(words) == 1:
        return words[0]
    # Translators: the last two of the values a line can still score, as in "3, 4 or 8".
    return _("%(first)s or %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


def _marker(index: int, status: str, value: int | None, values: tuple[int, ...]) -> str:
    return _drawn_marker(index, status, value, values, _language())


@lru_cache(maxsize=4096)
def _drawn_marker(index: int, status: str, value: int | None, values: tuple[int, ...], language: str) -> str:
    line = LINES[index]
    x, y = (_fmt(v) for v in MARKERS[index])
    # Translators: a line of the board by its direction (|, / or \) and its cells, as in "| line A1 A2 A3".
    name = _("%(direction)s line %(cells)s") % {"direction": line.symbol, "cells": " ".join(line.cells)}
    if status == "scoring":
        title = _("%(line)s: full, scores %(points)s") % {"line": name, "points": value * len(line.cells)}
        body = (
            f'<circle cx="{x}" cy="{y}" r="{MARKER_RADIUS}" fill="{SCORING_FILL}" stroke="{ACCENT}"/>'
            f'<text x="{x}" y="{y}" dy=".35em" font-size="14" font-weight="700">{value}</text>'
        )
    elif status == "dead":
        title = _("%(line)s: can no longer score") % {"line": name}
        body = f'<circle cx="{x}" cy="{y}" r="{DEAD_RADIUS}" fill="{DEAD_FILL}"/>'
    elif value is not None:
        title = _("%(line)s: can still score %(value)s (%(points)s points)") % {
            "line": name, "value": value, "points": value * len(line.cells)}
        body = f'<text x="{x}" y="{y}" dy=".35em" font-size="14" font-weight="700">{value}</text>'
    else:
        # An empty line could still take any of several values: a small dot marks its end and
        # the title lists them, rather than crowding three numbers into a small diagram.
        title = _("%(line)s: empty, can still score %(values)s") % {"line": name, "values": _values_text(values)}
        body = f'<circle cx="{x}" cy="{y}" r="2.5" fill="{MUTED}"/>'
    return (
        f'<g class="hx-line-end hx-line-{status}" data-line="{index}" data-status="{status}">'
        f"<title>{escape(title)}</title>{body}</g>"
    )


def _markers(lines: list) -> str:
    parts = []
    for index, entry in enumerate(lines[: len(LINES)]):
        status = entry.get("status")
        if status not in ("open", "scoring", "dead"):
            continue
        value = entry.get("value")
        value = int(value) if value is not None else None
        parts.append(_marker(index, status, value, tuple(int(v) for v in entry.get("values") or ())))
    return "".join(parts)


def diagram_svg(seat_view: Mapping, *, label: str = "") -> SafeString:
    """The evaluation diagram of one board: the board plus, at the end of each line, the value
    it can still score, a shaded number when it is full and scores, a dark circle when dead."""
    label = label or _("Hextension evaluation diagram")
    head = _svg_open("hx-diagram", DIAGRAM_VIEW_BOX, "img", label)
    body = _cells(seat_view, None, False, detailed=False) + _markers(seat_view.get("lines") or [])
    return mark_safe(head + body + "</svg>")


# --- the diagrams' legend ----------------------------------------------------------------------

_SWATCH_VIEW_BOX = f"{_fmt(-R - 2)} {_fmt(-R - 2)} {_fmt(2 * R + 4)} {_fmt(2 * R + 4)}"


def _swatch(body: str) -> str:
    return (
        f'<svg class="hx-swatch" xmlns="http://www.w3.org/2000/svg" viewBox="{_SWATCH_VIEW_BOX}" '
        f'width="32" height="32" aria-hidden="true" focusable="false" {_SVG_TEXT}>{body}</svg>'
    )


def legend_items() -> list[tuple[SafeString, str]]:
    """What the marks of an evaluation diagram mean (rules, "The evaluation diagram"), each with
    a small drawing made by the same code as the diagrams: (swatch, explanation)."""
    open_mark = f'<text y="0" dy=".35em" font-size="30" font-weight="700">7</text>'
    scoring = (
        f'<circle r="{MARKER_RADIUS * 2}" fill="{SCORING_FILL}" stroke="{ACCENT}" stroke-width="2"/>'
        f'<text dy=".35em" font-size="28" font-weight="700">8</text>'
    )
    return [
        (mark_safe(_swatch(_hex(CELL_FILL["placed"]) + drawn_tile_marks("174"))),
         _("A grey cell holds a tile: its three coloured lines and values (| / \\).")),
        (mark_safe(_swatch(_hex(CELL_FILL["latest"]) + drawn_tile_marks("963"))),
         _("A darker cell holds a tile placed in the latest round.")),
        (mark_safe(_swatch(open_mark)),
         _("A number beyond a line's end: the value that line can still score (value × its length).")),
        (mark_safe(_swatch(f'<circle r="6" fill="{MUTED}"/>')),
         _("A small dot: the line is empty and can still score any of several values.")),
        (mark_safe(_swatch(scoring)),
         _("A shaded number: the line is full of one value and scores it.")),
        (mark_safe(_swatch(f'<circle r="{DEAD_RADIUS * 2}" fill="{DEAD_FILL}"/>')),
         _("A dark circle: the line can no longer score (two values on it, or too few tiles of its value left).")),
    ]


# --- text alternative ------------------------------------------------------------------------


def board_text(seat_view: Mapping, *, pending: Mapping | None = None) -> SafeString:
    """The board in words, for those who do not see the picture (a screen reader, a narrow
    phone): each filled cell with its tile, then how its lines stand. Shown under a board in a
    closed <details>, so the picture and this say the same and colour is never needed."""
    board = seat_view.get("board") or {}
    planned = {cell: tile for tile, cell in (pending or {}).items() if isinstance(cell, str)}
    items = []
    for cell in CELLS:
        if board.get(cell) is not None:
            items.append(f"<li>{cell}: {escape(describe_tile(str(board[cell])))}</li>")
        elif cell in planned:
            planned_text = _("%(tile)s, planned this round") % {"tile": describe_tile(str(planned[cell]))}
            items.append(f"<li>{cell}: {escape(planned_text)}</li>")
    empty = len(CELLS) - len(items)
    lines = [entry for entry in (seat_view.get("lines") or [])[: len(LINES)] if isinstance(entry, Mapping)]
    scoring = [(LINES[i], e) for i, e in enumerate(lines) if e.get("status") == "scoring"]
    dead = sum(1 for e in lines if e.get("status") == "dead")
    still = sum(1 for e in lines if e.get("status") == "open")
    filled = ngettext("%(filled)s cell filled, %(empty)s empty.", "%(filled)s cells filled, %(empty)s empty.",
                      len(items)) % {"filled": len(items), "empty": empty}
    parts = [f"<p>{escape(filled)}</p>"]
    if items:
        parts.append(f'<ul class="hx-board-cells">{"".join(items)}</ul>')
    if lines:
        points = sum(int(e.get("value") or 0) * len(line.cells) for line, e in scoring)
        full = "; ".join(
            # Translators: a full line of the board and its score, as in "| A1 A2 A3 scores 27".
            _("%(direction)s %(cells)s scores %(points)s") % {
                "direction": line.symbol, "cells": " ".join(line.cells), "points": int(e.get("value") or 0) * len(line.cells)}
            for line, e in scoring)
        counts = {"scoring": len(scoring), "points": points, "full": full, "dead": dead, "open": still}
        if full:
            text = _("Lines: %(scoring)s full and scoring (%(points)s points): %(full)s; %(dead)s can no longer score; "
                     "%(open)s still open.") % counts
        else:
            text = _("Lines: %(scoring)s full and scoring (%(points)s points); %(dead)s can no longer score; "
                     "%(open)s still open.") % counts
        parts.append(f"<p>{escape(text)}</p>")
    summary = escape(_("The board in words"))
    return mark_safe(
        f'<details class="hx-board-text"><summary>{summary}</summary>' + "".join(parts) + "</details>"
    )
