"""The translation catalogues (locale/<code>/LC_MESSAGES/<domain>.po, docs/i18n.md): every
language we offer has both, each entry is translated (none fuzzy), and each translation keeps
its msgid's placeholders and markup, so `"…" % values` never fails or loses a value."""
from __future__ import annotations

import gettext
import re
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from hypothesis import given, settings as hypothesis_settings, strategies as st

from hexsite import catalogues

# Every language of the site except the one its strings are written in.
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
DOMAINS = ("django", "djangojs")  # templates and Python; the scripts (hexsite/i18n.py)


def _expected_files() -> list[Path]:
    return [catalogues.LOCALE / code / "LC_MESSAGES" / f"{domain}.po" for code in TRANSLATED for domain in DOMAINS]


def _all_files() -> list[Path]:
    """The catalogues we must have, and any other one that is there."""
    return sorted(set(_expected_files()) | set(catalogues.catalogue_files()))


def _name(path: Path) -> str:
    return str(path.relative_to(catalogues.LOCALE.parent))


def test_the_offered_languages_are_english_german_and_spanish():
    # A new language is added to settings.LANGUAGES and gets its catalogues (README, "Adding a
    # language"); this list says which ones the tests below expect.
    assert TRANSLATED == ["de", "es"]


# --- (a) every catalogue is there and complete ---------------------------------------------------

@pytest.mark.parametrize("path", _all_files(), ids=_name)
def test_each_catalogue_exists_and_is_completely_translated(path):
    if not path.exists():
        pytest.fail(f"{_name(path)} is missing: run `make messages` (needs GNU gettext) and translate it.",
                    pytrace=False)
    missing = catalogues.incomplete(path)
    if missing:
        listed = "\n  ".join(repr(msgid) for msgid in missing)
        pytest.fail(f"{_name(path)}: {len(missing)} entries untranslated or fuzzy:\n  {listed}", pytrace=False)


# --- (b) the completeness check itself ------------------------------------------------------------

HEADER = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: de\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

'''

# Each kind of entry: its .po text for the number i, and whether incomplete() must name it.
ENTRIES = {
    "translated": ('msgid "Tile {i}"\nmsgstr "Plättchen {i}"\n', False),
    "untranslated": ('msgid "Tile {i}"\nmsgstr ""\n', True),
    "fuzzy": ('#, fuzzy\nmsgid "Tile {i}"\nmsgstr "Plättchen {i}"\n', True),
    "plural translated": ('msgid "%(count)s tile {i}"\nmsgid_plural "%(count)s tiles {i}"\n'
                          'msgstr[0] "%(count)s Plättchen {i}"\nmsgstr[1] "%(count)s Plättchen {i}"\n', False),
    "plural half": ('msgid "%(count)s tile {i}"\nmsgid_plural "%(count)s tiles {i}"\n'
                    'msgstr[0] "%(count)s Plättchen {i}"\nmsgstr[1] ""\n', True),
    "plural fuzzy": ('#, fuzzy, python-format\nmsgid "%(count)s tile {i}"\nmsgid_plural "%(count)s tiles {i}"\n'
                     'msgstr[0] "%(count)s Plättchen {i}"\nmsgstr[1] "%(count)s Plättchen {i}"\n', True),
}


def _write_po(folder: Path, kinds: list[str], domain: str = "django") -> Path:
    path = folder / "de" / "LC_MESSAGES" / f"{domain}.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + "\n".join(ENTRIES[kind][0].format(i=i) for i, kind in enumerate(kinds)), encoding="utf-8")
    return path


def _msgid(kind: str, i: int) -> str:
    return f"%(count)s tile {i}" if kind.startswith("plural") else f"Tile {i}"


def test_the_check_names_the_untranslated_and_the_fuzzy_entry_and_fails(tmp_path, monkeypatch, capsys):
    path = _write_po(tmp_path / "locale", ["untranslated", "fuzzy", "translated"])
    assert catalogues.incomplete(path) == ["Tile 0", "Tile 1"]

    monkeypatch.setattr(catalogues, "LOCALE", tmp_path / "locale")
    assert catalogues.main(["--check"]) == 1
    report = capsys.readouterr().out
    assert "locale/de/LC_MESSAGES/django.po: not translated: 'Tile 0'" in report
    assert "'Tile 1'" in report and "'Tile 2'" not in report

    # Compiled, the fuzzy translation is left out (English is shown), the good one is used.
    assert catalogues.main([]) == 0
    with path.with_suffix(".mo").open("rb") as compiled:
        german = gettext.GNUTranslations(compiled)
    assert (german.gettext("Tile 0"), german.gettext("Tile 1"), german.gettext("Tile 2")) == ("Tile 0", "Tile 1", "Plättchen 2")

    _write_po(tmp_path / "locale", ["translated", "plural translated"])
    assert catalogues.main(["--check"]) == 0


@hypothesis_settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(sorted(ENTRIES)), max_size=8))
def test_the_check_names_exactly_the_entries_without_a_whole_translation(kinds):
    with tempfile.TemporaryDirectory() as folder:
        path = _write_po(Path(folder), kinds)
        expected = [_msgid(kind, i) for i, kind in enumerate(kinds) if ENTRIES[kind][1]]
        assert catalogues.incomplete(path) == expected


# --- (c) translations keep the placeholders and the markup ----------------------------------------

# A printf-style placeholder as Python's % (and Django's JavaScript interpolate()) reads it:
# "%(name)s", "%s", "%d", "%.1f", "%%". No space flag: "100 % sicher" is no placeholder.
PLACEHOLDER = re.compile(r"%(?:\((?P<name>[^)]*)\))?[#0+-]*(?:\d+|\*)?(?:\.\d+)?(?P<type>[sdiufFeEgGxXr%])")
TAG = re.compile(r"<\s*(/?)\s*([A-Za-z][\w:-]*)")


def placeholders(text: str) -> tuple[frozenset, list[str]]:
    """The named placeholders (name, type), and the positional ones' types in order (a named
    value may be used more than once, or its place moved; a positional one may not)."""
    named, positional = set(), []
    for found in PLACEHOLDER.finditer(text):
        if found["type"] == "%":
            continue
        if found["name"] is not None:
            named.add((found["name"], found["type"]))
        else:
            positional.append(found["type"])
    return frozenset(named), positional


def markup(text: str) -> Counter:
    return Counter(f"<{slash}{name.lower()}>" for slash, name in TAG.findall(text))


def template_syntax(text: str) -> Counter:
    return Counter(piece for piece in ("{{", "}}", "{%", "%}") for _ in range(text.count(piece)))


def problems_of(msgid: str, msgstr: str) -> list[str]:
    found = []
    if placeholders(msgstr) != placeholders(msgid):
        found.append("placeholders differ")
    if markup(msgstr) != markup(msgid):
        found.append("HTML tags differ")
    if template_syntax(msgstr) != template_syntax(msgid):
        found.append("template syntax ({{ }} / {% %}) differs: it would be shown as written")
    return found


def test_the_placeholder_check_catches_what_would_break():
    assert problems_of("Round %(round)s of %(rounds)s", "Runde %(round)s von %(rounds)s") == []
    assert problems_of("Round %(round)s of %(rounds)s", "%(rounds)s: Runde %(round)s") == []  # order is free
    assert problems_of("Round %(round)s of %(rounds)s", "Runde %(round)s") == ["placeholders differ"]
    assert problems_of("Round %(round)s of %(rounds)s", "Runde %(ronda)s von %(rounds)s") == ["placeholders differ"]
    assert problems_of("%(count)s tile", "%(count)d Plättchen") == ["placeholders differ"]
    assert problems_of("%s points", "%s Punkte") == [] and problems_of("%s of %d", "%s") == ["placeholders differ"]
    assert problems_of("100% sure", "100 % sicher") == [] and problems_of("50%% off", "50%% Rabatt") == []
    assert problems_of("Read the <a href=\"%(url)s\">rules</a>", "Lies die <a href=\"%(url)s\">Regeln</a>") == []
    assert problems_of("Read the <a href=\"%(url)s\">rules</a>", "Lies die Regeln (%(url)s)") == ["HTML tags differ"]
    assert problems_of("Hello %(name)s", "Hallo {{ name }}") == [
        "placeholders differ", "template syntax ({{ }} / {% %}) differs: it would be shown as written"]


def _translations(path: Path):
    """(msgid, msgstr) for each translated form of each entry: a plural's first form against the
    msgid, the others against msgid_plural."""
    for message in catalogues.read(path):
        if not message.id:
            continue  # the header
        if isinstance(message.id, (list, tuple)):
            singular, plural = message.id[0], message.id[1]
            strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            for index, string in enumerate(strings):
                if string:
                    yield (singular if index == 0 and len(strings) > 1 else plural), string
        elif message.string:
            yield message.id, message.string


@pytest.mark.parametrize("path", _all_files(), ids=_name)
def test_each_translation_keeps_its_msgids_placeholders_and_markup(path):
    if not path.exists():
        pytest.skip(f"{_name(path)} is missing (test_each_catalogue_exists_and_is_completely_translated fails)")
    wrong = [f"{msgid!r} -> {msgstr!r}: {', '.join(problems)}"
             for msgid, msgstr in _translations(path) if (problems := problems_of(msgid, msgstr))]
    if wrong:
        listed = "\n  ".join(wrong)
        pytest.fail(f"{_name(path)}: {len(wrong)} translations that do not keep their msgid's placeholders "
                    f"(keep every %(name)s, even in a plural's singular form) or markup:\n  {listed}", pytrace=False)
