"""A person invites the example Hextension bot to their game (through the service, as the game
page's form does); the bot, running as it is against the site served by Daphne, accepts from
its events stream and plays the whole game against them (the person's placements made here)."""
from __future__ import annotations

import time

import pytest

from games import services
from games.models import Game, Invitation, MoveEvent
from games.services import invitations
from tests.api.test_example_bots import BOT_SECONDS, start_example_bot
from tests.e2e.conftest import asgi_live_server  # noqa: F401  (the fixture)
from tests.support.factories import hextension_place

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_invited_bot_accepts_from_its_events_and_plays_the_game(asgi_live_server, django_user_model):  # noqa: F811
    host = django_user_model.objects.create_user("person")
    bot_user = django_user_model.objects.create_user("invited-bot", is_bot=True)
    bot, said, _api = start_example_bot("hextension_bot", asgi_live_server, bot_user)
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2}, created_by=host,
                                turn_seconds=86400)
    invitation = invitations.invite_to_game(game_id=game.pk, by_user=host, username="invited-bot")
    give_up = time.monotonic() + BOT_SECONDS
    while time.monotonic() < give_up:  # the person places their tiles each round, as the bot does
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        if game.status == Game.Status.ACTIVE and 0 in game.awaiting:
            hextension_place(game, host, 0)
        time.sleep(0.05)
    bot.join(timeout=max(1, give_up - time.monotonic()))
    assert not bot.is_alive(), f"the bot did not finish its game: {said}"
    assert Invitation.objects.get(pk=invitation.pk).status == Invitation.Status.ACCEPTED
    assert game.seats.get(index=1).user == bot_user
    assert game.status == Game.Status.FINISHED, said
    assert MoveEvent.objects.filter(game=game, seat=1).count() == 10  # two tiles a round, 19 cells
    assert f"accepted the invitation of person to game {game.pk}" in said, said
    assert f"game {game.pk} over" in said[-1] and not any("refused" in text for text in said), said
