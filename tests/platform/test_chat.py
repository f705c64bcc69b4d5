"""Game chat: players write, spectators read, text stays text, a flood is refused, staff hide."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import ChatMessage
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db


def test_players_write_spectators_read_and_markup_stays_text(client, make_user):
    ana, bo, watcher = make_user("ana"), make_user("bo"), make_user("watcher")
    game = toy_game(ana, bo)
    client.force_login(ana)
    response = client.post(reverse("game_chat", args=[game.pk]), {"text": "<script>alert(1)</script> good luck\u0000"})
    assert response.status_code == 302
    message = ChatMessage.objects.get()
    assert message.text == "<script>alert(1)</script> good luck"  # stored as typed, NUL dropped
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; good luck" in page and "<script>alert(1)" not in page

    client.force_login(watcher)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "good luck" in page and 'name="text"' not in page
    refused = client.post(reverse("game_chat", args=[game.pk]), {"text": "hello"})
    assert refused.status_code == 403 and ChatMessage.objects.count() == 1


def test_long_empty_and_flooding_messages_are_refused(client, make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    client.force_login(ana)
    assert client.post(reverse("game_chat", args=[game.pk]), {"text": "x" * 501}).status_code == 400
    assert client.post(reverse("game_chat", args=[game.pk]), {"text": "   "}).status_code == 400
    statuses = [client.post(reverse("game_chat", args=[game.pk]), {"text": f"line {n}"}).status_code for n in range(8)]
    assert statuses == [302] * 5 + [429] * 3
    assert ChatMessage.objects.count() == 5
    htmx = client.post(reverse("game_chat", args=[game.pk]), {"text": "again"}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 429 and "too fast" in htmx.content.decode() and htmx["HX-Retarget"] == "#chat-error"


def test_staff_hide_a_message_it_stays_stored_and_players_no_longer_see_it(client, make_user):
    from games.services import chat

    ana, bo = make_user(), make_user()
    staff = make_user("mod", is_staff=True)
    game = toy_game(ana, bo)
    message = chat.post_message(game_id=game.pk, user=ana, text="rude words")
    with pytest.raises(Exception, match="Only staff"):
        chat.hide_message(message_id=message.pk, by_user=bo)
    chat.hide_message(message_id=message.pk, by_user=staff)
    client.force_login(bo)
    assert "rude words" not in client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert ChatMessage.objects.get(pk=message.pk).hidden_by == staff
