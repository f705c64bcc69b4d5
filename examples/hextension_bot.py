#!/usr/bin/env python3
"""A small Hextension bot written against hexsite's public API only (the standard library's
urllib; no project code).

It follows your events (GET /api/v1/stream/events) and accepts each invitation to a
Hextension game or league; for each game that starts or waits for you it follows the game's
stream and, whenever ``to_move`` is true, sends the placement the site's strong AI would make
for its seat (GET /api/v1/games/{id}/suggestion?level=strong, offered to bot accounts). Where the
site does not suggest (a person's token, over the rate limit) it sends the placement its own
greedy heuristic likes best among ``legal_moves``: the points each line would make, plus half of
what each line still open could make, in proportion to how full it is.

    HEXSITE_TOKEN=hxp_... python examples/hextension_bot.py --url http://127.0.0.1:8000
    # --games N: stop after N games have finished (default: run until stopped)
    # --no-accept-invitations: leave invitations unanswered (default: accept them)

A token of a bot account needs the scopes read and bot; a person's token read and play.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # hexsite_client.py, beside this file
from hexsite_client import Api, main  # noqa: E402
from hexsite_client import run as follow_events  # noqa: E402
from hexsite_client import suggested  # noqa: E402

LEVEL = "strong"  # the site's AI whose placements this bot plays


DIRECTIONS = ("|", "/", "\\")  # a tile "924" shows 9 on its | line, 2 on its /, 4 on its \


def line_points(tiles: list[str | None], direction: int) -> float:
    """A line's worth to the heuristic: its points when full and of one value; else, while its
    tiles agree, half of what it could make, in proportion to how full it is; 0 once dead."""
    placed = [tile[direction] for tile in tiles if tile is not None]
    if len(set(placed)) > 1:
        return 0.0
    if not placed:
        return 0.0
    value = int(placed[0]) * len(tiles)
    return float(value) if len(placed) == len(tiles) else 0.5 * value * len(placed) / len(tiles)


def worth(board: dict[str, str], lines: list[dict]) -> float:
    return sum(line_points([board.get(cell) for cell in line["cells"]], DIRECTIONS.index(line["direction"]))
               for line in lines)


def choose(game: dict) -> dict:
    """The legal placement that leaves the board the heuristic likes best (when the site's AI
    does not suggest)."""
    seat = next(s for s in game["view"]["seats"] if s["seat"] == game["your_seat"])
    board, lines = seat["board"], seat["lines"]
    # A placement maps each tile to its cell; the board, each cell to its tile.
    return max(game["legal_moves"],
               key=lambda move: worth({**board, **{cell: tile for tile, cell in move["placements"].items()}}, lines))


def run(api: Api, games: int | None = None, log=print, accept_invitations: bool = True) -> int:
    """Play every Hextension game the events stream announces, after accepting each invitation to
    one (``hexsite_client.run``)."""
    return follow_events(api, "hextension", suggested(api, LEVEL, choose, log), games, log,
                         accept_invitations=accept_invitations)


if __name__ == "__main__":
    sys.exit(main("hextension", lambda api, log: suggested(api, LEVEL, choose, log), __doc__))
