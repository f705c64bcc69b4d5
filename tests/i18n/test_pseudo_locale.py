"""Every visible text of the main pages goes through translation (docs/i18n.md, "Tests").

A pseudo language is made at test time from the English source strings: the msgids of
locale/de/LC_MESSAGES/django.po (every marked string, as `make messages` gathered them) become a
catalogue of Esperanto ("eo", a code Django knows and the site does not offer) in which every
msgstr is its msgid with each run of words wrapped in ⟦ ⟧; placeholders and HTML tags stay
outside the marks, so the values put in them are checked too. With that language active, the
main pages are drawn and parsed: once the marked runs, the data these tests made (names, titles),
numbers, dates, the brand names and the footer's language names are taken away, no letter may be
left. A word added to a template without {% translate %} is left, and fails the test, with
the page and the text named.

Django's own catalogues (and its apps') also speak Esperanto: their translations carry no marks
and are taken away too (they are not our strings); allauth has no Esperanto, and its pages
(log-in, sign-up) are not drawn here.
"""
from __future__ import annotations

import json
import re
from contextlib import contextmanager
from datetime import datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from asgiref.local import Local
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import trans_real

from hexsite import catalogues

pytestmark = pytest.mark.django_db

PSEUDO = "eo"
OPEN, CLOSE = "⟦", "⟧"
SOURCE = catalogues.LOCALE / "de" / "LC_MESSAGES"  # its msgids are every marked string
BRANDS = ("hexsite", "Hextension", "Hextremadura", "Hexland")

# Text that may stay unmarked on a page, each with its reason. Keep it short: a string of ours
# belongs in the catalogue, not here.
ALLOWED: dict[str, str] = {
    "UTC": "the time zone's name in a deadline, as the player's time zone writes it",
    **{name: "a Hextremadura quest, named after a place in Extremadura: the same in every language"
       for name in ("Monfragüe", "Garganta de los Infiernos", "Los Barruecos")},
    **{face: "a Hextremadura river tile's two faces, named a and b in every language (words.face_name), "
             "as in \"R3, face b.\": only on a page that offers a river tile, so only some shuffles"
       for face in ("a", "b")},
}


# --- the pseudo catalogue -------------------------------------------------------------------------

# What stays outside the marks: a placeholder ("%(name)s", "%s", "%%") or an HTML tag.
_KEPT = re.compile(r"(%(?:\([^)]*\))?[#0+-]*(?:\d+|\*)?(?:\.\d+)?[sdiufFeEgGxXr%]|<[A-Za-z/!][^>]*>)")
# In a tag of a msgid, the visible attributes' words are marked too.
_TAG_TEXT = re.compile(r'(\s(?:title|aria-label|alt|placeholder|label|value)\s*=\s*)(["\'])([^"\'%]*?[^\W\d_][^"\'%]*?)\2')


def pseudo(msgid: str) -> str:
    """``msgid`` in the pseudo language: "Round %(round)s of %(rounds)s" is
    "⟦Round ⟧%(round)s⟦ of ⟧%(rounds)s"."""
    out = []
    for index, piece in enumerate(_KEPT.split(msgid)):
        if index % 2:
            out.append(_TAG_TEXT.sub(lambda m: f"{m[1]}{m[2]}{OPEN}{m[3]}{CLOSE}{m[2]}", piece))
        elif piece:
            out.append(f"{OPEN}{piece}{CLOSE}")
    return "".join(out)


def write_pseudo_catalogue(source: Path, target: Path) -> int:
    """Compile the pseudo language's catalogue for ``source``'s msgids into ``target`` (.mo);
    returns the number of entries."""
    catalog = Catalog(locale=PSEUDO, domain=source.stem)
    count = 0
    for message in catalogues.read(source):
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            singular, plural = message.id[0], message.id[1]
            string = tuple(pseudo(singular if form == 0 else plural) for form in range(catalog.num_plurals))
        else:
            string = pseudo(message.id)
        catalog.add(message.id, string, context=message.context)
        count += 1
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as out:
        write_mo(out, catalog)
    return count


def reset_translations() -> None:
    """Forget every loaded catalogue and the active language (each thread's: a fresh Local),
    so the next lookup reads the catalogues of the settings now in force."""
    trans_real._translations = {}
    trans_real._active = Local()
    trans_real._default = None
    trans_real.translation_catalog_exists.cache_clear()
    trans_real.get_languages.cache_clear()
    trans_real._get_supported_language_variant.cache_clear()


@contextmanager
def pseudo_language(folder: Path):
    """The pseudo language offered and its catalogues (django, and djangojs when there is a
    source) the only ones of LOCALE_PATHS; everything as it was afterwards."""
    locale = folder / "locale"
    for domain in ("django", "djangojs"):
        source = SOURCE / f"{domain}.po"
        if source.exists():
            write_pseudo_catalogue(source, locale / PSEUDO / "LC_MESSAGES" / f"{domain}.mo")
    languages = [*settings.LANGUAGES, (PSEUDO, f"{OPEN}pseudo{CLOSE}")]
    try:
        with override_settings(LANGUAGES=languages, LOCALE_PATHS=[str(locale)]):
            reset_translations()
            yield
    finally:
        reset_translations()


def _require_source() -> None:
    if not (SOURCE / "django.po").exists():
        pytest.fail(f"{SOURCE / 'django.po'} is missing: run `make messages` to gather the marked strings.",
                    pytrace=False)


# --- reading a page -----------------------------------------------------------------------------

# Attributes whose value a person reads (or hears).
VISIBLE_ATTRIBUTES = frozenset({"title", "aria-label", "alt", "placeholder", "label", "aria-description",
                                "aria-roledescription", "aria-valuetext", "aria-placeholder"})
BUTTON_INPUTS = frozenset({"submit", "button", "reset"})
# Attributes that legitimately differ between two drawings of one page in two languages.
VARYING_ATTRIBUTES = frozenset({"lang", "href", "src", "action", "hx-get", "hx-post", "hx-headers",
                                "data-live-lazy", "selected", "content"})


class PageText(HTMLParser):
    """A page's visible text: its text nodes in document order (SVG's <text> and <title>
    included, <script> and <style> left out), and the visible attributes' values. The options
    of the language switcher (each language's own name) and of the time zone list (place
    names) are data, not words of ours."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.nodes: list[str] = []
        self.attributes: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.elements: list[tuple[str, dict]] = []  # every element with its attributes
        self._hidden_depth = 0  # inside <script>/<style>
        self._skipped_select = False

    def handle_starttag(self, tag, attrs):
        attributes = {name: (value or "") for name, value in attrs}
        self.elements.append((tag, attributes))
        if tag in ("script", "style"):
            self._hidden_depth += 1
        if tag == "select" and (attributes.get("name") == "language" or "data-timezone" in attributes):
            self._skipped_select = True
        for name, value in attributes.items():
            if name in VISIBLE_ATTRIBUTES:
                self.attributes.append((tag, name, value))
        if tag == "input" and attributes.get("type", "text").lower() in BUTTON_INPUTS and "value" in attributes:
            self.attributes.append((tag, "value", attributes["value"]))
        if tag == "meta" and attributes.get("name") == "description":
            self.attributes.append((tag, "content", attributes.get("content", "")))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in ("script", "style"):
            self._hidden_depth -= 1

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._hidden_depth = max(0, self._hidden_depth - 1)
        elif tag == "select":
            self._skipped_select = False
        self.nodes.append("\n")  # a tag ends a run of text

    def handle_data(self, data):
        if self._hidden_depth or self._skipped_select:
            return
        self.nodes.append(data)


def read_page(html: str) -> PageText:
    parser = PageText()
    parser.feed(html)
    parser.close()
    return parser


_MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
_LETTER = re.compile(r"[^\W\d_]")
# Numbers, times, and Hextension's cells ("A1"): never words.
_NUMBERS = re.compile(r"(?<!\w)[A-Z]?\d+(?:[.,:\u00a0\u202f']\d+)*(?!\w)")


def without_marked(text: str) -> str:
    while True:
        less = _MARKED.sub(" ", text)
        if less == text:
            return less
        text = less


class Leftovers:
    """What is left of a text once the marked runs and the known data are taken away."""

    def __init__(self, data: list[str]):
        phrases = sorted({*data, *BRANDS, *ALLOWED, *_date_words()}, key=len, reverse=True)
        self._data = re.compile("|".join(rf"(?<!\w){re.escape(phrase)}(?!\w)" for phrase in phrases if phrase))
        self._django = _djangos_own_translations()

    def of(self, text: str) -> list[str]:
        left = []
        for fragment in without_marked(text).split("\n"):
            rest = _NUMBERS.sub(" ", self._data.sub(" ", fragment))
            if self._django is not None:
                rest = self._django.sub(" ", rest)
            if _LETTER.search(rest):
                left.append(" ".join(fragment.split()))
        return left

    def of_page(self, html: str) -> list[str]:
        page = read_page(html)
        found = self.of("".join(page.nodes))
        for tag, name, value in page.attributes:
            found += [f"<{tag} {name}=\"{text}\">" for text in self.of(value.replace("\n", " "))]
        return list(dict.fromkeys(found))


_LETTERS_RUN = re.compile(r"[^\W\d_]+")


def _date_words() -> set[str]:
    """The active language's names of days and months, as Django's date formats write them."""
    from django.utils import dates

    words = set()
    for table in (dates.WEEKDAYS, dates.WEEKDAYS_ABBR, dates.MONTHS, dates.MONTHS_3, dates.MONTHS_AP, dates.MONTHS_ALT):
        for value in table.values():
            words.update({str(value), str(value).capitalize()})
    # The words of the language's own date formats ("3-a de decembro 2026" in Esperanto).
    for name in ("DATE_FORMAT", "DATETIME_FORMAT", "SHORT_DATE_FORMAT", "MONTH_DAY_FORMAT"):
        words.update(_LETTERS_RUN.findall(formats.date_format(datetime(2026, 12, 3, 21, 46), name)))
    words.update({translation.pgettext("AM/PM", "a.m."), translation.pgettext("AM/PM", "p.m."),
                  translation.gettext("AM"), translation.gettext("PM"), translation.gettext("midnight"),
                  translation.gettext("noon")})
    return {word for word in words if word}


def _djangos_own_translations() -> re.Pattern | None:
    """Django's and its apps' own translations into the active language (not ours: ours are
    marked), as one pattern in which their placeholders stand for any text."""
    catalogue = trans_real.translation(translation.get_language())._catalog
    patterns = set()
    for value in (v for _key, v in catalogue.items()):
        if not isinstance(value, str) or OPEN in value:
            continue
        pieces = re.split(r"%(?:\([^)]*\))?[#0+-]*(?:\d+)?(?:\.\d+)?[sdifr]|\{[^}]*\}", value)
        if sum(len(_LETTER.findall(piece)) for piece in pieces) < 4:
            continue  # too short (or all placeholders) to be told from our own words
        patterns.add("[^\n]*?".join(re.escape(piece) for piece in pieces))
    if not patterns:
        return None
    return re.compile("|".join(rf"(?<!\w)(?:{p})(?!\w)" for p in sorted(patterns, key=len, reverse=True)))


# --- the pages ----------------------------------------------------------------------------------

PASSWORD = "a-long-pass-phrase"


def _user(username: str, **fields):
    from accounts.models import User

    return User.objects.create_user(username=username, email=f"{username}@example.com", password=PASSWORD, **fields)


def _play_hextension_to_the_end(game, users) -> None:
    from games import services, state_store
    from games.hextension import engine as hextension
    from games.models import Game

    for _ in range(200):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return
        for seat in list(game.awaiting):
            move = hextension.legal_moves(state_store.load(game), seat)[0]
            services.submit_move(game_id=game.pk, user=users[seat], move=move,
                                 expected_version=Game.objects.get(pk=game.pk).version)
    raise AssertionError("the Hextension game did not finish")


def _hexland_in_play(ana, bo):
    """A Hexland room past its set-up, with Ana (seat 0) to move."""
    from games import services
    from tests.support.factories import awaited_view, hexland_room

    game = hexland_room(ana, bo)
    users = {0: ana, 1: bo}
    for _ in range(60):
        seat, view = awaited_view(game)
        if not view["phase"].startswith("setup") and seat == 0:
            break
        services.submit_move(game_id=game.pk, user=users[seat], move=view["legal_moves"][0], expected_version=game.version)
    else:
        raise AssertionError("the Hexland room did not come to Ana's turn")
    game.refresh_from_db()
    return game


def make_world() -> tuple[dict, list[str]]:
    """The players, games and league the pages show; returns the pages, by name, as (user or
    None, address), and the data to take away (names, titles)."""
    from django.contrib.auth.models import Permission

    from games import services
    from games.hextremadura import services as hextremadura
    from games.leagues import services as leagues
    from games.leagues.models import League
    from tests.support.factories import hextension_place

    ana, bo, cyd = _user("ana"), _user("bo", display_name="Bozena Qwyx"), _user("cyd")
    orga = _user("orga")
    orga.user_permissions.add(Permission.objects.get(codename="organise_leagues"))
    orga = type(orga).objects.get(pk=orga.pk)

    # Hextension: a game in its second round, Bo has placed, Ana's move; a finished game.
    hextension = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2},
                                      created_by=ana, players=[ana, bo], join=False, turn_seconds=86400)
    services.start_game(game_id=hextension.pk)
    hextension_place(hextension, ana, 0)
    hextension_place(hextension, bo, 1)
    hextension_place(hextension, bo, 1)
    finished = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 3}, title="Zyxwv Qoph",
                                    created_by=ana, players=[ana, bo], join=False, turn_seconds=3600)
    services.start_game(game_id=finished.pk)
    _play_hextension_to_the_end(finished, [ana, bo])
    # Open games others may join: listed in the lobbies, one with its waiting room.
    services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 1}, created_by=cyd, turn_seconds=86400)
    waiting = services.create_game(kind="hexland", config={"players": 3, "layout": "fixed"}, created_by=cyd, turn_seconds=120)
    # Hexland: a room in play, Ana to move; Hextremadura: a solo game with a move made.
    hexland = _hexland_in_play(ana, bo)
    solo = hextremadura.start_casual_game(user=ana)
    _first_solo_move(solo, ana)
    # A league Ana has entered.
    league = leagues.create_league(organiser=orga, name="Plovdiv Zwq", description="Xqzy vrbl.", tiles_per_round=2,
                                   round_hours=48, season_games=3, entry=League.Entry.APPROVAL,
                                   schedule=League.Schedule.SEQUENTIAL, starts_at=timezone.now() + timedelta(days=3))
    leagues.enter_league(league_id=league.pk, user=ana)

    game, player = "game_detail", "player"
    pages = {
        "home": (None, reverse("home")),
        "home, signed in": (ana, reverse("home")),
        "my games": (ana, reverse("dashboard")),
        "finished games": (ana, reverse("finished_games")),
        "profile": (ana, reverse("profile")),
        "a player's page": (ana, reverse(player, args=[bo.username])),
        "Hextension lobby": (ana, reverse("hextension_lobby")),
        "Hextension, new game": (ana, reverse("hextension_new")),
        "Hextension game, Ana's move": (ana, reverse(game, args=[hextension.pk])),
        "Hextension game, finished": (ana, reverse(game, args=[finished.pk])),
        "Hextension replay": (ana, reverse("game_replay", args=[finished.pk]) + "?at=2"),
        "Hextremadura home": (ana, reverse("hextremadura_home")),
        "Hextremadura solo game": (ana, reverse(game, args=[solo.pk])),
        "Hexland lobby": (ana, reverse("hexland_lobby")),
        "Hexland, new room": (ana, reverse("hexland_new")),
        "Hexland rules": (ana, reverse("hexland_rules")),
        "Hexland room in play, Ana's move": (ana, reverse(game, args=[hexland.pk])),
        "Hexland room waiting for players": (ana, reverse(game, args=[waiting.pk])),
        "leagues": (ana, reverse("league_list")),
        "a league": (ana, reverse("league_detail", args=[league.pk])),
        "a league, its organiser": (orga, reverse("league_organise", args=[league.pk])),
        "page not found": (None, "/no-such-page/"),
        "page not found, signed in": (ana, "/games/no-such-page/"),
    }
    data = [ana.username, bo.username, bo.display_name, cyd.username, orga.username, "Zyxwv Qoph",
            league.name, league.description, *(f"{u}@example.com" for u in ("ana", "bo", "cyd", "orga"))]
    return pages, data


def _first_solo_move(game, user) -> None:
    from games import services, state_store
    from games.hextremadura import engine as hextremadura

    game.refresh_from_db()
    move = hextremadura.legal_moves(state_store.load(game), 0)[0]
    services.submit_move(game_id=game.pk, user=user, move=move, expected_version=game.version)


def draw(pages: dict, language: str) -> dict[str, tuple[int, str]]:
    """Each page as ``language``'s reader gets it (their browser asks for it; a player who
    never chose keeps it): the status and the HTML, and a lazy part of a page (data-live-lazy)
    as a page of its own."""
    drawn = {}
    for name, (user, address) in pages.items():
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        if user is not None:
            client.force_login(user)
        response = client.get(address, follow=True)
        html = response.content.decode()
        drawn[name] = (response.status_code, html)
        for lazy in dict.fromkeys(re.findall(r'data-live-lazy="([^"]+)"', html)):
            part = client.get(lazy.replace("&amp;", "&"))
            drawn[f"{name}: {lazy.split('?')[0]}"] = (part.status_code, part.content.decode())
    return drawn


EXPECTED_STATUS = {"page not found": 404, "page not found, signed in": 404}


@pytest.fixture(scope="module")
def drawings(django_db_setup, django_db_blocker, tmp_path_factory):
    """The pages drawn in the pseudo language on empty drawing caches, then in English, then in
    the pseudo language again (after English drawings of the same regions); with the data to
    take away. The world is made in a transaction rolled back at the end."""
    _require_source()
    from django.core.cache import cache
    from django.db import transaction

    from games import live

    with django_db_blocker.unblock(), pseudo_language(tmp_path_factory.mktemp("pseudo")):
        cache.clear()
        with transaction.atomic():
            pages, data = make_world()
            live.forget_drawings()
            fresh = draw(pages, PSEUDO)
            live.forget_drawings()
            english = draw(pages, settings.LANGUAGE_CODE)
            again = draw(pages, PSEUDO)
            with translation.override(PSEUDO):
                check = Leftovers(data)
                leftovers = {name: check.of_page(html) for name, (_status, html) in fresh.items()}
                leftovers_again = {name: check.of_page(html) for name, (_status, html) in again.items()}
            transaction.set_rollback(True)
        live.forget_drawings()
        cache.clear()
    return {"fresh": fresh, "english": english, "again": again, "leftovers": leftovers, "leftovers_again": leftovers_again}


def test_the_pages_are_drawn_in_the_pseudo_language(drawings):
    wrong = []
    for name, (status, html) in drawings["fresh"].items():
        expected = EXPECTED_STATUS.get(name, 200)
        if status != expected:
            wrong.append(f"{name}: status {status}, not {expected}")
        elif name.split(":")[0] == name and f'<html lang="{PSEUDO}"' not in html:
            wrong.append(f"{name}: not drawn in the pseudo language (<html lang=\"{PSEUDO}\">)")
    assert not wrong, "\n".join(wrong)
    assert OPEN in drawings["fresh"]["my games"][1]  # the pseudo catalogue is in use


def test_every_visible_text_of_the_main_pages_is_marked_for_translation(drawings):
    report = {name: found for name, found in drawings["leftovers"].items() if found}
    if report:
        lines = [f"{name} ({len(found)}):\n    " + "\n    ".join(found) for name, found in report.items()]
        pytest.fail("Text on these pages is not marked for translation ({% translate %}, gettext, or the "
                    "catalogue lacks it: run `make messages`):\n  " + "\n  ".join(lines), pytrace=False)


def test_a_page_drawn_in_english_first_is_drawn_again_in_the_readers_language(drawings):
    """The live page's drawings are shared (games/live.py): one drawn for an English reader
    must not be served to a reader of another language."""
    def numberless(texts):  # a clock may have moved on between the two drawings
        return {re.sub(r"\d+", "#", text) for text in texts}

    differ = {}
    for name, found in drawings["leftovers_again"].items():
        fresh = numberless(drawings["leftovers"].get(name, []))
        new = [text for text in found if re.sub(r"\d+", "#", text) not in fresh]
        if new:
            differ[name] = new
    assert not differ, "English text reached a page in the pseudo language after an English drawing:\n" + "\n".join(
        f"  {name}: {texts}" for name, texts in differ.items())


def _numeric_attributes(html: str) -> list[tuple[str, str, str]]:
    found = []
    for tag, attributes in read_page(html).elements:
        for name, value in attributes.items():
            if (re.search(r"\d", value) and name not in VISIBLE_ATTRIBUTES and name not in VARYING_ATTRIBUTES
                    and attributes.get("name") != "csrfmiddlewaretoken"):
                found.append((tag, name, value))
    return found


def test_numbers_in_svg_and_attributes_are_the_same_in_every_language(drawings):
    """Coordinates, sizes, data and form values are written for machines: a decimal comma
    (German, Spanish, Esperanto) would break a drawing or a form."""
    wrong, compared = [], 0
    for name, (_status, html) in drawings["english"].items():
        english, other = _numeric_attributes(html), _numeric_attributes(drawings["fresh"][name][1])
        compared += len(english)
        if len(english) != len(other):
            wrong.append(f"{name}: {len(english)} numeric attributes in English, {len(other)} in the pseudo language")
            continue
        for (tag, attribute, value), (_tag, _attribute, localized) in zip(english, other):
            if value != localized:
                wrong.append(f"{name}: <{tag} {attribute}>: {value!r} in English, {localized!r} in the pseudo language")
    assert not wrong, "\n".join(wrong[:60])
    assert compared > 1000  # the boards' drawings are among them


# --- the JavaScript catalogue -------------------------------------------------------------------

def test_the_javascript_catalogue_serves_the_marked_script_strings(tmp_path):
    source = SOURCE / "djangojs.po"
    if not source.exists():
        pytest.skip(f"{source} does not exist yet (no script string is marked, or `make messages` has not run)")
    with pseudo_language(tmp_path):
        response = Client().get(reverse("javascript_catalog", args=[PSEUDO]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    served = json.loads(re.search(r"const newcatalog = (\{.*?\});\n", response.content.decode(), re.S).group(1))
    missing = []
    for message in catalogues.read(source):
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        if message.context:
            key = f"{message.context}\x04{key}"
        expected = ([pseudo(message.id[0]), pseudo(message.id[1])] if isinstance(message.id, (list, tuple))
                    else pseudo(message.id))
        if served.get(key) != expected:
            missing.append(f"{key!r}: {served.get(key)!r}")
    assert not missing, "Not in the JavaScript catalogue as marked:\n  " + "\n  ".join(missing)


# --- the check itself ---------------------------------------------------------------------------

def test_the_pseudo_language_marks_the_words_and_keeps_placeholders_and_tags():
    assert pseudo("Round %(round)s of %(rounds)s") == "⟦Round ⟧%(round)s⟦ of ⟧%(rounds)s"
    assert pseudo("<strong>%(n)s</strong> points") == "<strong>%(n)s</strong>⟦ points⟧"
    assert pseudo('<abbr title="no move received">NMR</abbr>') == '<abbr title="⟦no move received⟧">⟦NMR⟧</abbr>'
    assert pseudo("100%% sure") == "⟦100⟧%%⟦ sure⟧"
    assert pseudo("Round %(round)s of %(rounds)s") % {"round": 2, "rounds": 7} == "⟦Round ⟧2⟦ of ⟧7"


def test_the_check_finds_an_unmarked_word_wherever_it_is():
    page = """<!DOCTYPE html><html lang="eo"><head><title>⟦My games⟧ · hexsite</title>
      <meta name="description" content="⟦Hex tile games⟧"><script>var a = "Never read";</script>
      <style>.x::after { content: "Never read" }</style></head>
      <body><h1>⟦Round ⟧3⟦ of ⟧12</h1><p>⟦Deadline: ⟧Sat 5 Dec 2026, 21:18 UTC</p>
      <p><strong>ana</strong>⟦ placed ⟧<em>2</em>⟦ tiles on ⟧A1</p>
      <p>⟦Welcome to ⟧Hexland</p><p>Unmarked words</p>
      <button type="button" aria-label="Close the panel">×</button>
      <input type="submit" value="Send it"><input type="hidden" name="next" value="/x/">
      <img src="a.png" alt="⟦A tile⟧"><svg viewBox="0 0 10 10"><title>Board drawing</title>
      <text x="1.5" y="2">7</text><text>Forest</text></svg>
      <select name="language"><option value="de">Deutsch</option></select>
      <select name="timezone" data-timezone><optgroup label="⟦Europe⟧"><option>Berlin (UTC+01:00)</option></optgroup></select>
      <template><p>In a template</p></template></body></html>"""
    with translation.override("en"):
        found = Leftovers(["ana"]).of_page(page)
    assert found == ["Unmarked words", "Board drawing", "Forest", "In a template",
                     '<button aria-label="Close the panel">', '<input value="Send it">'], found
