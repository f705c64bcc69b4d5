#!/usr/bin/env python3
"""A small Hexland bot written against hexsite's public API only (the standard library's
urllib; no project code).

It follows your events (GET /api/v1/stream/events) and accepts each invitation to a
Hexland room; for each game that starts or waits for you it follows the game's stream and,
whenever ``to_move`` is true, sends the move the site's hard AI would make for its seat
(GET /api/v1/games/{id}/suggestion?level=hard, offered to bot accounts). Where the site does not
suggest (a person's token, over the rate limit) it sends one of ``legal_moves`` by a simple order
of preference: a city, a settlement, the setup's pieces, the roll, a discard, the robber onto an
opponent who holds cards, a development card, a road, and otherwise the end of its turn; that
order never offers trades and declines those offered.

    HEXSITE_TOKEN=hxp_... python examples/hexland_bot.py --url http://127.0.0.1:8000
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

LEVEL = "hard"  # the site's AI whose moves this bot plays


# Move types, most wanted first; a type not listed is played only when nothing listed is legal,
# and an offer never (it would wait on the other players).
PREFERENCE = ("build_city", "build_settlement", "place_settlement", "place_road", "roll", "discard",
              "move_robber", "decline", "play_dev", "build_road", "buy_dev", "end_turn")


def choose(game: dict) -> dict:
    """The most wanted legal move; among robber moves, one that robs somebody (when the site's
    AI does not suggest)."""
    moves = game["legal_moves"]
    rank = {kind: index for index, kind in enumerate(PREFERENCE)}

    def wanted(move: dict) -> tuple:
        robs = move["type"] == "move_robber" and move.get("victim") is not None
        return (rank.get(move["type"], len(PREFERENCE) + (1 if move["type"] == "offer" else 0)), not robs)
    return min(moves, key=wanted)


def run(api: Api, games: int | None = None, log=print, accept_invitations: bool = True) -> int:
    """Play every Hexland game the events stream announces, after accepting each invitation to
    one (``hexsite_client.run``)."""
    return follow_events(api, "hexland", suggested(api, LEVEL, choose, log), games, log,
                         accept_invitations=accept_invitations)


if __name__ == "__main__":
    sys.exit(main("hexland", lambda api, log: suggested(api, LEVEL, choose, log), __doc__))
