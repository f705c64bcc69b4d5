"""Invitations on the pages: the host invites by username from the open game's page (a refusal
comes back beside the field with the name kept, without JavaScript; over htmx, the site's JSON
error) and cancels; the invited player accepts or declines (after a confirmation) from the
dashboard. Bots carry the BOT badge in these lists."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services
from games.models import Game, Invitation, Seat
from games.services import invitations

pytestmark = pytest.mark.django_db


def hextension_open(host, players: int = 3) -> Game:
    return services.create_game(kind="hextension", config={"players": players, "tiles_per_round": 2}, created_by=host,
                                turn_seconds=86400)


def invitation_card(page: str) -> str:
    found = re.search(r'<section class="card" aria-labelledby="invitations-title">(.*?)</section>', page, re.S)
    return found.group(1) if found else ""


def test_the_host_invites_from_the_game_page_and_sees_the_invitation_waiting(client, make_user):
    host = make_user("host")
    make_user("robo", is_bot=True)
    game = hextension_open(host)
    client.force_login(host)
    url = reverse("game_detail", args=[game.pk])
    card = invitation_card(client.get(url).content.decode())
    assert f'action="{reverse("game_invite", args=[game.pk])}"' in card and 'name="username"' in card
    answer = client.post(reverse("game_invite", args=[game.pk]), {"username": "robo"})
    assert answer.status_code == 302 and answer["Location"] == url
    page = client.get(url).content.decode()
    assert "robo is invited" in page
    card = invitation_card(page)
    assert "robo" in card and "bot-badge" in card  # the BOT badge after the bot's name
    invitation = Invitation.objects.get(invited__username="robo")
    assert f'action="{reverse("invitation_cancel", args=[invitation.pk])}"' in card
    answer = client.post(reverse("invitation_cancel", args=[invitation.pk]))
    assert answer.status_code == 302 and Invitation.objects.get(pk=invitation.pk).status == "cancelled"
    assert "No invitation is waiting for an answer." in invitation_card(client.get(url).content.decode())


def test_only_the_host_sees_the_invitation_form(client, make_user):
    host, guest = make_user("host"), make_user("guest")
    game = hextension_open(host)
    services.join_game(game_id=game.pk, user=guest)
    client.force_login(guest)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert invitation_card(page) == "" and reverse("game_invite", args=[game.pk]) not in page
    answer = client.post(reverse("game_invite", args=[game.pk]), {"username": "host"})
    assert answer.status_code == 403 and "Only the player who opened this game" in answer.content.decode()


@pytest.mark.parametrize("typed, says, status", [
    ("nobody-here", "There is no player with the username nobody-here.", 400),
    ("", "Give the username of the player to invite.", 400),
    ("host", "You cannot invite yourself.", 400),
])
def test_a_refused_invitation_comes_back_beside_the_field_with_the_name_kept(client, make_user, typed, says, status):
    host = make_user("host")
    game = hextension_open(host)
    client.force_login(host)
    answer = client.post(reverse("game_invite", args=[game.pk]), {"username": typed})
    assert answer.status_code == status
    page = answer.content.decode()
    field = re.search(r'<input id="id_username"[^>]*>', page).group(0)
    assert f'value="{typed}"' in field and ('aria-invalid="true"' in field)
    errors = re.search(r'<ul id="invite-errors" class="errorlist" role="alert">(.*?)</ul>', page, re.S).group(1)
    assert says in errors
    assert not Invitation.objects.exists()


def test_over_htmx_a_refusal_is_the_sites_json_error(client, make_user):
    host = make_user("host")
    game = hextension_open(host)
    client.force_login(host)
    answer = client.post(reverse("game_invite", args=[game.pk]), {"username": "nobody-here"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 400
    assert answer.json() == {"type": "error", "message": "There is no player with the username nobody-here."}


def test_the_invited_player_accepts_from_the_dashboard(client, make_user):
    host, guest = make_user("host", is_bot=False), make_user("guest")
    game = hextension_open(host)
    invitation = invitations.invite_to_game(game_id=game.pk, by_user=host, username="guest")
    client.force_login(guest)
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert "host invites you to" in dashboard and str(game) in dashboard
    assert f'action="{reverse("invitation_accept", args=[invitation.pk])}"' in dashboard
    answer = client.post(reverse("invitation_accept", args=[invitation.pk]))
    assert answer.status_code == 302 and answer["Location"] == reverse("game_detail", args=[game.pk])
    assert Seat.objects.filter(game=game, user=guest).exists()
    assert "invites you to" not in client.get(reverse("dashboard")).content.decode()


def test_declining_asks_first_then_declines(client, make_user):
    host, guest = make_user("host"), make_user("guest")
    game = hextension_open(host)
    invitation = invitations.invite_to_game(game_id=game.pk, by_user=host, username="guest")
    client.force_login(guest)
    url = reverse("invitation_decline", args=[invitation.pk])
    confirm = client.post(url)
    assert confirm.status_code == 200 and Invitation.objects.get(pk=invitation.pk).status == "pending"
    assert 'name="confirm" value="1"' in confirm.content.decode()
    answer = client.post(url, {"confirm": "1"})
    assert answer.status_code == 302 and Invitation.objects.get(pk=invitation.pk).status == "declined"
    assert not Seat.objects.filter(game=game, user=guest).exists()


def test_an_invitation_from_a_bot_shows_its_badge_and_a_stale_one_is_refused(client, make_user):
    bot_host, guest = make_user("robo", is_bot=True), make_user("guest")
    game = hextension_open(bot_host, players=2)
    invitation = invitations.invite_to_game(game_id=game.pk, by_user=bot_host, username="guest")
    client.force_login(guest)
    assert "bot-badge" in client.get(reverse("dashboard")).content.decode()
    services.start_game(game_id=game.pk, by_user=bot_host, fill_with_ai="greedy")
    assert "invites you to" not in client.get(reverse("dashboard")).content.decode()
    answer = client.post(reverse("invitation_accept", args=[invitation.pk]))
    assert answer.status_code == 409 and "expired" in answer.content.decode()


def test_a_bot_accepts_through_the_api_only(client, make_user):
    host, bot = make_user("host"), make_user("robo", is_bot=True)
    game = hextension_open(host)
    invitation = invitations.invite_to_game(game_id=game.pk, by_user=host, username="robo")
    client.force_login(bot)
    answer = client.post(reverse("invitation_accept", args=[invitation.pk]))
    assert answer.status_code == 403 and not Seat.objects.filter(game=game, user=bot).exists()
