"""What the public API costs beside the pages, on the site's real processes: a stream's delay
beside a WebSocket push's, the CPU of a move through the API beside one through the page, and
500 open streams on one socket process while games play.

    make bench-api                              (sets everything up; about 2 minutes)
    .venv/bin/python -m hexsite.localservices -- .venv/bin/python benchmarks/api_streams.py [options]

The site runs as ``make run`` does with one page worker: ``hexsite.serve`` with one gunicorn
worker for the pages and the API, one Daphne for the sockets and the streams on a second port,
a Celery worker of each queue and beat, over a throw-away database and a Redis of the run's own
(``benchmarks/load.py``'s ``Site``). Every game is a Hextension game of two people (the run's
users; no AI seat, so no task runs while a figure is taken), three tiles a round (7 rounds).
One asyncio process drives it (aiohttp):

1. Delays and CPU (``--games`` games, half played through the API, half through the page). Each
   game has a spectator with the game's page open (its WebSocket) and the game's API stream
   (``GET /api/v1/games/{id}/stream``). The moves are sent one at a time, a pause after each so
   that its pushes are done before the next: first every API move (``POST /api/v1/games/{id}/moves``,
   a bearer token), then every page move (the htmx ``POST /games/{id}/move/``, a session), then
   as many floor requests (``GET /api/v1/account``: a token read, the rate limit, one small
   query). Printed: commit (the move event's ``created_at``) to the line on the stream and to the
   frame on the socket, p50/p95, beside the floor of a push (a plain 1 KiB channel-layer group
   send to the same sockets); the page worker's CPU per request of each kind (psutil, the
   process's own user + system time over the phase, divided by its requests), and the socket
   process's CPU per move in each phase (it answers the same announcements either way).
2. ``--streams`` (500) streams open on the one socket process, each a user of its own with a
   token (a user may hold 20 sockets, a token 8 streams), spectators of ``--stream-games`` games
   that are then played to their end through the API, all at once. Printed: streams open,
   streams that got every version from their first line to the end (and how many versions
   were skipped, which the contract allows a slow reader), lines delivered, streams that ended
   before ``gameFinish``; the socket process's memory before the streams, with them open and at
   the end, and its CPU while the games played (per move and per line), beside the same
   process idle with the streams open (the floor: the keep-alive beats and their token checks);
   commit → line p50/p95 under that load. ``--pause`` sets the games' pace (default 1.5 s between
   a game's moves: 10 games, about 6 moves and 330 lines a second).

Then the headline lines. Nothing is checked beyond counting; errors (a refused request, a
stream or socket closed by the server) are counted and must be 0.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from load import ROOT, Player, Site, Socket, Stats, hextension_move, make_players, send_probes, start_redis, wait_for_site

from _django import benchmark_database, percentile

TILES_PER_ROUND = 3
MOVES_PER_GAME = 2 * 7  # two seats, seven rounds of three tiles
PAUSE_AFTER_MOVE = 0.12  # seconds: the move's pushes are out before the next move's request
STREAM_STEP = 50  # streams opened at once


# --- the streams' client -------------------------------------------------------------------


@dataclass
class Stream:
    """One open ``GET /api/v1/games/{id}/stream``: each version's first arrival, and how it ended."""

    game_id: int
    arrivals: dict[int, float] = field(default_factory=dict)
    kinds: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    lines: int = 0
    finished: bool = False  # got gameFinish
    closed_early: bool = False
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task | None = None

    async def follow(self, http, socket_base: str, secret: str, errors: list[str]) -> None:
        try:
            async with http.get(f"{socket_base}/api/v1/games/{self.game_id}/stream",
                                headers={"Authorization": f"Bearer {secret}"}) as answer:
                if answer.status != 200:
                    errors.append(f"stream {self.game_id}: HTTP {answer.status} {(await answer.text())[:200]}")
                    return
                async for raw in answer.content:
                    now = time.time()
                    if not raw.strip():
                        self.opened.set()  # a keep-alive beat
                        continue
                    data = json.loads(raw)
                    self.lines += 1
                    self.kinds[data["type"]] += 1
                    self.arrivals.setdefault(data["version"], now)
                    self.opened.set()
                    if data["type"] == "gameFinish":
                        self.finished = True
        except asyncio.CancelledError:
            return
        except Exception as error:
            errors.append(f"stream {self.game_id}: {type(error).__name__}: {error}")
        finally:
            self.opened.set()
        if not self.finished:
            self.closed_early = True
            errors.append(f"stream {self.game_id}: closed before gameFinish")

    def start(self, http, socket_base: str, secret: str, errors: list[str]) -> None:
        self.task = asyncio.create_task(self.follow(http, socket_base, secret, errors))

    async def stop(self) -> None:
        if self.task and not self.task.done():
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)


# --- the scenario's data -------------------------------------------------------------------


def make_games(players: list[Player], count: int) -> list:
    from games import services

    games = []
    for i in range(count):
        pair = [players[2 * i].user, players[2 * i + 1].user]
        game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": TILES_PER_ROUND},
                                    created_by=pair[0], players=pair, turn_seconds=3 * 86400, join=False)
        services.start_game(game_id=game.pk)
        games.append(game)
    return games


def tokens_for(players: list[Player]) -> dict[int, str]:
    """A token of the default scopes for each player, by user id."""
    from api import tokens

    return {p.user.pk: tokens.create_token(owner=p.user, name="bench")[1] for p in players}


def commit_times(game_ids: list[int]) -> dict[tuple[int, int], float]:
    from games.models import MoveEvent

    return {(g, s): t.timestamp() for g, s, t in
            MoveEvent.objects.filter(game_id__in=game_ids).values_list("game_id", "seq", "created_at")}


def db_versions(game_ids: list[int]) -> dict[int, int]:
    from games.models import Game

    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))


def delays(arrivals: list[tuple[int, dict[int, float]]], committed: dict) -> list[float]:
    """Commit → first arrival, for every version after the first line that arrived."""
    found = []
    for game_id, times in arrivals:
        for version, arrived in times.items():
            at = committed.get((game_id, version))
            if at is not None:
                found.append(max(0.0, arrived - at))
    return found


# --- processes -----------------------------------------------------------------------------


def site_processes(site: Site) -> tuple[list, object]:
    """(the page workers, the socket process) as psutil processes."""
    import psutil

    pids = site.daphnes()
    pages = [psutil.Process(pid) for name, pid in pids.items() if not name.startswith("sockets")]
    sockets = [psutil.Process(pid) for name, pid in pids.items() if name.startswith("sockets")]
    if len(sockets) != 1:
        raise SystemExit(f"bench-api: expected one socket process, found {sorted(pids)}")
    return pages, sockets[0]


def cpu_seconds(processes) -> float:
    total = 0.0
    for process in processes:
        times = process.cpu_times()
        total += times.user + times.system
    return total


def rss_mib(process) -> float:
    return process.memory_info().rss / 2**20


# --- the requests ----------------------------------------------------------------------------


async def api_move(http, base: str, secret: str, game_id: int, move: dict, version: int, errors: list[str]) -> None:
    async with http.post(f"{base}/api/v1/games/{game_id}/moves", json={"version": version, "move": move},
                         headers={"Authorization": f"Bearer {secret}"}) as answer:
        body = await answer.read()
        if answer.status != 200:
            errors.append(f"API move {game_id}: HTTP {answer.status} {body[:200]!r}")


async def page_move(http, base: str, player: Player, game_id: int, move: dict, version: int, errors: list[str]) -> None:
    # The mover's own page (not the spectator's) is the one answered over HTTP, as live.js names it.
    async with http.post(f"{base}/games/{game_id}/move/", data={"move": json.dumps(move), "version": str(version)},
                         headers={**player.headers, "X-CSRFToken": player.csrf, "HX-Request": "true",
                                  "X-Live-Page": f"bench-mover-{player.user.pk}-{game_id}"}) as answer:
        await answer.read()
        if answer.status != 200:
            errors.append(f"page move {game_id}: HTTP {answer.status}")


async def floor_request(http, base: str, secret: str, errors: list[str]) -> None:
    async with http.get(f"{base}/api/v1/account", headers={"Authorization": f"Bearer {secret}"}) as answer:
        await answer.read()
        if answer.status != 200:
            errors.append(f"floor: HTTP {answer.status}")


def next_move(game_id: int) -> tuple[dict, int, int]:
    """A random legal move of a seat the round still waits for: (move, version, seat)."""
    from games.models import Game

    game = Game.objects.get(pk=game_id)
    seat = min(game.awaiting)
    move, version = hextension_move(game_id, seat)
    return move, version, seat


async def play_to_the_end(game_id: int, players: list[Player], secrets: dict[int, str], http, base: str,
                          errors: list[str], pause: float, offset: float) -> int:
    """Every move of the game through the API, ``pause`` seconds apart, the first after ``offset``
    (the games' moves are spread over the pause, not all at once)."""
    await asyncio.sleep(offset)
    sent = 0
    for _ in range(MOVES_PER_GAME):
        move, version, seat = await asyncio.to_thread(next_move, game_id)
        await api_move(http, base, secrets[players[seat].user.pk], game_id, move, version, errors)
        sent += 1
        await asyncio.sleep(pause)
    return sent


# --- the run ----------------------------------------------------------------------------------


async def drive(args, site: Site, data: dict) -> dict:
    import aiohttp

    errors: list[str] = []
    report: dict = {"errors": errors}
    pages, sockets_process = site_processes(site)
    http_base, socket_http = site.base, f"http://127.0.0.1:{site.socket_port}"
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        # Warm-up: a request of each kind, so no figure pays for a first import or connection.
        await floor_request(http, http_base, data["secrets"][data["watchers"][0].user.pk], errors)

        # 1. Delays and CPU: a spectator's socket and stream on each game.
        stats = Stats()
        games = data["games"]
        sockets, streams = [], []
        for game, watcher in zip(games, data["watchers"]):
            sock = Socket(http, http_base, site.socket_base, watcher, game.pk, stats)
            await sock.open()
            sockets.append(sock)
            stream = Stream(game.pk)
            stream.start(http, socket_http, data["secrets"][watcher.user.pk], errors)
            streams.append(stream)
        await asyncio.gather(*(s.opened.wait() for s in streams))
        await asyncio.sleep(0.5)

        half = len(games) // 2
        api_games, page_games = games[:half], games[half:]
        secrets = data["secrets"]

        async def by_api(player, game_id, move, version):
            await api_move(http, http_base, secrets[player.user.pk], game_id, move, version, errors)

        async def by_page(player, game_id, move, version):
            await page_move(http, http_base, player, game_id, move, version, errors)

        # A first move of each kind, not counted (the first page answer draws templates).
        for game, send in ((api_games[0], by_api), (page_games[0], by_page)):
            move, version, seat = await asyncio.to_thread(next_move, game.pk)
            await send(data["players_of"][game.pk][seat], game.pk, move, version)
        await asyncio.sleep(0.5)
        for name, phase_games, send in (("api", api_games, by_api), ("page", page_games, by_page)):
            cpu, socket_cpu = cpu_seconds(pages), cpu_seconds([sockets_process])
            moves = await play_one_at_a_time_from(phase_games, data["players_of"], send, skip_first=phase_games[0])
            await asyncio.sleep(0.5)
            report[f"{name} moves"] = moves
            report[f"{name} cpu"] = (cpu_seconds(pages) - cpu) / moves
            report[f"{name} socket cpu"] = (cpu_seconds([sockets_process]) - socket_cpu) / moves
        count = report["api moves"]
        cpu = cpu_seconds(pages)
        for _ in range(count):
            await floor_request(http, http_base, secrets[data["watchers"][0].user.pk], errors)
        report["floor cpu"] = (cpu_seconds(pages) - cpu) / count
        await send_probes([g.pk for g in games])
        report["probes"] = [latency for s in sockets for latency in s.probes]
        await asyncio.sleep(1)
        committed = await asyncio.to_thread(commit_times, [g.pk for g in games])
        report["socket delays"] = {name: delays([(s.game_id, s.arrivals) for s in sockets if s.game_id in ids], committed)
                                   for name, ids in (("api", {g.pk for g in api_games}),
                                                     ("page", {g.pk for g in page_games}))}
        report["stream delays"] = {name: delays([(s.game_id, s.arrivals) for s in streams if s.game_id in ids], committed)
                                   for name, ids in (("api", {g.pk for g in api_games}),
                                                     ("page", {g.pk for g in page_games}))}
        for sock in sockets:
            await sock.close()
        for stream in streams:
            await stream.stop()
        errors.extend(stats.errors)

        # 2. Many streams on the one socket process while games play.
        await asyncio.sleep(1)
        report["rss before"] = rss_mib(sockets_process)
        many: list[Stream] = []
        stream_games = data["stream_games"]
        for i, spectator in enumerate(data["spectators"]):
            stream = Stream(stream_games[i % len(stream_games)].pk)
            stream.start(http, socket_http, secrets[spectator.user.pk], errors)
            many.append(stream)
            if len(many) % STREAM_STEP == 0:
                await asyncio.gather(*(s.opened.wait() for s in many[-STREAM_STEP:]))
        await asyncio.gather(*(s.opened.wait() for s in many))
        report["streams open"] = sum(1 for s in many if s.task and not s.task.done())
        await asyncio.sleep(2)
        report["rss open"] = rss_mib(sockets_process)
        idle_from, idle_cpu = time.monotonic(), cpu_seconds([sockets_process])
        await asyncio.sleep(args.idle_seconds)
        report["idle cpu per s"] = (cpu_seconds([sockets_process]) - idle_cpu) / (time.monotonic() - idle_from)
        play_from, play_cpu = time.monotonic(), cpu_seconds([sockets_process])
        rss_peak = report["rss open"]
        sampling = True

        async def sample_memory():
            nonlocal rss_peak
            while sampling:
                rss_peak = max(rss_peak, rss_mib(sockets_process))
                await asyncio.sleep(0.5)

        sampler = asyncio.create_task(sample_memory())
        played = await asyncio.gather(*(play_to_the_end(g.pk, data["players_of"][g.pk], secrets, http, http_base, errors,
                                                        args.pause, i * args.pause / len(stream_games))
                                        for i, g in enumerate(stream_games)))
        finals = await asyncio.to_thread(db_versions, [g.pk for g in stream_games])
        # The last lines: every stream ends with gameFinish (or the wait runs out).
        await asyncio.wait([s.task for s in many if s.task], timeout=30)
        sampling = False
        await sampler
        report["play seconds"] = time.monotonic() - play_from
        report["play cpu"] = cpu_seconds([sockets_process]) - play_cpu
        report["stream moves"] = sum(played)
        report["rss peak"] = rss_peak
        report["rss end"] = rss_mib(sockets_process)
        committed = await asyncio.to_thread(commit_times, [g.pk for g in stream_games])
        report["many delays"] = delays([(s.game_id, s.arrivals) for s in many], committed)
        report["many lines"] = sum(s.lines for s in many)
        report["many finished"] = sum(s.finished for s in many)
        report["many closed early"] = sum(s.closed_early for s in many)
        complete, skipped = 0, 0
        for s in many:
            seen = sorted(s.arrivals)
            if not seen:
                continue
            missing = [v for v in range(seen[0], finals[s.game_id] + 1) if v not in s.arrivals]
            skipped += len(missing)
            complete += not missing and seen[-1] == finals[s.game_id]
        report["many complete"], report["many skipped"] = complete, skipped
        report["streams"] = len(many)
        for stream in many:
            await stream.stop()
    return report


async def play_one_at_a_time_from(games: list, players_of: dict, send, skip_first) -> int:
    """Every remaining move of these games, one request at a time (the games take turns), a
    pause after each; the number of moves sent."""
    sent = 0
    remaining = {game.pk: MOVES_PER_GAME - (1 if game is skip_first else 0) for game in games}
    while any(remaining.values()):
        for game in games:
            if not remaining[game.pk]:
                continue
            move, version, seat = await asyncio.to_thread(next_move, game.pk)
            await send(players_of[game.pk][seat], game.pk, move, version)
            remaining[game.pk] -= 1
            sent += 1
            await asyncio.sleep(PAUSE_AFTER_MOVE)
    return sent


def ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q) * 1000:7.1f}" if values else "      -"


def print_report(args, report: dict, started: float) -> None:
    print()
    print(f"bench-api: {args.games} games (delays and CPU), {report['streams']} streams on "
          f"{args.stream_games} games; {time.time() - started:.0f} s in all; load average before "
          f"{report['load before']}")
    print("1. commit → arrival, ms (p50 / p95), a spectator of each game:")
    for name, label in (("api", "moves through the API "), ("page", "moves through the page")):
        stream, sock = report["stream delays"][name], report["socket delays"][name]
        print(f"  {label}: stream line {ms(stream, 50)} / {ms(stream, 95)}   WebSocket push {ms(sock, 50)} / "
              f"{ms(sock, 95)}   ({len(stream)} lines, {len(sock)} pushes)")
    probes = report["probes"]
    print(f"  floor, a 1 KiB channel-layer group send to the same sockets: {ms(probes, 50)} / {ms(probes, 95)} "
          f"({len(probes)} arrivals)")
    print("   CPU of the page worker per request, ms (user + system, its requests one at a time):")
    print(f"  a move through the API  (POST /api/v1/games/{{id}}/moves): {report['api cpu'] * 1000:6.1f}   "
          f"socket process per move {report['api socket cpu'] * 1000:6.1f}   ({report['api moves']} moves)")
    print(f"  a move through the page (POST /games/{{id}}/move/, htmx):   {report['page cpu'] * 1000:6.1f}   "
          f"socket process per move {report['page socket cpu'] * 1000:6.1f}   ({report['page moves']} moves)")
    print(f"  floor, GET /api/v1/account:                              {report['floor cpu'] * 1000:6.1f}")
    print(f"2. {report['streams']} streams on one socket process while {args.stream_games} games play "
          f"({report['stream moves']} moves through the API in {report['play seconds']:.1f} s):")
    print(f"  open {report['streams open']}, ended with gameFinish {report['many finished']}, closed early "
          f"{report['many closed early']}; every version from the first line to the end: {report['many complete']} "
          f"(versions skipped in all: {report['many skipped']}); lines {report['many lines']}")
    print(f"  socket process memory, MiB: {report['rss before']:.0f} before the streams, {report['rss open']:.0f} "
          f"with them open ({(report['rss open'] - report['rss before']) * 1024 / max(1, report['streams']):.0f} KiB "
          f"a stream), {report['rss peak']:.0f} at most while playing, {report['rss end']:.0f} at the end")
    lines = max(1, report["many lines"])
    print(f"  socket process CPU while playing: {report['play cpu']:.2f} s "
          f"({100 * report['play cpu'] / report['play seconds']:.0f}% of a core; "
          f"{report['play cpu'] * 1000 / max(1, report['stream moves']):.1f} ms a move, "
          f"{report['play cpu'] * 1000 / lines:.2f} ms a line); floor, idle with the streams open: "
          f"{100 * report['idle cpu per s']:.1f}% of a core")
    print(f"  commit → line under that load, ms: {ms(report['many delays'], 50)} / {ms(report['many delays'], 95)}")
    print(f"  errors: {len(report['errors'])}")
    for error in report["errors"][:10]:
        print(f"    {error}")
    api, page = report["stream delays"]["api"] + report["stream delays"]["page"], \
        report["socket delays"]["api"] + report["socket delays"]["page"]
    print()
    print(f"bench-api: stream p50/p95 {ms(api, 50).strip()}/{ms(api, 95).strip()} ms, WebSocket push "
          f"{ms(page, 50).strip()}/{ms(page, 95).strip()} ms (floor {ms(probes, 50).strip()}/{ms(probes, 95).strip()})")
    print(f"bench-api: page worker CPU a move, API {report['api cpu'] * 1000:.1f} ms, page "
          f"{report['page cpu'] * 1000:.1f} ms (floor {report['floor cpu'] * 1000:.1f} ms)")
    print(f"bench-api: {report['streams open']} streams open on one socket process, "
          f"{report['many finished']} to gameFinish, {report['many complete']} with every version; "
          f"{report['rss open']:.0f} MiB ({report['rss before']:.0f} before), "
          f"{100 * report['play cpu'] / report['play seconds']:.0f}% of a core while playing; errors {len(report['errors'])}")


def main() -> int:
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games for the delays and the CPU, half of them "
                                                             "played through the API (default 8)")
    parser.add_argument("--streams", type=int, default=500, help="streams open at once (default 500)")
    parser.add_argument("--stream-games", type=int, default=10, help="games those streams follow (default 10)")
    # At 0.3 s (12 moves a second over the ten games: 600 lines a second to write) the one socket
    # process fell behind on a loaded two-core machine and its streams skipped versions, as the
    # contract allows; at 1.5 s each stream gets every version.
    parser.add_argument("--pause", type=float, default=1.5, help="seconds between a game's moves while the many "
                                                                 "streams follow (default 1.5)")
    parser.add_argument("--idle-seconds", type=float, default=10.0,
                        help="the floor: seconds the socket process is measured idle with the streams open")
    args = parser.parse_args()
    started = time.time()
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    log_dir = Path(os.environ.get("HEXSITE_VAR_DIR", ROOT / "var")) / "bench-api"
    log_dir.mkdir(parents=True, exist_ok=True)
    redis = start_redis(log_dir / "redis")
    os.environ["REDIS_URL"] = redis["url"]
    os.environ["GAME_MOVE_RATE_LIMIT"] = "1000"  # the harness's own pace, not the pages' limit, sets the rate
    try:
        with benchmark_database(prefix="bench_") as database:
            from django.db import connection

            print(f"bench-api: database {database}; logs in {log_dir}", flush=True)
            players = make_players(2 * (args.games + args.stream_games), "bp")
            watchers = make_players(args.games, "bw")
            spectators = make_players(args.streams, "bs")
            games = make_games(players[:2 * args.games], args.games)
            stream_games = make_games(players[2 * args.games:], args.stream_games)
            everyone = players + watchers + spectators
            data = {
                "games": games, "stream_games": stream_games, "watchers": watchers, "spectators": spectators,
                "secrets": tokens_for(everyone),
                "players_of": {g.pk: players[2 * i:2 * i + 2] for i, g in enumerate(games + stream_games)},
            }
            connection.close()
            site = Site(database, web=1, workers=1, log_dir=log_dir, sockets=1, pages="gunicorn")
            try:
                wait_for_site(site)
                print(f"bench-api: site up after {time.time() - started:.0f} s; playing", flush=True)
                report = asyncio.run(drive(args, site, data))
            finally:
                site.stop()
            report["load before"] = load_before
            print_report(args, report, started)
    finally:
        redis["process"].terminate()
        redis["process"].wait(20)
    return 1 if report["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
