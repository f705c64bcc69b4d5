"""Template tags for the Hextremadura game page: the SVG pictures and what the page derives
from the view (form choices, the round banner, the score table)."""
from __future__ import annotations

from typing import Any, Mapping

from django import template
from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext as _

from games.hextremadura import svg, words

register = template.Library()

# The rulebook's result table (shared/rules/hextremadura.md): the least score of each rating
# (the engine's codes; ``words.RATING_NAMES`` names them).
RATINGS = ((9, "good"), (12, "very good"), (14, "excellent"), (15, "perfect"))
ROTATIONS = tuple(range(6))


@register.simple_tag
def hxt_defs():
    return svg.pattern_defs()


@register.simple_tag
def hxt_map(view: Mapping, interactive: bool = False, label: str = ""):
    return svg.map_svg(view, interactive=bool(interactive), label=label)


@register.simple_tag
def hxt_tile(entry: Mapping, face: str | None = None, rotation: int = 0, size: int = 96):
    return svg.tile_svg(entry, face, rotation, size)


@register.simple_tag
def hxt_pile(entries, size: int = 40):
    return svg.pile_svg(entries or [], size)


@register.simple_tag
def hxt_removed(entry: Mapping, size: int = 80):
    return svg.removed_svg(entry, size)


@register.filter
def hxt_requirement(req: Mapping) -> str:
    return svg.requirement_text(req)


@register.simple_tag
def hxt_placement(move: Mapping) -> str:
    """A placement in words: "T4 at (1, -1), rotation 2" (", face a" for a river tile's face)."""
    values = {"tile": move.get("tile"), "q": move.get("q"), "r": move.get("r"), "rotation": move.get("rotation")}
    if move.get("face"):
        return _("%(tile)s at (%(q)s, %(r)s), rotation %(rotation)s, face %(face)s") % {
            **values, "face": words.face_name(move.get("face"))}
    return _("%(tile)s at (%(q)s, %(r)s), rotation %(rotation)s") % values


# --- the page's data ---------------------------------------------------------------------------


def round_began(view: Mapping) -> bool:
    """True when the last placement ended a round (the pile was flipped). The view does not say
    when the current round began, so this reads the last move: every placement from round 2 on
    is of a back face, so a front or river face as the last move of round >= 2 means round 2
    has just begun. Later flips are caught by the page script (it compares rounds)."""
    last = view.get("last_move") or {}
    return int(view.get("round") or 1) > 1 and bool(last) and last.get("face") != "back"


def cell_choices(view: Mapping) -> list[dict]:
    return [{"value": f"{q},{r}", "q": q, "r": r, "label": f"{q}, {r}"} for q, r in svg.legal_cells(view)]


def face_note(face: Mapping) -> str:
    """What a face asks for, in words: its requirements, or its objective."""
    if isinstance(face.get("objective"), Mapping):
        return _("Objective: %(objective)s") % {"objective": words.objective_phrase(face["objective"])}
    reqs = [svg.requirement_text(req) for req in face.get("requirements") or [] if isinstance(req, Mapping)]
    if reqs:
        return _("Requirements: %(requirements)s") % {"requirements": "; ".join(reqs)}
    return _("A river face: it never leaves the map.")


def tile_choices(view: Mapping) -> list[dict]:
    """The available tiles, each with the faces it may be placed with (the face it shows first)."""
    out = []
    for entry in view.get("available") or []:
        showing = entry.get("face")
        faces = [{"name": name, "label": words.face_name(name), "note": face_note(face)}
                 for name, face in (entry.get("faces") or {}).items()]
        faces.sort(key=lambda face: face["name"] != showing)
        out.append({
            "entry": entry,
            "tile": entry.get("tile"),
            "slot": _("from the display") if entry.get("slot") == "display" else _("from the discovery pile's top"),
            "river": bool(entry.get("river")),
            "face": showing,
            "faces": faces,
        })
    return out


def rating_rows(score: int | None) -> list[dict]:
    rows = [{"least": least, "rating": rating, "name": words.rating_name(rating), "reached": score is not None and score >= least}
            for least, rating in RATINGS]
    best = [row for row in rows if row["reached"]]
    if best:
        best[-1]["yours"] = True
    return rows


def quest_rows(view: Mapping) -> list[dict]:
    final = (view.get("final") or {}).get("quests") or {}
    rows = []
    for key, quest in (view.get("quests") or {}).items():
        met = final.get(key, quest.get("met")) if final else quest.get("met")
        rows.append({"key": key, "name": words.quest_name(key), "met": bool(met)})
    return rows


def _is_daily(game: Any) -> bool:
    try:
        return game.daily_attempt is not None
    except (AttributeError, ObjectDoesNotExist):
        return False


@register.simple_tag
def hxt_page(view: Mapping, game: Any, your_move: bool = False) -> dict:
    """Everything the Hextremadura board template derives from the view, in one place."""
    config = getattr(game, "config", None) or {}
    daily = _is_daily(game)
    active = getattr(game, "status", "") == "active" and not view.get("over")
    final = view.get("final") or None
    discovery = view.get("discovery") or {}
    return {
        "can_place": bool(active and your_move),
        "can_undo": bool(active and config.get("undo") and not daily and int(view.get("turn") or 0) > 0),
        "can_hint": bool(active and your_move and not daily),
        "daily": daily,
        "cells": cell_choices(view),
        # Without the script a form can post q and r only as two fields (one value per select).
        "q_values": sorted({q for q, _ in svg.legal_cells(view)}),
        "r_values": sorted({r for _, r in svg.legal_cells(view)}),
        "tiles": tile_choices(view),
        "has_river": any(entry.get("river") for entry in view.get("available") or []),
        "rotations": ROTATIONS,
        "round_began": round_began(view),
        "discovery_size": int(discovery.get("size") or 0),
        "below_top": discovery.get("below_top"),
        "explored": view.get("explored") or [],
        # The engine's text of each objective, in the site's words.
        "objectives": [{**o, "text": words.objective_phrase(o)} for o in view.get("objectives") or []],
        "met_count": sum(1 for o in view.get("objectives") or [] if o.get("met")),
        "ratings": rating_rows(final.get("score") if final else None),
        "quests": quest_rows(view),
        "removed": view.get("last_removed") or [],
        "rating": words.rating_name(final.get("rating")) if final else "",
    }
