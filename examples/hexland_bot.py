#!/usr/bin/env python3
"""A small Hexland bot written against hexsite's public API only (the standard library's
urllib; no project code).

It follows your events (GET /api/v1/stream/events); for each game that starts or waits for
you it follows the game's stream and, whenever ``to_move`` is true, sends one of
``legal_moves`` by a simple order of preference: a city, a settlement, the setup's pieces, the
roll, a discard, the robber onto an opponent who holds cards, a development card, a road, and
otherwise the end of its turn. It never offers trades and declines those offered. (The site's
hard AI is not offered over the API.)

    HEXSITE_TOKEN=hxp_... python examples/hexland_bot.py --url http://127.0.0.1:8000
    # --games N: stop after N games have finished (default: run until stopped)

A token of a bot account needs the scopes read and bot; a person's token read and play.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request

# Move types, most wanted first; a type not listed is played only when nothing listed is legal,
# and an offer never (it would wait on the other players).
PREFERENCE = ("build_city", "build_settlement", "place_settlement", "place_road", "roll", "discard",
              "move_robber", "decline", "play_dev", "build_road", "buy_dev", "end_turn")


class Api:
    """GET, POST and NDJSON streams of /api/v1 with a bearer token."""

    def __init__(self, base_url: str, token: str, timeout: float = 60):
        self.base = base_url.rstrip("/") + "/api/v1"
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
        self.timeout = timeout
        self.retry_after = 10.0  # seconds, as the last 429 said

    def _open(self, method: str, path: str, body: dict | None = None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=self.headers)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        return urllib.request.urlopen(request, timeout=self.timeout)

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        """The status and JSON answer; refusals (problem documents) are returned, not raised."""
        try:
            with self._open(method, path, body) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as refused:
            if refused.code == 429:
                self.retry_after = float(refused.headers.get("Retry-After") or 10)
            return refused.code, json.loads(refused.read() or b"{}")

    def stream(self, path: str):
        """Each JSON line of an NDJSON stream (blank keep-alive lines skipped)."""
        with self._open("GET", path) as answer:
            for raw in answer:
                if raw.strip():
                    yield json.loads(raw)


def choose(game: dict) -> dict:
    """The most wanted legal move; among robber moves, one that robs somebody."""
    moves = game["legal_moves"]
    rank = {kind: index for index, kind in enumerate(PREFERENCE)}

    def wanted(move: dict) -> tuple:
        robs = move["type"] == "move_robber" and move.get("victim") is not None
        return (rank.get(move["type"], len(PREFERENCE) + (1 if move["type"] == "offer" else 0)), not robs)
    return min(moves, key=wanted)


def send_move(api: Api, game: dict, log=print) -> None:
    """Send our choice; a stale version (409) is left to the stream, which brings the game as it
    is now. Over a rate limit (429): wait as told, and choose again from the game as it is then;
    any other refusal: say why, and send the first legal move instead."""
    pick = choose
    while game["to_move"] and game["legal_moves"]:
        status, answer = api.call("POST", f"/games/{game['id']}/moves", {"version": game["version"], "move": pick(game)})
        if status in (200, 409):
            return
        log(f"game {game['id']}: move refused ({status}): {answer.get('detail')}")
        if status == 429:
            time.sleep(api.retry_after)
        else:
            pick = lambda now: now["legal_moves"][0]  # noqa: E731
        status, game = api.call("GET", f"/games/{game['id']}")
        if status != 200:
            return


def play_game(api: Api, game_id: int, log=print) -> dict:
    """Follow one game's stream to its end, moving whenever it is our move; its last state."""
    last = None
    for event in api.stream(f"/games/{game_id}/stream"):
        last = event
        if event["type"] == "gameFinish":
            log(f"game {game_id} over: {json.dumps(event['result'])}")
            return event
        if event["to_move"] and event["legal_moves"]:
            send_move(api, event, log)
    return last or {}


def run(api: Api, games: int | None = None, log=print) -> int:
    """Play every game the events stream announces, each in a thread; return after ``games``
    games have finished (None: never). The number of games finished."""
    playing: dict[int, threading.Thread] = {}
    finished = 0
    for event in api.stream("/stream/events"):
        game_id = event["game"]["id"]
        if event["type"] in ("gameStart", "yourTurn") and event["game"]["game"] == "hexland":
            if game_id not in playing or not playing[game_id].is_alive():
                log(f"playing game {game_id}")
                playing[game_id] = threading.Thread(target=play_game, args=(api, game_id, log), daemon=True)
                playing[game_id].start()
        elif event["type"] == "gameFinish":
            finished += 1
            if game_id in playing:
                playing[game_id].join(timeout=30)
            if games is not None and finished >= games:
                return finished
    return finished


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("HEXSITE_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("HEXSITE_TOKEN"))
    parser.add_argument("--games", type=int, default=None, help="stop after this many games have finished")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give a token: --token or HEXSITE_TOKEN")
    api = Api(args.url, args.token)
    status, account = api.call("GET", "/account")
    if status != 200:
        print(f"the token was refused ({status}): {account.get('detail')}", file=sys.stderr)
        return 1
    print(f"signed in as {account['username']}{' (bot)' if account['bot'] else ''}", flush=True)
    run(api, args.games, log=lambda text: print(text, flush=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
