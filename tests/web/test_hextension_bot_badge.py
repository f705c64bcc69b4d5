"""A bot's name carries its BOT badge in a Hextension game's standings (running) and results
(finished), and a person's does not: the rows are drawn once per content (fragments), so the
badge is part of what keys them."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services
from games.hextension import fragments
from games.models import Game
from tests.support.factories import hextension_place

pytestmark = pytest.mark.django_db


def badged_rows(html: str) -> dict[str, bool]:
    """Each standings or results row's name → whether it carries the badge."""
    rows = re.findall(r'<tr data-seat="\d+"[^>]*>(.*?)</tr>', html, re.S)
    found = {}
    for row in rows:
        name = re.search(r'<th scope="row">([\w-]+)', row).group(1)
        found[name] = 'class="badge bot-badge"' in row
    return found


def test_the_standings_and_the_results_show_the_bots_badge(client, django_user_model):
    person = django_user_model.objects.create_user("row-person")
    bot = django_user_model.objects.create_user("row-bot", is_bot=True)
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 3}, created_by=person,
                                players=[person, bot], join=False, turn_seconds=86400)
    services.start_game(game_id=game.pk)
    fragments.forget()
    client.force_login(person)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert badged_rows(page) == {"row-person": False, "row-bot": True}
    while Game.objects.get(pk=game.pk).status != Game.Status.FINISHED:
        for seat, user in ((0, person), (1, bot)):
            hextension_place(Game.objects.get(pk=game.pk), user, seat)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "Best possible" in page
    assert badged_rows(page) == {"row-person": False, "row-bot": True}
