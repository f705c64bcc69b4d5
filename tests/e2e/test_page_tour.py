"""The pages the flows of the other browser tests do not reach, at desktop and phone widths, so
that every page of the site goes through the checks of tests/e2e/checks.py (axe-core, no
sideways scrolling, no console error): a signed-in organiser with a running league, a game in
play of each kind, their profile and the admin's front page."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from games.leagues import services as leagues
from games.leagues.models import League
from tests.e2e.conftest import log_in
from tests.support.factories import hexland_room, hextension_place

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_every_other_page_passes_the_checks(live_server, browser, viewport, django_user_model, make_user):
    boss = django_user_model.objects.create_superuser("boss", "boss@example.com", "a-long-pass-phrase")
    ana, bo = make_user("ana"), make_user("bo")
    league = leagues.create_league(organiser=boss, name="Autumn league", tiles_per_round=2, round_hours=48, season_games=2,
                                   entry=League.Entry.OPEN, schedule=League.Schedule.SEQUENTIAL,
                                   starts_at=timezone.now() + timedelta(days=1))
    for user in (boss, ana, bo):
        leagues.enter_league(league_id=league.pk, user=user)
    leagues.start_season(league_id=league.pk, by_user=boss)
    waiting = leagues.create_league(organiser=boss, name="Winter league", tiles_per_round=2, round_hours=48, season_games=2,
                                    entry=League.Entry.OPEN, schedule=League.Schedule.SEQUENTIAL,
                                    starts_at=timezone.now() + timedelta(days=3))
    solo = services.create_game(kind="hextremadura", config={"players": 1}, players=[boss])
    services.start_game(game_id=solo.pk)

    context = browser.new_context(viewport)
    log_in(context, live_server.url, boss)
    page = context.new_page()
    urls = [
        reverse("home"), reverse("dashboard"), reverse("finished_games"), reverse("profile"),
        reverse("player", args=["ana"]), reverse("league_list"), reverse("league_new"),
        reverse("league_detail", args=[league.pk]), reverse("league_detail", args=[waiting.pk]),
        reverse("hextension_lobby"), reverse("hextension_new"), reverse("hexland_lobby"), reverse("hexland_new"),
        reverse("hexland_rules"), reverse("hextremadura_home"), reverse("game_detail", args=[solo.pk]),
        reverse("game_detail", args=[league.games.first().pk]), reverse("account_email"),
        reverse("account_change_password"), reverse("admin:index"), reverse("admin:accounts_user_changelist"),
    ]
    for url in urls:
        response = page.goto(live_server.url + url)
        assert response.status == 200, url

    visitor = browser.new_context(viewport).new_page()  # signed out
    for url in (reverse("home"), reverse("account_login"), reverse("account_signup"), reverse("account_reset_password")):
        assert visitor.goto(live_server.url + url).status == 200, url


# Init scripts are not subject to the site's CSP; a selector needs no script of the test's own.
SOCKET_OPEN = "document.addEventListener('hexsite:live-open', () => { document.documentElement.dataset.liveOpen = '1' })"


def test_live_game_pages_need_no_exception_to_the_content_security_policy(asgi_live_server, browser, viewport, make_user):
    """Game pages served as `make run` serves them (Daphne, their sockets open), under the site's
    real policy (no ``bypass_csp``): a pushed round and a submitted one raise no CSP violation
    (the page checks report the ``securitypolicyviolation`` event) and no console error."""
    ana, bo = make_user("ana"), make_user("bo")
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2},
                                players=[ana, bo], turn_seconds=86400)
    services.start_game(game_id=game.pk)
    solo = services.create_game(kind="hextremadura", config={"players": 1}, players=[bo])
    services.start_game(game_id=solo.pk)
    room = hexland_room(ana, bo)

    context = browser.new_context(viewport)
    context.add_init_script(SOCKET_OPEN)
    log_in(context, asgi_live_server, bo)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{asgi_live_server}/games/{solo.pk}/")
    page.goto(f"{asgi_live_server}/games/{room.pk}/")
    page.locator("html[data-live-open]").wait_for(state="attached")
    page.goto(f"{asgi_live_server}/games/{game.pk}/")
    page.locator("html[data-live-open]").wait_for(state="attached")

    hextension_place(game, ana, 0)  # pushed to Bo's page
    page.locator('#hx-progress[data-version="1"]').wait_for()
    for index, select in enumerate(page.locator("select.hx-select").all()):
        select.select_option(index=index + 1)
    page.get_by_role("button", name="Submit round 1").click()
    page.get_by_role("heading", name="Round 2 of 10").wait_for()
