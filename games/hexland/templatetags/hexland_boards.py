"""Template tags for the Hexland game page: the board SVG and what the side panel derives from
the seat's view (players, your cards, the phase in words, the dice, the log, your moves).

Everything here reads the view only, so the page can hold nothing the seat may not see. Your
own cards are drawn inside an element marked ``hl-private`` with ``data-owner`` = your seat,
which lets tests check that no page carries another seat's cards.
"""
from __future__ import annotations

from typing import Mapping

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games.hexland import log_words, svg, words
from games.hexland import names as hexland_names

register = template.Library()

LOG_LINES = 8
RESOURCE_TITLES = words.RESOURCE_TITLES
DEV_TITLES = words.DEV_TITLES
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
# Moves that get a button of their own; the rest are chosen from a list (or on the board).


@register.simple_tag
def hexland_board(view: Mapping, interactive: bool = False, label: str = ""):
    return svg.board_svg(view, interactive=bool(interactive), label=label)


@register.simple_tag
def hexland_island(view: Mapping, label: str = ""):
    return svg.island_svg(view, label=label)


@register.simple_tag
def hexland_pieces(view: Mapping, interactive: bool = False, label: str = ""):
    return svg.pieces_svg(view, interactive=bool(interactive), label=label)


@register.simple_tag
def hexland_swatch(seat) -> str:
    """A small house in the seat's colour with its digit: the same cue as its pieces. Only the
    seat's colours are written here; the outline and the digit's type are hexland.css's
    (.hl-swatch), so the players panel pushed at every move carries them once, not per row."""
    colour, ink, digit = svg.seat_colour(seat), svg.seat_ink(seat), svg.seat_marker(seat)
    return mark_safe(
        '<svg class="hl-swatch" viewBox="-9 -10 18 19" aria-hidden="true" focusable="false">'
        f'<path d="M-7 7V-1.5L0-8.5 7-1.5V7Z" fill="{colour}"/><text x="0" y="4.5" fill="{ink}">{digit}</text></svg>')


# --- the panel's data --------------------------------------------------------------------------

def _names(view: Mapping) -> dict[int, str]:
    return {p.get("seat"): str(p.get("name")) for p in view.get("players") or []}


def _outcome(view: Mapping, result: Mapping | None) -> tuple[int | None, list | None, frozenset]:
    """A finished game's winner, ranks by seat and resigned seats: the game's stored result
    (``Game.result``, which ranks players who resigned last: docs/hexland.md, "Resigning")
    where there is one, else the engine's view (a winner, no ranks)."""
    if view.get("phase") == "over" and isinstance(result, Mapping) and result.get("ranks"):
        return result.get("winner"), list(result["ranks"]), frozenset(result.get("resigned") or ())
    return view.get("winner"), None, frozenset()


def phase_text(view: Mapping, result: Mapping | None = None) -> str:
    """What the game waits for, in words (``result``: the game's, once it is over)."""
    names = _names(view)
    cur = names.get(view.get("current"), "")
    phase = view.get("phase")
    if phase == "setup_settlement":
        return _("Setup: %(player)s places a settlement") % {"player": cur}
    if phase == "setup_road":
        return _("Setup: %(player)s places a road next to it") % {"player": cur}
    if phase == "roll":
        return _("%(player)s's turn: roll the dice (or play a development card first)") % {"player": cur}
    if phase == "discard":
        # Translators: one player who must discard, and how many cards, e.g. "ana (4)".
        owed = [_("%(player)s (%(count)s)") % {"player": names.get(q, q), "count": k}
                for q, k in enumerate(view.get("discards") or []) if k]
        # Translators: players: a list such as "ana (4), bo (5)".
        return _("A 7: waiting for discards from %(players)s") % {"players": ", ".join(owed)}
    if phase == "robber":
        return _("%(player)s moves the robber") % {"player": cur}
    if phase == "main":
        return _("%(player)s's turn: trade and build") % {"player": cur}
    if phase == "trade":
        return _("%(player)s offers a trade") % {"player": cur}
    if phase == "free_roads":
        return _("%(player)s places free roads (%(count)s left)") % {"player": cur, "count": view.get("free_roads", 0)}
    if phase == "over":
        winner, _ranks, _resigned = _outcome(view, result)
        return _("Game over: %(player)s wins") % {"player": names[winner]} if winner in names else _("Game over")
    return ""


def player_rows(view: Mapping, result: Mapping | None = None) -> list[dict]:
    seat, over = view.get("seat"), view.get("phase") == "over"
    winner, _ranks, resigned = _outcome(view, result)
    actors = set(view.get("actors") or [])
    discards = view.get("discards") or []
    answers = (view.get("offer") or {}).get("answers") or []
    rows = []
    for p in view.get("players") or []:
        q = p.get("seat")
        rows.append({
            **p,
            "colour_name": words.COLOUR_NAMES[q % 4],
            "marker": svg.seat_marker(q),
            "is_you": q == seat,
            "is_current": q == view.get("current") and not over,
            "is_actor": q in actors,
            "owes": discards[q] if q < len(discards) else 0,
            "answer": words.answer(answers[q]) if q < len(answers) and answers[q] is not None else None,
            "is_winner": over and q == winner,
            "resigned": over and q in resigned,
            "points": p.get("total_vp", p.get("vp")) if over else p.get("vp"),
        })
    return rows


def your_cards(view: Mapping) -> dict | None:
    """The seat's own cards (None for a spectator, whose view has no ``you``)."""
    you = view.get("you")
    if not isinstance(you, Mapping):
        return None
    hand = you.get("hand") or {}
    new = you.get("new_dev_cards") or {}
    return {
        "seat": view.get("seat"),
        "hand": [{"key": r, "title": RESOURCE_TITLES[r], "count": hand.get(r, 0)}
                 for r in svg.RESOURCES],
        "hand_total": sum(hand.get(r, 0) for r in svg.RESOURCES),
        "dev": [{"key": c, "title": title, "count": (you.get("dev_cards") or {}).get(c, 0),
                 "new": new.get(c, 0)} for c, title in DEV_TITLES.items()],
        "dev_total": sum((you.get("dev_cards") or {}).values()),
        "vp": you.get("vp"),
        "dev_played": you.get("dev_played"),
    }


def dice(view: Mapping) -> dict | None:
    values = view.get("dice")
    if not values or len(values) != 2:
        return None
    a, b = int(values[0]), int(values[1])
    return {"a": a, "b": b, "sum": a + b, "faces": DIE_FACES[a - 1] + DIE_FACES[b - 1],
            "text": svg.describe_dice(values)}


def _bundle(bundle: Mapping) -> str:
    return words.bundle(bundle)


def offer(view: Mapping) -> dict | None:
    o = view.get("offer")
    if not o:
        return None
    names = _names(view)
    answers = [{"name": names.get(q, q), "answer": words.answer(a)}
               for q, a in enumerate(o.get("answers") or []) if a is not None]
    return {"from": names.get(o.get("from"), ""), "give": _bundle(o.get("give")),
            "get": _bundle(o.get("get")), "answers": answers}


@register.simple_tag
def hexland_panel(view: Mapping, result: Mapping | None = None) -> dict:
    """Everything the side panel shows, from the view (and, once the game is over, its stored
    ``result``: who won, who resigned)."""
    log = list(view.get("log") or [])
    _winner, _ranks, resigned = _outcome(view, result)
    names, logged = _names(view), hexland_names.logged_names(view)
    # The log's sentences name players as the engine does: an AI seat is written as it is shown.
    renamed = {logged[q]: names[q] for q in names if q in logged and logged[q] != names[q]}
    shown = log_words.log_lines(log[-LOG_LINES:], logged.values(), resigned=[logged[q] for q in resigned if q in logged],
                                renamed=renamed)
    return {
        "phase": phase_text(view, result),
        "players": player_rows(view, result),
        "you": your_cards(view),
        "dice": dice(view),
        "offer": offer(view),
        "log": shown,
        # the view may hold only the log's tail: number the lines from the whole log's length
        "log_start": max(1, int(view.get("log_length") or len(log)) - len(shown) + 1),
        "spectator": view.get("seat") is None,
        "over": view.get("phase") == "over",
    }


@register.simple_tag
def hexland_final(view: Mapping, result: Mapping | None = None) -> dict | None:
    """The end of a game: each player's points broken down, best ranked first (``result``: the
    game's stored one, players who resigned last), and how the dice fell."""
    if view.get("phase") != "over":
        return None
    winner, ranks, resigned = _outcome(view, result)
    rows = []
    for p in view.get("players") or []:
        seat = p["seat"]
        settlements = sum(1 for b in view["buildings"] if b["seat"] == seat and b["kind"] == "settlement")
        cities = sum(1 for b in view["buildings"] if b["seat"] == seat and b["kind"] == "city")
        rows.append({"seat": seat, "name": p["name"], "settlements": settlements, "cities": cities,
                     "longest_road": 2 if p["longest_road"] else 0, "largest_army": 2 if p["largest_army"] else 0,
                     "vp_cards": p.get("vp_cards", 0), "total": p.get("total_vp", p["vp"]),
                     "winner": winner == seat, "resigned": seat in resigned,
                     "rank": ranks[seat] if ranks and seat < len(ranks) else None})
    rows.sort(key=lambda row: (row["rank"] or 0, -row["winner"], -row["total"], row["seat"]))
    counts = {int(k): v for k, v in (view.get("roll_counts") or {}).items()}
    most = max(counts.values(), default=0) or 1
    dice = [{"total": total, "count": counts.get(total, 0), "percent": round(100 * counts.get(total, 0) / most)}
            for total in range(2, 13)]
    return {"rows": rows, "dice": dice, "rolls": sum(counts.values())}
