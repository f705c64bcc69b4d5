"""What the example bots share: a small client of hexsite's public API (/api/v1, a bearer
token, JSON and NDJSON streams, over the standard library's urllib; no project code) and the
loop that follows the user's events, accepts invitations to its game, and plays each game through
its own stream. A bot is a ``choose(game)`` function over the game's ``legal_moves`` (or one made
for its client: ``suggested``, the site's AI) and a call to ``main``."""
from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request


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


def suggested(api: Api, level: str, fallback, log=print):
    """A ``choose(game)`` that plays the site's own AI of ``level`` (GET /games/{id}/suggestion,
    offered to bot accounts only), and ``fallback(game)``'s choice whenever the site does not
    suggest (a person's token, a level not offered, over the rate limit): said once per reason."""
    refusals_said: set[int] = set()

    def choose(game: dict) -> dict:
        status, answer = api.call("GET", f"/games/{game['id']}/suggestion?level={level}")
        if status == 200:
            # Chosen at the game's version now; sent with ``game``'s, it is played if it still
            # means the same there (the move endpoint's rule), else refused as stale (409).
            return answer["move"]
        # 409: the game has moved on since ``game`` (no longer our move): the stream brings it.
        if status != 409 and status not in refusals_said:
            refusals_said.add(status)
            log(f"no {level} suggestion ({status}: {answer.get('detail')}); the bot's own choice instead")
        return fallback(game)
    return choose


def send_move(api: Api, game: dict, choose, log=print) -> None:
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


def play_game(api: Api, game_id: int, choose, log=print) -> dict:
    """Follow one game's stream to its end, moving whenever it is our move; its last state."""
    last = None
    for event in api.stream(f"/games/{game_id}/stream"):
        last = event
        if event["type"] == "gameFinish":
            log(f"game {game_id} over: {json.dumps(event['result'])}")
            return event
        if event["to_move"] and event["legal_moves"]:
            send_move(api, event, choose, log)
    return last or {}


def accept_invitation(api: Api, event: dict, kind: str, log=print) -> int | None:
    """Accept an invitation to a game of ``kind`` (or to a league playing it); the id of the game
    when its seat is ours and it has already started (else its gameStart comes later)."""
    target = event.get("game") or event.get("league") or {}
    if target.get("game") != kind:
        log(f"invitation {event['id']} from {event['from']} left unanswered: not a {kind} game")
        return None
    status, answer = api.call("POST", f"/invitations/{event['id']}/accept")
    if status != 200:  # full, started, cancelled meanwhile: say why and go on
        log(f"invitation {event['id']} from {event['from']} refused ({status}): {answer.get('detail')}")
        return None
    if "league" in event:
        log(f"entered the league {target['name']} (invited by {event['from']}; entry {answer['entry']})")
        return None
    log(f"accepted the invitation of {event['from']} to game {target['id']}")
    status, game = api.call("GET", f"/games/{target['id']}")
    return target["id"] if status == 200 and game["status"] == "active" else None


def run(api: Api, kind: str, choose, games: int | None = None, log=print, accept_invitations: bool = True) -> int:
    """Play every game of ``kind`` the events stream announces, each in a thread, moving with
    ``choose(game)``, after accepting each invitation to one (``accept_invitations``); return
    after ``games`` games have finished (None: never). The number of games finished."""
    playing: dict[int, threading.Thread] = {}
    finished = 0

    def play(game_id: int) -> None:
        if game_id not in playing or not playing[game_id].is_alive():
            log(f"playing game {game_id}")
            playing[game_id] = threading.Thread(target=play_game, args=(api, game_id, choose, log), daemon=True)
            playing[game_id].start()

    for event in api.stream("/stream/events"):
        if event["type"] == "invitation":
            started = accept_invitation(api, event, kind, log) if accept_invitations else None
            if started is not None:
                play(started)
            continue
        game_id = event["game"]["id"]
        if event["type"] in ("gameStart", "yourTurn") and event["game"]["game"] == kind:
            play(game_id)
        elif event["type"] == "gameFinish":
            finished += 1
            if game_id in playing:
                playing[game_id].join(timeout=30)
            if games is not None and finished >= games:
                return finished
    return finished


def main(kind: str, choose_for, description: str, argv: list[str] | None = None) -> int:
    """The command line of a bot of ``kind``: its options, the token's check, then ``run`` with
    ``choose_for(api, log)``, the bot's ``choose`` for that client."""
    parser = argparse.ArgumentParser(description=description.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("HEXSITE_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("HEXSITE_TOKEN"))
    parser.add_argument("--games", type=int, default=None, help="stop after this many games have finished")
    parser.add_argument("--accept-invitations", action=argparse.BooleanOptionalAction, default=True,
                        help="accept invitations to a game of ours (or a league) from the events stream (default: yes)")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give a token: --token or HEXSITE_TOKEN")
    api = Api(args.url, args.token)
    try:
        status, account = api.call("GET", "/account")
    except urllib.error.URLError as unreachable:  # no site there, or no network
        print(f"cannot reach {args.url}: {unreachable.reason}", file=sys.stderr)
        return 1
    if status != 200:
        print(f"the token was refused ({status}): {account.get('detail')}", file=sys.stderr)
        return 1
    print(f"signed in as {account['username']}{' (bot)' if account['bot'] else ''}", flush=True)
    log = lambda text: print(text, flush=True)  # noqa: E731
    run(api, kind, choose_for(api, log), args.games, log=log, accept_invitations=args.accept_invitations)
    return 0

