"""Template tags for the Hextension game page: the SVG pictures and the page's derived tables."""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.hextension import fragments, svg
from games.hextension.engine.board import CELLS
from games.ranking import competition_ranks

register = template.Library()

# Who has moved and who is awaited are listed by name up to this many; past it, counted.
PROGRESS_NAMES_LISTED = 12
# The standings a round's close pushes to every socket hold the first rows only; past them the
# whole table loads when the viewer opens it, and each seat's own board says its rank. (Every
# row to every socket made a 100-seat round's close cost the square of the seats in bytes.)
STANDINGS_ROWS_PUSHED = 10


@register.simple_tag
def hex_board(seat_view: Mapping, pending: Mapping | None = None, interactive: bool = False, label: str = ""):
    return svg.board_svg(seat_view, pending=pending, interactive=bool(interactive), label=label)


@register.simple_tag
def hex_diagram(seat_view: Mapping, label: str = ""):
    return svg.diagram_svg(seat_view, label=label)


@register.simple_tag
def hex_legend():
    return svg.legend_items()


@register.simple_tag
def hex_board_text(seat_view: Mapping, pending: Mapping | None = None):
    return svg.board_text(seat_view, pending=pending)


@register.simple_tag
def hex_tile(tile: str, size: int = 64):
    return svg.tile_svg(tile, size)


@register.simple_tag
def hex_tile_sprite():
    """Every tile's marks, once per page, outside the live regions (``svg.tile_sprite``)."""
    return svg.tile_sprite()


@register.simple_tag
def hex_diagram_cards(players: Iterable[Mapping], over: bool = False):
    """Every seat's diagram card, each drawn once per content (``fragments``)."""
    return fragments.diagram_cards(players, bool(over))


@register.simple_tag
def hex_standings_rows(players: Iterable[Mapping]):
    return fragments.standings_rows(players)


@register.simple_tag
def hex_result_rows(players: Iterable[Mapping]):
    return fragments.result_rows(players)


@register.simple_tag
def hex_progress_in_board(progress: Mapping, version: int):
    return fragments.progress(progress, version)


@register.simple_tag
def hex_history(rounds: list[Mapping]):
    return fragments.history(rounds)


@register.filter
def hex_tile_name(tile: str) -> str:
    """ "tile 174 (| 1, / 7, \\ 4)" """
    return svg.describe_tile(tile)


# --- the page's data ---------------------------------------------------------------------------


def _names(seats: Iterable[Any]) -> dict[int, str]:
    return {seat.index: seat.label for seat in seats or ()}


def _bots(seats: Iterable[Any]) -> set[int]:
    """The seats a bot account plays (their names carry the BOT badge)."""
    return {seat.index for seat in seats or () if getattr(seat, "user_id", None) and getattr(seat.user, "is_bot", False)}


def _seat_name(index: int) -> str:
    """A seat without a player's name."""
    return _("Seat %(number)s") % {"number": index + 1}


def _diagram_label(name: str, score: int, potential: int | None) -> str:
    """The name of a seat's evaluation diagram (its SVG title)."""
    if potential is None:
        return ngettext("Evaluation diagram of %(name)s: %(score)s point",
                        "Evaluation diagram of %(name)s: %(score)s points", score) % {"name": name, "score": score}
    return ngettext("Evaluation diagram of %(name)s: %(score)s point, at most %(potential)s",
                    "Evaluation diagram of %(name)s: %(score)s points, at most %(potential)s",
                    score) % {"name": name, "score": score, "potential": potential}


def _rank_key(row: Mapping, over: bool) -> tuple:
    """Finished games rank by score as the engine's result does; a running game breaks ties of
    points made by the most each board can still make, so ranks mean something before lines
    complete. Seats that are out go below the rest."""
    return (row["out"], -row["score"]) if over else (row["out"], -row["score"], -row["potential"])


def _ranks(players: list[dict], over: bool) -> None:
    """Rank sorted rows in place: equal keys share a rank."""
    for row, rank in zip(players, competition_ranks([_rank_key(row, over) for row in players])):
        row["rank"] = rank


def _rank_of(view: Mapping, seat: int) -> int:
    """The rank ``player_rows`` gives ``seat``, without making every row: one more than the seats
    ranked strictly before it (equal keys share a rank)."""
    over = bool(view.get("over"))

    def key(seat_view: Mapping) -> tuple:
        return _rank_key({"out": seat_view["out"], "score": seat_view["score"],
                          "potential": seat_view.get("potential", seat_view["score"])}, over)

    own = key(view["seats"][seat])
    return 1 + sum(1 for seat_view in view["seats"] if key(seat_view) < own)


def _analysis_value(analysis: Mapping | None, key: str, seat: int) -> int | None:
    """``analysis[key + "s"][seat]``, or the one figure ``analysis[key]`` shared by every seat
    (all seats place the same tiles, so the hindsight figures may be given once)."""
    if not isinstance(analysis, Mapping):
        return None
    values = analysis.get(f"{key}s")
    if isinstance(values, (list, tuple)):
        return values[seat] if seat < len(values) else None
    return analysis.get(key)


def _line_counts(seat_view: Mapping) -> dict:
    statuses = [line.get("status") for line in seat_view.get("lines") or ()]
    return {status: statuses.count(status) for status in ("scoring", "open", "dead")}


def player_rows(view: Mapping, seats: Iterable[Any], analysis: Mapping | None = None) -> list[dict]:
    """One row per seat, in standings order: by score (while the game runs, then by the most the
    board can still make), seats that are out below the rest."""
    names, bots = _names(seats), _bots(seats)
    over = bool(view.get("over"))
    rows = []
    for seat_view in view.get("seats", []):
        index = seat_view["seat"]
        name = names[index] if index in names else _seat_name(index)
        rows.append({
            "seat": index,
            "name": name,
            "bot": index in bots,
            "score": seat_view["score"],
            "potential": seat_view.get("potential", seat_view["score"]),
            "nmr": seat_view["nmr"],
            "out": seat_view["out"],
            "moved": seat_view["moved"],
            "is_you": index == view.get("seat"),
            "view": seat_view,
            "lines": _line_counts(seat_view),
            "label": _diagram_label(name, seat_view["score"],
                                    None if over else seat_view.get("potential", seat_view["score"])),
            "ai_score": _analysis_value(analysis, "ai_score", index),
            "best_score": _analysis_value(analysis, "best_score", index),
        })
    rows.sort(key=lambda row: (*_rank_key(row, over), row["seat"]))
    _ranks(rows, over)
    return rows


def round_history(view: Mapping) -> list[dict]:
    """The closed rounds and the tiles drawn in each, newest first."""
    per_round = max(1, int(view.get("tiles_per_round") or 1))
    earlier = list(view.get("earlier") or [])
    rounds = [
        {"number": n // per_round + 1, "tiles": earlier[n:n + per_round]} for n in range(0, len(earlier), per_round)
    ]
    return rounds[::-1]


def tile_choices(view: Mapping) -> list[dict]:
    """For each tile drawn this round: its form field and the viewer's empty cells to choose from."""
    seat = view.get("seat")
    if seat is None or view.get("over"):
        return []
    board = view["seats"][seat]["board"]
    pending = view.get("pending") or {}
    empty = [cell for cell in CELLS if cell not in board]
    return [
        {
            "tile": tile,
            "field": f"cell_{tile}",
            "id": f"hx-cell-{tile}",
            "selected": pending.get(tile, ""),
            "cells": empty,
        }
        for tile in view.get("drawn") or []
    ]


def round_progress(view: Mapping, seats: Iterable[Any]) -> dict:
    """Who has moved this round and who is awaited, among the seats still in, in seat order.
    Only names and the ``moved`` flags: nothing of what anyone placed. A list longer than
    ``PROGRESS_NAMES_LISTED`` is shown as a count (every viewer gets this after every submission,
    so a list of all the names would make a round cost the square of the seats in bytes)."""
    names = _names(seats)
    in_game = [seat_view for seat_view in view.get("seats", []) if not seat_view["out"]]
    moved = [names[s["seat"]] if s["seat"] in names else _seat_name(s["seat"]) for s in in_game if s["moved"]]
    waiting = [names[s["seat"]] if s["seat"] in names else _seat_name(s["seat"]) for s in in_game if not s["moved"]]
    return {"moved": moved, "waiting": waiting, "in_game": len(in_game),
            "moved_listed": len(moved) <= PROGRESS_NAMES_LISTED, "waiting_listed": len(waiting) <= PROGRESS_NAMES_LISTED}


@register.simple_tag
def hex_placements(pending: Mapping | None) -> str:
    """The viewer's own placement of the open round in words: "174 on A1, 963 on B2"."""
    # Translators: one tile's place in a list of placements, as in "174 on A1, 963 on B2".
    return ", ".join(_("%(tile)s on %(cell)s") % {"tile": tile, "cell": cell} for tile, cell in (pending or {}).items())


@register.simple_tag
def hex_rounds_drawn(view: Mapping) -> list[dict]:
    """The closed rounds and their tiles (``round_history``), for the region hx-history's body."""
    return round_history(view)


@register.simple_tag
def hex_cell_options(choice: Mapping) -> SafeString:
    """The options of a tile's cell list (``tile_choices``): drawn here, as a template's loop
    over them cost a good part of each seat's region at a round's close."""
    selected = choice.get("selected")
    return mark_safe("".join(
        f'<option value="{cell}"{" selected" if cell == selected else ""}>{cell}</option>' for cell in choice["cells"]))


@register.simple_tag
def hex_round_progress(view: Mapping, seats: Iterable[Any]) -> dict:
    """Who has moved this round (the region hx-progress, drawn after every submission)."""
    return round_progress(view, seats)


@register.simple_tag
def hex_own_page(view: Mapping) -> dict:
    """What the seat's own region (hx-play) derives from the view: its own board and choices,
    without every other seat's row (a round's close draws this once per seat)."""
    seat = view.get("seat")
    own = view["seats"][seat] if seat is not None else None
    me = own and {"view": own, "score": own["score"], "potential": own.get("potential", own["score"]),
                  "out": own["out"]}
    if me and len(view["seats"]) > STANDINGS_ROWS_PUSHED:  # its row may be past the standings' first rows
        me.update(rank=_rank_of(view, seat), ranked=len(view["seats"]))
    return {
        "me": me,
        "can_place": bool(me and not me["out"] and not view.get("over")),
        "submitted": view.get("pending") is not None,
        "choices": tile_choices(view),
    }


@register.simple_tag
def hex_staff_result(game: Any, seats: Iterable[Any]) -> list[dict]:
    """The result staff decided for a game they ended (``Game.result`` with ``staff``): one row
    per seat, by rank; [] for a game the rules ended (its board's figures are the result)."""
    result = getattr(game, "result", None) or {}
    if not result.get("staff"):
        return []
    names = _names(seats)
    rows = [{"seat": index, "name": names.get(index) or _seat_name(index), "score": score, "rank": rank}
            for index, (score, rank) in enumerate(zip(result.get("scores", []), result.get("ranks", [])))]
    return sorted(rows, key=lambda row: (row["rank"], row["seat"]))


@register.simple_tag
def hex_page(view: Mapping, seats: Iterable[Any], analysis: Mapping | None = None) -> dict:
    """Everything the Hextension board template derives from the view, in one place."""
    players = player_rows(view, seats, analysis)
    me = next((row for row in players if row["is_you"]), None)
    return {
        "players": players,
        "standings_first": players[:STANDINGS_ROWS_PUSHED],  # the rows the standings region pushes
        "me": me,
        "can_place": bool(me and not me["out"] and not view.get("over")),
        "submitted": view.get("pending") is not None,
        "progress": round_progress(view, seats),
        "history": round_history(view),
        "choices": tile_choices(view),
        "closed_rounds": bool(view.get("earlier")),
    }
