""""Notify me when it is my move" is offered only where another seat's move can make it the
player's turn: a seated player of an active game with several seats, never on a solo game such
as the Hextremadura daily puzzle (issue #31: it was shown there)."""
import pytest
from django.urls import reverse

from games.models import Game
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db

NOTIFY = "Notify me when it is my move"


def test_the_daily_puzzle_page_offers_no_notification_a_two_seat_game_does(client, make_user):
    ana, bo = make_user(), make_user()
    client.force_login(ana)
    client.post(reverse("hextremadura_daily"))
    daily = Game.objects.get(daily_attempt__isnull=False)
    assert daily.status == Game.Status.ACTIVE and daily.seats.count() == 1
    page = client.get(reverse("game_detail", args=[daily.pk])).content.decode()
    assert 'class="hxt-game' in page  # the puzzle's own page, ready for a move
    assert NOTIFY not in page and 'id="notify-choice"' not in page

    two = toy_game(ana, bo)  # the same player's page of a game with another seat
    page = client.get(reverse("game_detail", args=[two.pk])).content.decode()
    assert NOTIFY in page and 'id="notify-choice"' in page
