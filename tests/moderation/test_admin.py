"""The moderation admin: who reaches it, what a moderator can and cannot do there."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from games.models import Game
from moderation import services as moderation
from moderation.models import ModerationRecord, Report, Sanction
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def reported(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = toy_game(ana, bo)
    from games.services import chat

    message = chat.post_message(game_id=game.pk, user=bo, text="you play like a potato")
    report = moderation.file_report(reporter=ana, target=bo, reason="chat_abuse", text="insults", chat_message=message)
    moderation.file_report(reporter=ana, target=bo, reason="stalling", game=game)
    return ana, bo, game, report


def test_nobody_but_staff_reaches_any_of_it(client, make_user, reported):
    ana, bo, game, report = reported
    urls = [reverse("admin:moderation_report_changelist"), reverse("admin:moderation_report_act", args=[report.pk]),
            reverse("admin:accounts_user_moderate", args=[bo.pk]), reverse("admin:games_game_adjudicate", args=[game.pk]),
            reverse("admin:moderation_moderationrecord_changelist")]
    client.force_login(ana)
    for url in urls:
        assert client.get(url).status_code == 302, url  # to the admin's log-in page
        assert client.post(url, {"action": "mute", "days": 3, "reason": "x"}).status_code == 302
    # Staff without the moderation permission read nothing of it and act on nothing.
    client.force_login(make_user(is_staff=True))
    for url in urls:
        assert client.get(url).status_code == 403, url
    assert not Sanction.objects.exists() and not ModerationRecord.objects.exists()


def test_a_moderator_sees_the_queue_with_context_and_history_and_mutes_from_a_report(client, moderator, reported):
    ana, bo, game, report = reported
    moderation.warn(actor=moderator, user=bo, reason="Earlier warning")
    client.force_login(moderator)
    queue = client.get(reverse("admin:moderation_report_changelist"))
    assert queue.status_code == 200 and len(queue.context["cl"].result_list) == 2
    assert [r.pk for r in client.get(reverse("admin:moderation_report_changelist"),
                                     {"reason__exact": "chat_abuse", "age": "day", "target__id__exact": bo.pk}
                                     ).context["cl"].result_list] == [report.pk]
    assert client.get(reverse("admin:moderation_report_changelist"), {"age": "older"}).context["cl"].result_list.count() == 0
    page = client.get(reverse("admin:moderation_report_change", args=[report.pk])).content.decode()
    assert "you play like a potato" in page and reverse("game_detail", args=[game.pk]) in page
    assert "Earlier warning" in page and "Stalling or leaving games" in page  # the target's history
    assert "<h2>History of bo</h2>" in page and "&lt;h2&gt;" not in page  # drawn, not escaped
    act = reverse("admin:moderation_report_act", args=[report.pk])
    assert client.post(act, {"action": "mute", "reason": "Insults"}).status_code == 400  # days needed
    assert client.post(act, {"action": "mute", "days": 3, "reason": "Insults"}).status_code == 302
    assert Sanction.objects.get(user=bo).kind == "mute"
    report.refresh_from_db()
    assert report.status == "closed"
    # From the user's page: a play ban with the escalating default.
    moderate = reverse("admin:accounts_user_moderate", args=[bo.pk])
    assert "1 day" in client.get(moderate).content.decode()
    assert client.post(moderate, {"action": "play_ban", "reason": "Leaves games"}).status_code == 302
    assert Sanction.objects.filter(user=bo, kind="play_ban").count() == 1
    user_page = client.get(reverse("admin:accounts_user_change", args=[bo.pk])).content.decode()
    assert "Leaves games" in user_page and "Insults" in user_page  # record and sanctions inline


def test_bulk_actions_are_moderation_ones_and_ask_a_reason(client, moderator, reported):
    ana, bo, game, report = reported
    client.force_login(moderator)
    url = reverse("admin:moderation_report_changelist")
    ids = list(Report.objects.values_list("pk", flat=True))
    form = client.post(url, {"action": "dismiss_reports", "_selected_action": ids})
    assert form.status_code == 200 and "reason" in form.content.decode()
    assert Report.objects.filter(status="open").count() == 2
    client.post(url, {"action": "dismiss_reports", "_selected_action": ids, "apply": "1", "reason": "Nothing there"})
    assert not Report.objects.filter(status="open").exists()
    assert ModerationRecord.objects.filter(action="dismiss").count() == 2
    from django.contrib import admin
    from django.test import RequestFactory

    request = RequestFactory().get("/admin/")
    request.user = moderator
    for model_admin in admin.site._registry.values():
        assert "delete_selected" not in model_admin.get_actions(request), model_admin


def test_a_moderator_cannot_change_passwords_permissions_or_play(client, moderator, reported, make_user):
    ana, bo, game, report = reported
    client.force_login(moderator)
    password = reverse("admin:auth_user_password_change", args=[bo.pk])
    assert client.get(password).status_code == 403
    assert client.post(password, {"password1": "a-new-pass-phrase-9", "password2": "a-new-pass-phrase-9"}).status_code == 403
    bo.refresh_from_db()
    assert bo.check_password("a-long-pass-phrase")
    change = reverse("admin:accounts_user_change", args=[bo.pk])
    promote = Permission.objects.get(codename="moderate_users")
    assert client.post(change, {"username": "bo", "is_superuser": "on", "user_permissions": [promote.pk]}
                       ).status_code == 403
    bo.refresh_from_db()
    assert not bo.is_superuser and not bo.user_permissions.exists()
    assert client.post(reverse("admin:auth_group_change", args=[moderator.groups.get().pk]),
                       {"name": "Moderators", "permissions": [p.pk for p in Permission.objects.all()]}).status_code == 403
    game_change = reverse("admin:games_game_change", args=[game.pk])
    assert client.post(game_change, {"title": "Renamed", "status": "finished"}).status_code == 403
    assert client.get(reverse("admin:games_seat_changelist")).status_code == 200  # reads seats
    assert client.get(reverse("admin:games_moveevent_changelist")).status_code == 403  # not even moves
    game.refresh_from_db()
    assert (game.title, game.status) == ("", Game.Status.ACTIVE)


def test_the_moderators_group_holds_exactly_what_moderation_needs(moderators_group):
    codenames = set(moderators_group.permissions.values_list("content_type__app_label", "codename"))
    assert ("moderation", "moderate_users") in codenames
    assert not {c for _, c in codenames if c.startswith(("add_", "change_", "delete_"))}
    assert ("auth", "change_user") not in codenames and ("accounts", "change_user") not in codenames


def test_a_moderator_adjudicates_from_the_game_page_of_the_admin(client, moderator, reported):
    ana, bo, game, report = reported
    client.force_login(moderator)
    url = reverse("admin:games_game_adjudicate", args=[game.pk])
    assert client.post(url, {"decision": "result", "scores": "1", "reason": "x"}).status_code == 400
    assert client.post(url, {"decision": "abort", "reason": "Both asked for it"}).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    assert ModerationRecord.objects.get(action="abort_game").game == game


def test_a_moderator_cannot_suspend_a_staff_account_from_the_admin_and_is_told_why(client, moderator, make_user,
                                                                                   django_user_model):
    """POST /admin/accounts/user/<id>/moderate/ with action=suspend&days=1 on a staff (not
    superuser) account suspended it; now the page refuses, saying a superuser is needed."""
    colleague = make_user("colleague", is_staff=True)
    client.force_login(moderator)
    moderate = reverse("admin:accounts_user_moderate", args=[colleague.pk])
    page = client.get(moderate)
    assert page.status_code == 403
    assert "only a superuser can act on a staff account" in page.content.decode()
    for action in ("suspend", "close", "mute", "warn"):
        refused = client.post(moderate, {"action": action, "days": 1, "reason": "x"})
        assert refused.status_code == 403, action
        text = refused.content.decode()
        assert "colleague is a staff account: only a superuser can act on a staff account" in text
        assert "This field is required" not in text
    colleague.refresh_from_db()
    assert colleague.is_active
    assert not Sanction.objects.exists() and not ModerationRecord.objects.exists()
    # A report about a staff member is a superuser's to act on, too.
    ana = make_user("ana")
    report = moderation.file_report(reporter=ana, target=colleague, reason="cheating")
    act = reverse("admin:moderation_report_act", args=[report.pk])
    assert client.post(act, {"action": "dismiss", "reason": "x"}).status_code == 403
    # An ordinary user: the same page acts.
    ordinary = reverse("admin:accounts_user_moderate", args=[ana.pk])
    assert client.post(ordinary, {"action": "suspend", "days": 1, "reason": "Threats"}).status_code == 302
    # A superuser acts on the staff account.
    boss = django_user_model.objects.create_superuser("boss", "boss@example.com", "a-long-pass-phrase")
    client.force_login(boss)
    assert client.get(moderate).status_code == 200
    assert client.post(moderate, {"action": "suspend", "days": 1, "reason": "Abused the admin"}).status_code == 302
    colleague.refresh_from_db()
    assert not colleague.is_active
    assert list(ModerationRecord.objects.order_by("pk").values_list("actor__username", "action", "target_user")) == [
        ("mod", "suspend", ana.pk), ("boss", "suspend", colleague.pk)]
