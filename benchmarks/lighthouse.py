"""Lighthouse over the main pages of a running site, on its mobile and desktop presets.

    make run HEXSITE_PORT=8300                     # in one terminal
    make lighthouse HEXSITE_PORT=8300              # in another: same checkout, same database

It makes (once) a player with a Hextension game, a league and today's Hextremadura puzzle,
signs in as that player for the signed-in pages (a session cookie sent with every request),
runs the `lighthouse` npm package (package.json) with Debian's Chromium, and prints the four
category scores of each page and preset. docs/lighthouse.md has the last table."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hexsite.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = "--headless --no-sandbox --disable-gpu --disable-background-networking"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]


def player(name: str, **fields):
    from allauth.account.models import EmailAddress

    users = get_user_model()
    user = users.objects.filter(username=name).first()
    if user is None:
        user = users.objects.create_user(name, f"{name}@example.com", "a-long-pass-phrase", **fields)
        # the site may have recorded the address already (a new user's own): verify it either way
        EmailAddress.objects.update_or_create(user=user, email=user.email, defaults={"verified": True, "primary": True})
    users.objects.filter(pk=user.pk).update(**fields)
    return users.objects.get(pk=user.pk)


def pages() -> tuple[list[tuple[str, str]], str]:
    """(name, path) of each page, and the signed-in player's session cookie."""
    from games import services
    from games.leagues import services as leagues
    from games.leagues.models import League
    from games.models import Game

    ana, bo = player("lighthouse-ana", is_superuser=True), player("lighthouse-bo")  # ana organises a league
    game = Game.objects.filter(kind="hextension", seats__user=ana).order_by("-pk").first()
    if game is None:
        game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2},
                                    players=[ana, bo], turn_seconds=86400)
        services.start_game(game_id=game.pk)
    league = League.objects.filter(organiser=ana).first()
    if league is None:
        league = leagues.create_league(organiser=ana, name="Lighthouse league", tiles_per_round=2, round_hours=48,
                                       season_games=2, entry=League.Entry.OPEN, schedule=League.Schedule.SEQUENTIAL,
                                       starts_at=timezone.now() + timedelta(days=1))
        for user in (ana, bo):
            leagues.enter_league(league_id=league.pk, user=user)
    client = Client(HTTP_HOST="127.0.0.1")  # a host the settings allow
    client.force_login(ana)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    daily = client.post(reverse("hextremadura_daily"))  # today's puzzle: the player's game of it
    assert daily.status_code == 302, daily.status_code
    signed_out = [("home", reverse("home")), ("login", reverse("account_login")),
                  ("signup", reverse("account_signup"))]
    signed_in = [("dashboard", reverse("dashboard")), ("profile", reverse("profile")),
                 ("Hextension lobby", reverse("hextension_lobby")), ("Hexland rooms", reverse("hexland_lobby")),
                 ("Hexland rules", reverse("hexland_rules")), ("Hextension game", reverse("game_detail", args=[game.pk])),
                 ("Hextremadura", reverse("hextremadura_home")), ("Hextremadura daily", daily["Location"]),
                 ("leagues", reverse("league_list")), ("league standings", reverse("league_detail", args=[league.pk]))]
    return [(n, p, None) for n, p in signed_out] + [(n, p, cookie) for n, p in signed_in], cookie


def lighthouse(url: str, preset: str, cookie: str | None) -> dict[str, int]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        command = [str(ROOT / "node_modules" / ".bin" / "lighthouse"), url, "--quiet", "--output=json",
                   f"--output-path={out}", f"--chrome-flags={CHROME_FLAGS}",
                   f"--only-categories={','.join(CATEGORIES)}"]
        if preset == "desktop":
            command.append("--preset=desktop")
        if cookie:
            command.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
        subprocess.run(command, check=True, env=dict(os.environ, CHROME_PATH=CHROMIUM), timeout=300,
                       stdout=subprocess.DEVNULL)
        report = json.loads(out.read_text())
    failed = [a["id"] for a in report["audits"].values()
              if a.get("score") is not None and a["score"] < 0.9 and a.get("scoreDisplayMode") in ("binary", "numeric")
              and not a["id"].startswith(("largest-contentful", "first-contentful", "speed-index", "interactive",
                                          "total-blocking", "max-potential"))]
    scores = {c: round(report["categories"][c]["score"] * 100) for c in CATEGORIES}
    return {**scores, "flagged": failed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=f"http://{os.environ.get('HEXSITE_HOST', '127.0.0.1')}:"
                                          f"{os.environ.get('HEXSITE_PORT', '8000')}")
    parser.add_argument("--presets", default="mobile,desktop")
    parser.add_argument("--pages", help="only these pages (names as printed, comma-separated)")
    args = parser.parse_args()
    listed, _ = pages()
    print(f"| page | preset | {' | '.join(CATEGORIES)} | flagged |")
    print("|---|---|" + "---|" * len(CATEGORIES) + "---|")
    only = set(args.pages.split(",")) if args.pages else None
    for name, path, cookie in listed:
        if only and name not in only:
            continue
        for preset in args.presets.split(","):
            result = lighthouse(args.base + path, preset, cookie)
            flagged = ", ".join(result["flagged"]) or ""
            print(f"| {name} | {preset} | {' | '.join(str(result[c]) for c in CATEGORIES)} | {flagged} |", flush=True)


if __name__ == "__main__":
    main()
