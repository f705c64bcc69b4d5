"""The whole of moderation in the browser: a player reports another from a game, a moderator
logs into the admin, sees the report with its context, mutes and play-bans the target; the
target is told of the ban when opening a game; the reporter sees the report closed."""
import re

import pytest

from games import services
from moderation.models import Report, Sanction
from tests.e2e.conftest import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def moderators_group():
    from importlib import import_module

    from django.apps import apps
    from django.contrib.auth.models import Group

    if not Group.objects.filter(name="Moderators").exists():  # an earlier flush emptied auth's tables
        import_module("moderation.migrations.0003_moderators_group").create_group(apps, None)
    return Group.objects.get(name="Moderators")


def test_report_mute_ban_and_the_closed_report(live_server, browser, make_user):
    base = live_server.url
    ana, bo = make_user("ana"), make_user("bo", display_name="Bo the Slow")
    mod = make_user("mod", is_staff=True)
    mod.groups.add(moderators_group())
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2}, created_by=ana)
    services.join_game(game_id=game.pk, user=bo)

    # Ana reports Bo from the game's page.
    ana_context = browser.new_context()
    log_in(ana_context, base, ana)
    ana_page = ana_context.new_page()
    ana_page.set_default_timeout(20_000)
    ana_page.goto(f"{base}/games/{game.pk}/")
    ana_page.get_by_role("link", name="Report Bo the Slow").click()
    ana_page.get_by_label("Stalling or leaving games").check()
    ana_page.get_by_label("What happened").fill("Waits until the last minute of every round.")
    ana_page.get_by_role("button", name="Send the report").click()
    ana_page.wait_for_url(re.compile(r"/moderation/reports/$"))
    assert "Thank you: staff will look at your report about Bo the Slow" in ana_page.content()
    assert "Open" in ana_page.locator(".report-status").inner_text()

    # The moderator logs into the admin and finds it with its game.
    mod_page = browser.new_context().new_page()
    mod_page.set_default_timeout(20_000)
    mod_page.goto(f"{base}/admin/")
    mod_page.get_by_label("Username:").fill("mod")
    mod_page.get_by_label("Password:").fill("a-long-pass-phrase")
    mod_page.get_by_role("button", name="Log in").click()
    mod_page.get_by_role("link", name="Reports").first.click()
    mod_page.locator("#result_list tbody th a").first.click()
    mod_page.wait_for_url(re.compile(r"/change/$"))
    mod_page.wait_for_load_state()
    content = mod_page.content()
    assert "Waits until the last minute" in content and f"/games/{game.pk}/" in content
    assert "History of Bo the Slow" in content
    # Mute from the report (it closes it), then a play ban from the user's page.
    mod_page.get_by_role("link", name="Act on this report").click()
    mod_page.get_by_label("Action:").select_option("mute")
    mod_page.get_by_label("Days:").fill("3")
    mod_page.get_by_label("Reason:").fill("Rude words in chat")
    mod_page.get_by_role("button", name="Apply and record").click()
    mod_page.get_by_text("done and recorded").wait_for()
    mod_page.goto(f"{base}/admin/accounts/user/{bo.pk}/change/")
    mod_page.get_by_role("link", name=re.compile("Warn, mute, ban")).click()
    mod_page.get_by_label("Action:").select_option("play_ban")
    mod_page.get_by_label("Days:").fill("7")
    mod_page.get_by_label("Reason:").fill("Stalls every game")
    mod_page.get_by_role("button", name="Apply and record").click()
    mod_page.get_by_text("done and recorded").wait_for()
    assert set(Sanction.objects.filter(user=bo).values_list("kind", flat=True)) == {"mute", "play_ban"}
    assert Report.objects.get().status == Report.Status.CLOSED

    # Bo tries to open a game and is told until when and why.
    bo_context = browser.new_context()
    log_in(bo_context, base, bo)
    bo_page = bo_context.new_page()
    bo_page.set_default_timeout(20_000)
    bo_page.goto(f"{base}/games/hextension/new/")
    bo_page.get_by_role("button", name="Open the game").click()
    bo_page.get_by_text("You are banned from play until").wait_for()
    text = bo_page.content()
    assert "You are banned from play until" in text and "Stalls every game" in text

    # Ana sees her report closed, with its outcome in short.
    ana_page.goto(f"{base}/moderation/reports/")
    status = ana_page.locator(".report-status").inner_text()
    assert "Closed" in status and "staff took action" in status
    for context in (ana_context, bo_context, mod_page.context):
        context.close()
