"""A game e-mail's link leads to the site where it is served: `make run` on another port gives
the e-mails that port (SITE_URL from HEXSITE_HOST / HEXSITE_PORT, as the sign-up e-mails have)."""
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.core import mail

from games import services
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


def site_url_as_make_run_sets_it(host: str, port: int) -> str:
    """SITE_URL as the settings read it in a process started by `make run` (which exports
    HEXSITE_HOST and HEXSITE_PORT) with no SITE_URL of its own."""
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    env.update(HEXSITE_HOST=host, HEXSITE_PORT=str(port), DJANGO_SETTINGS_MODULE="hexsite.settings")
    result = subprocess.run([sys.executable, "-c", "from django.conf import settings; print(settings.SITE_URL)"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True)
    return result.stdout.strip()


def test_a_round_e_mail_links_to_the_game_on_the_port_the_site_is_served_on(live_server, browser, make_user, settings):
    address = urlsplit(live_server.url)
    settings.SITE_URL = site_url_as_make_run_sets_it(address.hostname, address.port)
    assert settings.SITE_URL == live_server.url

    ana, bo = make_user("ana"), make_user("bo")
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2},
                                players=[ana, bo], turn_seconds=86400)
    services.start_game(game_id=game.pk)
    mail.outbox.clear()
    services.notify_progress(game_id=game.pk, turn_changed=True, timed_out=[])
    message = next(m for m in mail.outbox if m.to == [ana.email] and "is open" in m.subject)
    link = re.search(r"https?://\S+", message.body).group(0)
    assert link == f"{live_server.url}/games/{game.pk}/"

    context = browser.new_context("desktop")
    log_in(context, live_server.url, ana)
    page = context.new_page()
    assert page.goto(link).status == 200
    page.get_by_role("heading", name=re.compile(r"^Round 1 of \d+$")).wait_for()
