"""What a new user met (issue 15): time zones offered with search and checked, the browser's
zone at sign-up, a superuser who need not verify their e-mail, game titles as the site writes
them, one "Accounts" section in the admin, the page marks that static/js/live.js reads."""
from __future__ import annotations

import io

import pytest
from allauth.account.models import EmailAddress
from django.contrib import admin
from django.core import mail
from django.core.management import call_command
from django.urls import reverse

from accounts.timezones import common_timezones, valid_timezones
from games import services
from games.models import Game
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db

PASSWORD = "hex-tiles-all-day"


def sign_up(client, username: str, **extra):
    data = {"username": username, "email": f"{username}@example.com", "password1": PASSWORD, "password2": PASSWORD, **extra}
    return client.post(reverse("account_signup"), data)


def test_the_zones_offered_are_the_common_ones_without_aliases_or_machine_files():
    zones = common_timezones()
    assert zones[0] == "UTC"
    for wanted in ("Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Sydney", "America/Sao_Paulo"):
        assert wanted in zones
    for alias in ("localtime", "posixrules", "Factory", "US/Eastern", "Asia/Calcutta", "Etc/GMT+5", "GB", "Zulu"):
        assert alias not in zones
    assert len(zones) < 450 and set(zones) <= valid_timezones()
    # A browser may still report an old name: it is a real zone, so it is accepted.
    assert "Asia/Calcutta" in valid_timezones() and "localtime" not in valid_timezones()


def test_sign_up_keeps_the_zone_the_browser_filled_in(client):
    page = client.get(reverse("account_signup")).content.decode()
    assert 'data-detect-timezone' in page and '<option value="Europe/Lisbon">Lisbon (UTC+0' in page
    assert sign_up(client, "lia", timezone="Europe/Lisbon").status_code == 302
    from accounts.models import User

    assert User.objects.get(username="lia").timezone == "Europe/Lisbon"


def test_sign_up_without_a_zone_means_utc(client):
    assert sign_up(client, "noz", timezone="").status_code == 302
    from accounts.models import User

    assert User.objects.get(username="noz").timezone == "UTC"


@pytest.mark.parametrize("zone", ["localtime", "Mars/Olympus", "posixrules", "Europe/Paris; DROP"])
def test_unknown_zones_are_refused_with_a_clear_message_and_no_account(client, zone):
    response = sign_up(client, "bad", timezone=zone)
    assert response.status_code == 200
    assert "is not a time zone we know" in response.content.decode()
    from accounts.models import User

    assert not User.objects.filter(username="bad").exists() and mail.outbox == []


def test_the_profile_takes_a_zone_typed_with_spaces_and_refuses_localtime(client, make_user):
    ana = make_user()
    client.force_login(ana)
    data = {"display_name": "", "email_notifications": "each"}
    assert client.post(reverse("profile"), {**data, "timezone": "America/New York"}).status_code == 302
    ana.refresh_from_db()
    assert ana.timezone == "America/New_York"
    response = client.post(reverse("profile"), {**data, "timezone": "localtime"})
    assert response.status_code == 400 and "is not a time zone we know" in response.content.decode()
    ana.refresh_from_db()
    assert ana.timezone == "America/New_York"


def test_a_superuser_from_createsuperuser_may_log_in_without_verifying(client, django_user_model):
    call_command("createsuperuser", interactive=False, username="boss", email="Boss@Example.com", stdout=io.StringIO())
    boss = django_user_model.objects.get(username="boss")
    boss.set_password(PASSWORD)
    boss.save()
    address = EmailAddress.objects.get(user=boss)
    assert address.verified and address.primary
    response = client.post(reverse("account_login"), {"login": "boss", "password": PASSWORD})
    assert response.status_code == 302 and "confirm-email" not in response["Location"]
    assert client.get(reverse("dashboard")).status_code == 200
    assert mail.outbox == []  # no verification mail was needed


def test_an_ordinary_sign_up_still_verifies_its_address(client):
    sign_up(client, "newbie")
    assert not EmailAddress.objects.get(email="newbie@example.com").verified


def test_default_titles_name_the_game_as_the_site_does(make_user):
    game = services.create_game(kind="hextension", config={"players": 2}, players=[make_user()])
    assert str(Game.objects.get(pk=game.pk)) == f"Hextension #{game.pk}"
    game.title = "Friday night"
    assert str(game) == "Friday night"


def test_the_admin_has_one_accounts_section():
    names = [app.verbose_name for app in {model._meta.app_config for model in admin.site._registry}]
    assert names.count("Accounts") == 1 and "Players" in names


def test_the_board_marks_the_viewers_move_for_the_tab_title(client, make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    client.force_login(ana)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    your_turn = "data-your-move" in page
    assert your_turn == (0 in Game.objects.get(pk=game.pk).awaiting)
    assert "data-seated" in page and "js/live.js" in page
    client.force_login(bo)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert ("data-your-move" in page) == (1 in Game.objects.get(pk=game.pk).awaiting) and your_turn != ("data-your-move" in page)


def test_a_hextension_board_in_words_says_what_the_picture_shows():
    from games.hextension import svg
    from games.hextension.engine.board import LINES, TILE_SET

    tile = sorted(TILE_SET)[0]
    first = LINES[0]
    board = {cell: tile for cell in first.cells}
    lines = [{"status": "open", "value": None, "values": [1, 5]} for _ in LINES]
    lines[0] = {"status": "scoring", "value": int(tile[first.direction])}
    lines[1] = {"status": "dead"}
    text = str(svg.board_text({"board": board, "lines": lines}, pending={"999": "Z9", tile: "E5"}))
    for cell in first.cells:
        assert f"<li>{cell}: {svg.describe_tile(tile)}</li>" in text
    points = int(tile[first.direction]) * len(first.cells)
    assert f"Lines: 1 full and scoring ({points} points)" in text
    assert f"{len(LINES) - 2} still open" in text and "1 can no longer score" in text
    assert f"{len(first.cells)} cells filled, {19 - len(first.cells)} empty." in text
    assert "<li>E5:" not in text or "planned this round" in text  # a cell not on the board is ignored
    assert "Z9" not in text


def test_the_hextension_page_puts_each_board_in_words(client, make_user):
    ana, bo = make_user(), make_user()
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2}, players=[ana, bo])
    services.start_game(game_id=game.pk)
    client.force_login(ana)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert page.count("The board in words") == 1 and "0 cells filled, 19 empty." in page
