"""Hextremadura pages: the solo home, starting games, the daily attempt, hints and undo."""
import pytest
from django.urls import reverse

from games import state_store
from games.hextremadura import engine as hextremadura
from games.models import Game, MoveEvent

pytestmark = pytest.mark.django_db


def test_home_daily_once_and_casual_with_hint_and_undo(client, make_user):
    ana = make_user()
    client.force_login(ana)
    page = client.get(reverse("hextremadura_home")).content.decode()
    assert "Play today&#x27;s puzzle" in page or "Play today's puzzle" in page
    assert "Nobody has finished this puzzle yet." in page

    response = client.post(reverse("hextremadura_daily"))
    daily = Game.objects.get(daily_attempt__isnull=False)
    assert response.status_code == 302 and response["Location"] == reverse("game_detail", args=[daily.pk])
    again = client.post(reverse("hextremadura_daily"))  # one attempt: back to the same game
    assert again["Location"] == reverse("game_detail", args=[daily.pk]) and Game.objects.count() == 1
    hint = client.get(reverse("game_hint", args=[daily.pk]))
    assert hint.status_code == 400 and "no hints in the daily puzzle" in hint.content.decode()

    client.post(reverse("hextremadura_new"))
    casual = Game.objects.get(daily_attempt__isnull=True)
    hint = client.get(reverse("game_hint", args=[casual.pk]))
    assert hint.status_code == 200 and 'id="hint"' in hint.content.decode()
    move = hextremadura.legal_moves(state_store.load(casual), 0)[0]
    fields = {"version": 0, "tile": move["tile"], "cell": f"{move['q']},{move['r']}", "rotation": move["rotation"]}
    if "face" in move:
        fields["face"] = move["face"]
    assert client.post(reverse("game_move", args=[casual.pk]), fields).status_code == 302
    bad = client.post(reverse("game_move", args=[casual.pk]), {**fields, "version": 1, "cell": "99,99"})
    assert bad.status_code == 400
    assert client.post(reverse("game_undo", args=[casual.pk]), {"version": 0}).status_code == 409
    assert client.post(reverse("game_undo", args=[casual.pk]), {"version": 1}).status_code == 302
    assert list(MoveEvent.objects.filter(game=casual).values_list("kind", flat=True)) == ["move", "undo"]
    assert client.post(reverse("game_undo", args=[daily.pk]), {"version": 0}).status_code == 400
    bo = make_user()
    client.force_login(bo)
    assert client.post(reverse("game_undo", args=[casual.pk]), {"version": 2}).status_code == 403
    assert client.get(reverse("hextremadura_leaderboard", args=["not-a-date"])).status_code == 400


def test_another_player_cannot_watch_a_daily_puzzle_before_finishing_their_own(client, make_user):
    ana, bo = make_user(), make_user()
    client.force_login(ana)
    client.post(reverse("hextremadura_daily"))
    daily = Game.objects.get(created_by=ana)
    client.force_login(bo)
    response = client.get(reverse("game_detail", args=[daily.pk]))
    assert response.status_code == 403
    assert client.get(reverse("game_hint", args=[daily.pk])).status_code == 403


def test_the_rotate_buttons_are_named_by_their_visible_words(client, make_user):
    import re
    from html import unescape

    client.force_login(make_user())
    page = client.get(client.post(reverse("hextremadura_daily"))["Location"]).content.decode()
    buttons = re.findall(r'<button[^>]*class="[^"]*hxt-rotate[^"]*"([^>]*)>(.*?)</button>', page, re.S)
    assert len(buttons) == 2
    for attributes, content in buttons:
        assert "aria-label" not in attributes  # named by their text, as a person reads it
        words = unescape(re.sub(r'<span aria-hidden="true">.*?</span>', "", content)).strip()
        assert words.startswith("Rotate ") and re.search(r"\((Shift\+)?R\)$", words), words
