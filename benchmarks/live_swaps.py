"""What the live page's swaps cost a phone: a Hexland room of four AI seats playing at the fast
preset, watched in Debian's Chromium at 390x844 with the CPU slowed 4x (as Lighthouse's mobile
preset does), for ``--seconds``.

The site runs as ``make load`` runs it (``load.Site``: Daphne, a Celery worker playing the AI
seats, beat) on a throw-away database. The page measures each frame it applies
(``performance.measure("live-apply")``, static/js/live.js) and the browser reports long tasks
(over 50 ms). Printed: frames applied, the time of a swap (p50/p95/max), long tasks over 50 and
over 200 ms, and how many of those overlap a swap.

    .venv/bin/python -m hexsite.localservices -- .venv/bin/python benchmarks/live_swaps.py
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from load import Site, make_players, wait_for_site  # noqa: I001 (also sets the site's environment)
from _django import benchmark_database, percentile

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
OBSERVE = """
window.__longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]); })
  .observe({type: 'longtask', buffered: true});
"""


def room_of_ais(creator):
    from games import services

    game = services.create_game(kind="hexland", config={"players": 4, "layout": "fixed", "timers": "fast"},
                                created_by=creator, ai_seats={i: "easy" for i in range(4)}, join=False,
                                turn_seconds=60)
    services.start_game(game_id=game.pk)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the page watches (default 60)")
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slow-down of the page (default 4)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with benchmark_database(prefix="swaps_") as database, tempfile.TemporaryDirectory() as logs:
        from django.db import connection

        viewer = make_players(1, "watcher")[0]
        game = room_of_ais(viewer.user)
        connection.close()
        site = Site(database, 1, 1, Path(logs))
        try:
            wait_for_site(site)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
                context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                              has_touch=True, device_scale_factor=2)
                name, value = viewer.headers["Cookie"].split(";")[0].split("=", 1)
                context.add_cookies([{"name": name, "value": value, "url": site.base}])
                context.add_init_script(OBSERVE)
                page = context.new_page()
                page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
                page.goto(f"{site.base}/games/{game.pk}/")
                time.sleep(args.seconds)
                swaps = page.evaluate("performance.getEntriesByName('live-apply').map(e => [e.startTime, e.duration])")
                long_tasks = page.evaluate("window.__longTasks")
                stamp = page.evaluate("window.hexsiteLivePage.stamp()")
                browser.close()
        finally:
            site.stop()
    durations = [d for _, d in swaps]

    def overlaps(task):
        start, length = task
        return any(s < start + length and start < s + d for s, d in swaps)

    over_50 = [t for t in long_tasks if t[1] > 50]
    over_200 = [t for t in long_tasks if t[1] > 200]
    print(f"Hexland room, 4 AI seats at the fast preset, watched for {args.seconds:.0f} s at 390x844, "
          f"CPU slowed {args.throttle:g}x; the page reached version {stamp.split('.')[0]}")
    if durations:
        print(f"  frames applied: {len(durations)}; a swap p50 {percentile(durations, 50):.1f} ms, "
              f"p95 {percentile(durations, 95):.1f} ms, max {max(durations):.1f} ms")
    else:
        print("  frames applied: 0")
    print(f"  long tasks over 50 ms: {len(over_50)} ({sum(map(overlaps, over_50))} during a swap); "
          f"over 200 ms: {len(over_200)} ({sum(map(overlaps, over_200))} during a swap)")


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexsite.settings")
    main()
