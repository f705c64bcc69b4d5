"""The repeated parts of a Hextension page, each drawn once and then reused by every viewer.

A round's close pushes the board to every socket of the game, and a board of N seats carries N
evaluation diagrams, N standings rows and the history of the draw: drawn for each socket, a
100-seat game cost about 14 s of one Daphne's time per round (``benchmarks/push_costs.py``).
Almost all of it is the same for everyone, so each piece is kept here, keyed by exactly the
data it shows, and a socket or a page only joins pieces already drawn.

Hidden information: a piece's key holds all of its input, so the same key always gives the
same HTML whoever asks, and a piece can never show more than its key holds. The keys are built
from the seat entries of a view (``view["seats"]``: boards as of the last closed round, the
same in every seat's view and the spectator's) and from names and ranks, never from the open
round's submission (``view["pending"]``), which only the viewer's own form and board show.
The viewer's own rows differ from the others' only by "(you)"; they are pieces of their own.

The caches are per process and bounded (least recently used pieces go first). A piece holds
words, so its key holds the active language too.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from games.pieces import Pieces


# A diagram card is about 12 KiB: 1,024 of them (ten 100-seat rounds) keep a Daphne under
# 15 MiB; rows are a few hundred bytes.
_cards = Pieces(1024)
_rows = Pieces(8192)
_histories = Pieces(256)


def forget() -> None:
    """Empty every cache (tests and benchmarks)."""
    for pieces in (_cards, _rows, _histories):
        pieces.clear()


def _seat_key(seat_view: Mapping) -> tuple:
    """Everything of a seat entry (``rules.view``) that a card can show. A line's direction,
    cells and length follow from its place in the list, its score from its status and value.
    (A field added to seat entries and shown on the cards must be added here too; it could only
    ever be public, as every viewer's seat entries are the same.) A tuple, not JSON: building
    the key is most of a warm card's cost, for every seat of every push."""
    return (
        seat_view["seat"], tuple(seat_view["board"].items()), tuple(seat_view.get("last_placed") or ()),
        seat_view["score"], seat_view.get("potential"), seat_view["nmr"], seat_view["out"], seat_view["moved"],
        tuple((line.get("status"), line.get("value"), tuple(line.get("values") or ())) for line in seat_view.get("lines") or ()),
    )


def diagram_cards(players: Iterable[Mapping], over: bool) -> SafeString:
    """Every seat's diagram card (``hextension/_diagram_card.html``), in the rows' order."""
    language = translation.get_language()
    parts = []
    for row in players:
        key = (language, bool(over), row["seat"], row["name"], bool(row["is_you"]), _seat_key(row["view"]))
        parts.append(_cards.get(key, lambda row=row: _draw("hextension/_diagram_card.html", row, over)))
    return mark_safe("".join(parts))


def standings_rows(players: Iterable[Mapping]) -> SafeString:
    """The running game's standings table body rows."""
    language = translation.get_language()
    parts = []
    for row in players:
        key = ("standings", language, row["seat"], row["rank"], row["name"], bool(row.get("bot")), bool(row["is_you"]),
               row["score"], row["potential"], row["nmr"], bool(row["out"]))
        parts.append(_rows.get(key, lambda row=row: _draw("hextension/_standings_row.html", row)))
    return mark_safe("".join(parts))


def result_rows(players: Iterable[Mapping]) -> SafeString:
    """The finished game's results table body rows, with the hindsight figures."""
    language = translation.get_language()
    parts = []
    for row in players:
        key = ("results", language, row["seat"], row["rank"], row["name"], bool(row.get("bot")), bool(row["is_you"]),
               row["score"], row["nmr"], bool(row["out"]), row["ai_score"], row["best_score"])
        parts.append(_rows.get(key, lambda row=row: _draw("hextension/_result_row.html", row)))
    return mark_safe("".join(parts))


def history(rounds: list[Mapping]) -> SafeString:
    """The table of the tiles drawn in each closed round (``round_history``)."""
    key = (translation.get_language(), tuple((r["number"], tuple(r["tiles"])) for r in rounds))
    return mark_safe(_histories.get(key, lambda: render_to_string("hextension/_history.html", {"rounds": rounds})))


def progress(progress: Mapping, version: int) -> SafeString:
    """Who has moved this round (``_progress.html``, the region hx-progress)."""
    key = ("progress", translation.get_language(), version, tuple(progress["moved"]), tuple(progress["waiting"]), progress["in_game"])
    return mark_safe(_rows.get(key, lambda: render_to_string(
        "hextension/_progress.html", {"progress": progress, "game": {"version": version}})))


def _draw(template: str, row: Mapping, over: bool = False) -> str:
    return render_to_string(template, {"p": row, "over": over})
