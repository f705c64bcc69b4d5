"""Lighthouse on a live Hexland room: a room of four AI seats playing at the fast preset, watched
by a signed-in spectator, beside the floor, a room of the same player's that waits for them
(nothing pushed). Mobile and desktop presets.

The site runs as ``make load`` runs it (``load.Site``: gunicorn for pages, Daphne for sockets, a
Celery worker playing the AI seats, beat) on a throw-away database. Debian's Chromium is started
by Playwright with a debugging port and the session put in its cookie store, so the page's
WebSocket is signed in as the page is (a ``Cookie`` request header from ``--extra-headers`` is
not sent on the socket's handshake); the ``lighthouse`` npm package (package.json) then audits
the page in that browser (``--port``, ``--disable-storage-reset`` so the session stays).

Printed per page and preset: the moves the game made while it was audited (each one pushed to
the page), the performance score, total blocking time, and the long tasks
Lighthouse saw (count, the longest).

    .venv/bin/python -m hexsite.localservices -- .venv/bin/python benchmarks/lighthouse_live.py
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from load import ROOT, Site, free_port, make_players, wait_for_site  # noqa: I001 (also sets the site's environment)
from _django import benchmark_database

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def rooms(viewer):
    """A room of four AI seats (the viewer watches) and a room waiting for the viewer's move."""
    from games import services

    config = {"players": 4, "layout": "fixed", "timers": "fast"}
    playing = services.create_game(kind="hexland", config=config, created_by=viewer, join=False,
                                   ai_seats={i: "easy" for i in range(4)}, turn_seconds=60)
    services.start_game(game_id=playing.pk)
    waiting = services.create_game(kind="hexland", config=dict(config, timers="correspondence"), created_by=viewer,
                                   ai_seats={i: "easy" for i in range(1, 4)}, turn_seconds=86400)
    services.start_game(game_id=waiting.pk)  # seat 0, the viewer's, places first
    return playing, waiting


def moves_made(game) -> int:
    """The game's version, read on a thread of its own (Playwright's sync API runs an event loop
    on this one, where Django refuses a query)."""
    from django.db import connection

    from games.models import Game

    def read() -> int:
        try:
            return Game.objects.values_list("version", flat=True).get(pk=game.pk)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(read).result()


def audit(url: str, port: int, preset: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        command = [str(ROOT / "node_modules" / ".bin" / "lighthouse"), url, f"--port={port}", "--quiet",
                   "--output=json", f"--output-path={out}", "--only-categories=performance",
                   "--disable-storage-reset"]
        if preset == "desktop":
            command.append("--preset=desktop")
        subprocess.run(command, check=True, timeout=300, stdout=subprocess.DEVNULL)
        report = json.loads(out.read_text())
    audits = report["audits"]
    long_tasks = [item["duration"] for item in (audits.get("long-tasks", {}).get("details") or {}).get("items", [])]
    return {"score": round(report["categories"]["performance"]["score"] * 100),
            "tbt": audits["total-blocking-time"]["numericValue"],
            "long_tasks": long_tasks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", default="mobile,desktop")
    parser.add_argument("--warm", type=float, default=10.0, help="seconds of play before the first audit")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    results = []
    with benchmark_database(prefix="lhlive_") as database, tempfile.TemporaryDirectory() as logs:
        from django.db import connection

        viewer = make_players(1, "lighthouse")[0]
        playing, waiting = rooms(viewer.user)
        connection.close()
        site = Site(database, 1, 1, Path(logs))
        try:
            wait_for_site(site)
            time.sleep(args.warm)
            port = free_port()
            with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
                browser = playwright.chromium.launch_persistent_context(
                    profile, executable_path=CHROMIUM, args=[*FLAGS, f"--remote-debugging-port={port}"], headless=True)
                name, value = viewer.headers["Cookie"].split(";")[0].split("=", 1)
                browser.add_cookies([{"name": name, "value": value, "url": site.base}])
                for label, game in (("Hexland room, AI seats playing (spectator)", playing),
                                    ("Hexland room waiting for the viewer (floor)", waiting)):
                    for preset in args.presets.split(","):
                        before = moves_made(game)
                        result = audit(f"{site.base}/games/{game.pk}/", port, preset)
                        results.append((label, preset, dict(result, moves=moves_made(game) - before)))
                browser.close()
        finally:
            site.stop()
    print("| page | preset | moves played during the audit | performance | total blocking time | "
          "long tasks (count, longest) |")
    print("|---|---|---|---|---|---|")
    for label, preset, result in results:
        tasks = result["long_tasks"]
        longest = f"{max(tasks):.0f} ms" if tasks else "-"
        print(f"| {label} | {preset} | {result['moves']} | {result['score']} | {result['tbt']:.0f} ms | {len(tasks)}, {longest} |")


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexsite.settings")
    main()
