"""What staff and the players they act on see (issue 49): a game ended by staff shows its end
and who decided it, at once on open pages; a banned player is offered no rematch; a refusal is
said once; blocked messages are counted, not passed off as an empty chat; times carry their
zone and end a sentence with one full stop."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from games import consumers, live
from games.leagues import services as leagues
from games.leagues.models import League
from games.models import Game
from games.services import chat
from moderation import services as moderation
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db


def _regions(frames: list[str]) -> dict[str, str]:
    out = {}
    for frame in frames:
        out.update({region["id"]: region["html"] for region in json.loads(frame)["regions"]})
    return out


def _league_game(make_user) -> tuple[Game, list]:
    orga = make_user("orga")
    orga.user_permissions.add(Permission.objects.get(codename="organise_leagues"))
    orga = type(orga).objects.get(pk=orga.pk)
    league = leagues.create_league(organiser=orga, name="Summer league", tiles_per_round=2, round_hours=48,
                                   season_games=1, entry=League.Entry.OPEN, schedule=League.Schedule.PARALLEL,
                                   starts_at=timezone.now() + timedelta(days=1))
    players = [make_user("ana"), make_user("bo")]
    for user in players:
        leagues.enter_league(league_id=league.pk, user=user)
    (game,) = leagues.start_season(league_id=league.pk, by_user=orga)
    return game, players


def test_a_game_ended_by_staff_shows_its_result_and_who_decided_at_once(client, make_user, django_user_model):
    game, (ana, bo) = _league_game(make_user)
    page = consumers.Page()
    consumers.catch_up(game.pk, ana, page, page_stamp=live.stamp_of(Game.objects.get(pk=game.pk)))
    root = django_user_model.objects.create_superuser("root", "root@example.com", "a-long-pass-phrase")
    client.force_login(root)
    done = client.post(reverse("admin:games_game_adjudicate", args=[game.pk]),
                       {"decision": "result", "scores": "100, 50", "reason": "Bo's connection failed for days"})
    assert done.status_code == 302

    pushed = _regions(consumers.catch_up(game.pk, ana, page))  # what ana's open page is sent
    client.force_login(ana)
    reloaded = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    for html in (pushed["hx-head"] + pushed["game-status"] + pushed["hx-play"] + pushed["hx-standings"], reloaded):
        assert "Round 1 of" not in html and "Final result" in html
        assert "The staff (root) decided this game's result: Bo&#x27;s connection failed for days" in html
        assert 'id="hx-form"' not in html and 'id="hx-standings-heading"' not in html  # no running table
    head = pushed["hx-head"]  # the staff's scores, by rank
    assert head.index('<th scope="row">ana</th><td>100</td>') < head.index('<th scope="row">bo</th><td>50</td>')
    # The decision is at the top, in the status bar, not under the chat.
    assert reloaded.index("decided this game") < reloaded.index('id="game-chat"')


def test_a_play_banned_player_is_offered_no_rematch_they_cannot_use(client, make_user, moderator):
    ana, bo = make_user("ana"), make_user("bo")
    game = toy_game(ana, bo, target=3)
    from games import services

    services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 3}, expected_version=game.version)
    moderation.play_ban(actor=moderator, user=bo, days=3, reason="Leaves games")
    client.force_login(bo)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Rematch with the same seats" not in page
    assert client.post(reverse("game_rematch", args=[game.pk])).status_code == 403
    client.force_login(ana)  # the control: not banned, offered
    assert "Rematch with the same seats" in client.get(reverse("game_detail", args=[game.pk])).content.decode()


def test_a_refusal_is_said_once_and_a_refused_page_offers_no_form(client, make_user, moderator):
    colleague = make_user("colleague", is_staff=True)
    client.force_login(moderator)
    refused = client.get(reverse("admin:accounts_user_moderate", args=[colleague.pk]))
    text = refused.content.decode()
    assert refused.status_code == 403
    assert text.count("only a superuser can act on a staff account") == 1
    assert 'name="action"' not in text and 'type="submit" value="Apply and record"' not in text

    game = toy_game(make_user("ana"), make_user("bo"))
    wrong = client.post(reverse("admin:games_game_adjudicate", args=[game.pk]),
                        {"decision": "result", "scores": "1", "reason": "x"})
    assert wrong.status_code == 400
    assert wrong.content.decode().count("Give one whole-number score per seat (2).") == 1


def test_blocked_messages_are_counted_and_shown_on_request_not_an_empty_chat(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    game = toy_game(ana, bo)
    chat.post_message(game_id=game.pk, user=bo, text="first of bo")
    chat.post_message(game_id=game.pk, user=bo, text="second of bo")
    moderation.block(blocker=ana, blocked=bo)
    client.force_login(ana)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    chat_part = page[page.index('id="game-chat"'):]
    assert "No messages yet." not in chat_part
    assert "2 messages hidden (blocked)" in chat_part
    hidden = chat_part[chat_part.index("<details"):chat_part.index("</details>")]
    assert "first of bo" in hidden and "second of bo" in hidden  # opened, they show
    client.force_login(bo)  # bo's own chat is as before
    own = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "messages hidden" not in own and "second of bo" in own


def test_a_reports_time_has_its_zone_and_one_full_stop(client, make_user, moderator):
    ana, bo = make_user("ana"), make_user("bo")
    report = moderation.file_report(reporter=ana, target=bo, reason="cheating", text="same moves")
    client.force_login(moderator)
    page = client.get(reverse("admin:moderation_report_act", args=[report.pk])).content.decode()
    when = timezone.localtime(report.created_at, timezone.get_default_timezone())
    said = page[page.index("<strong>Cheating"):]
    said = said[:said.index("</p>")]
    assert said.endswith(f"by ana on {when.day} {when:%b %Y}, {when:%H:%M} UTC.")  # was "7:28 a.m.."
