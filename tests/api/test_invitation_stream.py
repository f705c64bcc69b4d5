"""The events stream's invitations: every one waiting for an answer first, then each new one as
it is sent (announced to the user's own group); one from a player the user blocked never."""
from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games import services
from games.leagues.models import League
from games.leagues import services as leagues
from games.services import invitations
from moderation.models import Block
from tests.api.test_streams import Reader, secret_of, stream_request
from tests.web.test_consumer import close_db_connections, run_scenario

pytestmark = pytest.mark.django_db(transaction=True)


def open_toy(host):
    return services.create_game(kind="toy", config={"players": 3, "target": 15}, created_by=host)


def test_the_events_stream_sends_pending_invitations_first_then_new_ones(make_user):
    host, guest, blocked = make_user("host"), make_user("guest"), make_user("pest")
    first_game, second_game = open_toy(host), open_toy(host)
    pest_game = open_toy(blocked)
    Block.objects.create(blocker=guest, blocked=blocked)
    waiting = invitations.invite_to_game(game_id=first_game.pk, by_user=host, username="guest")
    league = League.objects.create(name="Autumn", organiser=host, starts_at=timezone.now() + timedelta(days=2))
    secret = secret_of(guest)

    async def scenario():
        reader = Reader(stream_request("/api/v1/stream/events", secret))
        assert (await reader.start())["status"] == 200
        assert await reader.line() == {"type": "invitation", "id": waiting.pk, "from": "host",
                                       "game": {"id": first_game.pk, "game": "toy", "version": 0,
                                                "title": str(first_game)}}
        # From a blocked player: sent, never shown; then a new one, live.
        await sync_to_async(invitations.invite_to_game)(game_id=pest_game.pk, by_user=blocked, username="guest")
        live = await sync_to_async(invitations.invite_to_game)(game_id=second_game.pk, by_user=host, username="guest")
        line = await reader.line()
        assert line["type"] == "invitation" and line["id"] == live.pk and line["game"]["id"] == second_game.pk
        to_league = await sync_to_async(leagues.invite)(league_id=league.pk, by_user=host, username="guest")
        line = await reader.line()
        assert line == {"type": "invitation", "id": to_league.pk, "from": "host",
                        "league": {"id": league.pk, "name": "Autumn", "game": "hextension"}}
        await reader.close()
        await close_db_connections()

    run_scenario(scenario)


def test_a_game_whose_invitation_is_accepted_meanwhile_is_told_at_once(make_user):
    host, guest = make_user("host"), make_user("guest")
    game = services.create_game(kind="toy", config={"players": 2, "target": 15}, created_by=host)
    secret = secret_of(guest)

    async def scenario():
        reader = Reader(stream_request("/api/v1/stream/events", secret))
        assert (await reader.start())["status"] == 200
        invitation = await sync_to_async(invitations.invite_to_game)(game_id=game.pk, by_user=host, username="guest")
        assert (await reader.line())["id"] == invitation.pk
        await sync_to_async(invitations.accept)(invitation_id=invitation.pk, user=guest)  # the last seat: it starts
        started = await reader.line(timeout=3)  # long before a beat would have found it
        assert started == {"type": "gameStart", "game": {"id": game.pk, "game": "toy", "version": 0}}
        await reader.close()
        await close_db_connections()

    run_scenario(scenario)
