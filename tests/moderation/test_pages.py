"""The players' pages of moderation: report from a profile, a game or a chat message; block."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import ChatMessage, Game
from games.services import chat
from moderation import services as moderation
from moderation.models import Block, Report
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db


def test_a_report_from_a_profile_thanks_the_reporter_and_lists_it_open(client, make_user):
    ana, bo = make_user("ana"), make_user("bo", display_name="Bad Name")
    client.force_login(ana)
    profile = client.get(reverse("player", args=["bo"])).content.decode()
    assert reverse("report_player", args=["bo"]) in profile and "Block Bad Name" in profile
    form = client.get(reverse("report_player", args=["bo"]))
    assert form.status_code == 200 and "Offensive name" in form.content.decode()
    response = client.post(reverse("report_player", args=["bo"]), {"reason": "offensive_name", "text": "see it"},
                           follow=True)
    page = response.content.decode()
    assert "Thank you: staff will look at your report about Bad Name" in page and "Open" in page
    assert Report.objects.get().reason == "offensive_name"
    again = client.post(reverse("report_player", args=["bo"]), {"reason": "offensive_name"})
    assert again.status_code == 409 and "already reported" in again.content.decode()
    assert client.post(reverse("report_player", args=["bo"]), {"reason": "nonsense"}).status_code == 400
    assert client.post(reverse("report_player", args=["bo"]), {"reason": "other", "text": "x" * 1001}).status_code == 400
    assert Report.objects.count() == 1
    client.force_login(bo)
    assert "Block" not in client.get(reverse("player", args=["bo"])).content.decode()  # not oneself


def test_game_pages_and_chat_messages_link_to_a_report_with_their_context(client, make_user):
    ana, bo, watcher = make_user("ana"), make_user("bo"), make_user("watcher")
    game = toy_game(ana, bo)
    message = chat.post_message(game_id=game.pk, user=bo, text="rude")
    client.force_login(ana)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    by_game = f'{reverse("report_player", args=["bo"])}?game={game.pk}'
    by_message = f'{reverse("report_player", args=["bo"])}?message={message.pk}'
    assert by_game in page and by_message in page and reverse("report_player", args=["ana"]) not in page
    assert "rude" in client.get(by_message).content.decode()
    client.post(reverse("report_player", args=["bo"]), {"reason": "chat_abuse", "message": message.pk})
    report = Report.objects.get()
    assert (report.chat_message, report.game) == (message, game)
    # A message of a private game, or one not by this player, cannot be reported through this door.
    secret = toy_game(bo, watcher, visibility=Game.Visibility.PRIVATE)
    hidden = chat.post_message(game_id=secret.pk, user=bo, text="in private")
    assert client.get(f'{reverse("report_player", args=["bo"])}?message={hidden.pk}').status_code == 403
    assert client.get(f'{reverse("report_player", args=["ana"])}?message={message.pk}').status_code == 404
    assert client.get(f'{reverse("report_player", args=["bo"])}?game={secret.pk}').status_code == 403
    assert ChatMessage.objects.count() == 2 and Report.objects.count() == 1


def test_a_muted_player_sees_until_when_in_the_chat_and_a_post_is_refused(client, make_user, moderator):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    moderation.mute(actor=moderator, user=bo, days=2, reason="Insults")
    client.force_login(bo)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "You are muted in chat until" in page and 'name="text"' not in page
    refused = client.post(reverse("game_chat", args=[game.pk]), {"text": "hi"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 403 and "muted in chat until" in refused.content.decode()
    assert not ChatMessage.objects.exists()


def test_blocking_and_unblocking_from_a_profile(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    client.force_login(ana)
    client.post(reverse("block_player", args=["bo"]))
    assert Block.objects.filter(blocker=ana, blocked=bo).exists()
    assert "Unblock bo" in client.get(reverse("player", args=["bo"])).content.decode()
    assert "bo" in client.get(reverse("my_reports")).content.decode()
    client.post(reverse("block_player", args=["bo"]), {"unblock": "1"})
    assert not Block.objects.exists()
    assert client.post(reverse("block_player", args=["ana"])).status_code == 400
    assert client.get(reverse("block_player", args=["bo"])).status_code == 405


def test_every_door_into_a_new_game_tells_a_banned_player_until_when_and_why(client, make_user, moderator):
    from datetime import timedelta

    from django.contrib.auth.models import Permission
    from django.utils import timezone

    from games import services
    from games.leagues import services as leagues
    from games.leagues.models import League

    ana, bo = make_user(), make_user()
    open_game = services.create_game(kind="toy", config={"players": 2, "target": 15}, created_by=ana)
    finished = toy_game(bo, ana, target=3)
    services.submit_move(game_id=finished.pk, user=bo, move={"type": "add", "n": 3}, expected_version=finished.version)
    ana.user_permissions.add(Permission.objects.get(codename="organise_leagues"))
    league = leagues.create_league(organiser=type(ana).objects.get(pk=ana.pk), name="L", tiles_per_round=2,
                                   round_hours=48, season_games=1, entry=League.Entry.OPEN,
                                   schedule=League.Schedule.SEQUENTIAL, starts_at=timezone.now() + timedelta(days=1))
    moderation.play_ban(actor=moderator, user=bo, days=5, reason="Abandons games")
    client.force_login(bo)
    games_before = Game.objects.count()
    doors = [
        (reverse("hextension_new"), {"visibility": "public", "players": 2, "tiles_per_round": 2,
                                     "round_deadline": 86400, "ai_seats": 0, "ai_level": "strong"}),
        (reverse("hexland_new"), {"visibility": "public", "players": 2, "seat_2": "open", "seat_3": "open",
                                  "seat_4": "open", "timers": "normal", "vp_to_win": 10, "board": "beginner",
                                  "discard_limit": 7, "max_turns": 200}),
        (reverse("hextremadura_new"), {}),
        (reverse("hextremadura_daily"), {}),
        (reverse("game_join", args=[open_game.invite_token]), {}),
        (reverse("game_rematch", args=[finished.pk]), {}),
        (reverse("league_enter", args=[league.pk]), {}),
    ]
    for url, data in doors:
        response = client.post(url, data)
        page = response.content.decode()
        assert response.status_code == 403, url
        assert "You are banned from play until" in page and "Abandons games" in page, url
    assert Game.objects.count() == games_before and not league.entries.exists()


ROOM = {"visibility": "public", "players": 2, "seat_2": "open", "seat_3": "open", "seat_4": "open",
        "timers": "normal", "vp_to_win": 10, "board": "beginner", "discard_limit": 7, "max_turns": 200}


def test_a_hexland_room_and_a_daily_puzzle_page_link_to_a_report_of_their_player(client, make_user):
    from games.services import adjudication

    ana, bo = make_user("ana"), make_user("bo")
    client.force_login(ana)
    client.post(reverse("hexland_new"), ROOM)
    room = Game.objects.get(kind="hexland")
    client.force_login(bo)
    client.post(reverse("game_join", args=[room.invite_token]))
    page = client.get(reverse("game_detail", args=[room.pk])).content.decode()
    assert f'{reverse("report_player", args=["ana"])}?game={room.pk}' in page
    # A daily puzzle: another player may open it once they have finished the day's puzzle.
    client.force_login(ana)
    client.post(reverse("hextremadura_daily"))
    client.force_login(bo)
    client.post(reverse("hextremadura_daily"))
    ana_daily = Game.objects.get(kind="hextremadura", created_by=ana)
    bo_daily = Game.objects.get(kind="hextremadura", created_by=bo)
    adjudication.end_game(game_id=bo_daily.pk, by_user=make_user(is_staff=True), reason="test", scores=[40])
    page = client.get(reverse("game_detail", args=[ana_daily.pk]))
    assert page.status_code == 200
    assert f'{reverse("report_player", args=["ana"])}?game={ana_daily.pk}' in page.content.decode()
    response = client.post(reverse("report_player", args=["ana"]), {"reason": "cheating", "game": ana_daily.pk})
    assert response.status_code == 302 and Report.objects.get().game == ana_daily
