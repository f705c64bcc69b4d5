"""A reader whose browser asks for German signs up (allauth's pages in German), plays a
Hextension round and a Hexland turn on German pages, switches to Spanish with the footer's
switcher, and gets the next game e-mail in Spanish (docs/i18n.md).

What a page should say is read from the catalogues themselves (``translated``): the test
names English msgids as marked in the templates and in games/services/notifications.py, and
fails clearly when a msgid is not in the catalogue (marked otherwise, or not translated)."""
import re

import pytest
from django.core import mail
from django.utils import translation

from accounts.models import User
from games import services, state_store
from games.hextension import engine as hextension
from tests.e2e.accounts import PASSWORD
from tests.support.factories import awaited_view, hexland_room, hextension_place

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLACEHOLDER = re.compile(r"%\([^)]+\)s")


def translated(msgid: str, language: str, **values) -> str:
    """``msgid`` in ``language`` as the site's catalogues (and allauth's) say it."""
    with translation.override(language):
        text = translation.gettext(msgid)
    assert text != msgid, (f"{msgid!r} has no translation into {language!r}: is it marked exactly so, "
                           f"and translated in locale/{language}/LC_MESSAGES/django.po?")
    return text % values if values else text


def as_pattern(text: str) -> re.Pattern:
    """A translation with placeholders, as a pattern its filled-in forms match."""
    return re.compile("^" + ".+?".join(re.escape(piece) for piece in PLACEHOLDER.split(text)) + "$", re.S)


def html_lang(page) -> str:
    return page.locator("html").get_attribute("lang")


def assert_shows(page, *texts: str) -> None:
    body = " ".join(page.locator("body").inner_text().split())
    for text in texts:
        assert " ".join(text.split()) in body, f"{text!r} is not on {page.url}"


def sign_up_in_german(page, base_url: str, username: str) -> None:
    """tests/e2e/accounts.sign_up, with the fields found by name: their labels are German."""
    page.goto(f"{base_url}/accounts/signup/")
    assert html_lang(page) == "de"
    sign_up = translated("Sign Up", "de")  # allauth's own catalogue: "Registrieren"
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=email]").fill(f"{username}@example.com")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.get_by_role("button", name=sign_up).click()
    page.wait_for_url(re.compile(r"/accounts/confirm-email/"))
    message = next(m for m in reversed(mail.outbox) if m.to == [f"{username}@example.com"])
    page.goto(re.search(r"https?://\S+/accounts/confirm-email/\S+/", message.body).group(0))
    page.get_by_role("button", name=translated("Confirm", "de")).click()
    page.wait_for_url(re.compile(r"/games/$"))


def play_a_hextension_round(page, game_url: str) -> None:
    """Place this round's tiles with the plain form (tests/e2e/test_hextension_game.py), the
    submit button found by its form, not by its (German) words."""
    page.goto(game_url)
    selects = page.locator("select[name^='cell_']")
    for i in range(selects.count()):
        options = selects.nth(i).locator("option:not([value=''])")
        selects.nth(i).select_option(options.nth(i % options.count()).get_attribute("value"))
    with page.expect_response(re.compile(r"/move/$")):
        page.locator("button[type=submit][form=hx-form]").click()


def take_a_hexland_step(page, game_url: str) -> None:
    """Click the first highlighted place of the board (tests/e2e/test_hexland_room.py)."""
    page.goto(game_url)
    with page.expect_response(re.compile(r"/move/$")):
        page.locator("svg .hl-target[data-move]").first.dispatch_event("click")


def test_a_german_reader_plays_in_german_then_switches_to_spanish_and_gets_spanish_mail(live_server, browser, make_user):
    page = browser.new_context("desktop", locale="de-DE").new_page()  # Accept-Language: de-DE
    page.set_default_timeout(20_000)
    sign_up_in_german(page, live_server.url, "greta")
    greta = User.objects.get(username="greta")
    assert greta.language == "de"  # the language of the sign-up page is kept (e-mails too)
    assert html_lang(page) == "de"
    assert_shows(page, translated("My games", "de"), translated("Your move", "de"))

    # A Hextension round on a German page.
    bo = make_user("bo")
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2},
                                players=[greta, bo], join=False, turn_seconds=86400)
    services.start_game(game_id=game.pk)
    game_url = f"{live_server.url}/games/{game.pk}/"
    page.goto(game_url)
    assert html_lang(page) == "de"
    rounds = hextension.view(state_store.load(game), 0)["rounds"]
    page.get_by_role("heading", name=translated("Round %(round)s of %(rounds)s", "de", round=1, rounds=rounds)).wait_for()
    assert_shows(page, translated("Your move", "de"), translated("Place this round's tiles", "de"),
                 translated("Standings", "de"))
    play_a_hextension_round(page, game_url)
    page.goto(game_url)
    assert_shows(page, translated("You have submitted; you may change it until the round closes.", "de"))

    # A Hexland turn (a settlement of the set-up and its road) on a German page.
    room = hexland_room(greta, bo)
    while (awaited := awaited_view(room))[0] != 0:  # Bo may place first
        services.submit_move(game_id=room.pk, user=bo, move=awaited[1]["legal_moves"][0], expected_version=room.version)
    before = room.version
    room_url = f"{live_server.url}/games/{room.pk}/"
    page.goto(room_url)
    assert html_lang(page) == "de"
    assert_shows(page, translated("Your move", "de"), translated("Latest events", "de"), translated("Players", "de"))
    take_a_hexland_step(page, room_url)  # the settlement
    take_a_hexland_step(page, room_url)  # its road
    moves = list(room.events.filter(seq__gt=before).order_by("seq").values_list("seat", "payload__type"))
    assert moves == [(0, "place_settlement"), (0, "place_road")], moves
    page.goto(room_url)
    assert html_lang(page) == "de"
    assert_shows(page, translated("Latest events", "de"))

    # The footer's switcher ("Sprache"): the page comes back in Spanish, and the choice is kept.
    page.goto(game_url)
    switcher = page.locator("form.language-switcher")
    assert switcher.locator("label").inner_text().strip() == translated("Language", "de")
    switcher.locator("select[name=language]").select_option("es")
    with page.expect_navigation():
        switcher.locator("button[type=submit]").click()
    assert page.url == game_url and html_lang(page) == "es"
    assert switcher.locator("label").inner_text().strip() == translated("Language", "es")
    assert_shows(page, translated("Standings", "es"))
    greta.refresh_from_db()
    assert greta.language == "es"

    # The next round opens: its e-mail is Spanish, the round's name included.
    hextension_place(game, bo, 1)
    game.refresh_from_db()
    assert game.awaiting == [0, 1]  # round 2
    mail.outbox.clear()
    services.notify_progress(game_id=game.pk, turn_changed=True, timed_out=[])
    message = next(m for m in mail.outbox if m.to == [greta.email])
    subject, body = translated("%(game)s: %(round)s is open", "es"), translated(
        "%(round)s of %(game)s is open and waiting for your move.", "es")
    assert as_pattern(subject).match(message.subject), message.subject
    assert as_pattern(body).match(message.body.splitlines()[0]), message.body
    assert not re.search(r"\bRound\b", message.subject + message.body), "the round's name is in English"
    assert f"/games/{game.pk}/" in message.body
    # Bo never chose a language: his e-mail is English.
    english = next(m for m in mail.outbox if m.to == [bo.email])
    assert english.subject.endswith(" is open") and english.subject != message.subject
