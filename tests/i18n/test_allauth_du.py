"""German speaks to the player with "du" on every page and in every e-mail (docs/glossary.md),
the account's too (issue 45, item 9b): allauth's own German says "Sie" in some of its strings,
and locale/overrides/de says each of those in "du" (docs/i18n.md, "Other packages' words")."""
from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import allauth
import pytest
from babel.messages.pofile import read_po
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from hexsite import catalogues

# The polite form of address ("Sie", "Ihr Konto", "Ihnen"): a capital after a full stop or a
# colon is the start of a sentence, where "Sie" may also be "they"; none of our texts here
# needs that, so any of these words counts.
SIE = re.compile(r"\b(Sie|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres|Ihnen)\b")
ALLAUTH = Path(allauth.__file__).parent
OVERRIDES = catalogues.LOCALE / "overrides" / "de" / "LC_MESSAGES" / "django.po"


@pytest.fixture(autouse=True)
def _language_left_as_it_was():
    """The test client's requests activate their reader's language in this thread and leave it
    active: the tests after these would draw in German or Spanish."""
    yield
    translation.deactivate()


def strings(message) -> list[str]:
    return list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]


def catalogue(path: Path):
    with path.open("rb") as source:
        return read_po(source, locale="de")


def test_every_allauth_string_in_sie_has_our_translation_in_du():
    ours = catalogue(OVERRIDES)
    missing, polite = [], []
    for message in catalogue(ALLAUTH / "locale" / "de" / "LC_MESSAGES" / "django.po"):
        if not message.id or not any(SIE.search(text or "") for text in strings(message)):
            continue
        override = ours.get(message.id, context=message.context)
        if override is None:
            missing.append(message.id)
        elif any(SIE.search(text or "") for text in strings(override)):
            polite.append(strings(override)[0])
    assert not missing, f"allauth's German says Sie here; add them to {OVERRIDES.relative_to(catalogues.LOCALE.parent)}: {missing}"
    assert not polite, polite


def text_of(html: str) -> str:
    """What a reader sees of a page's main part (its tags and scripts taken away)."""
    main = re.search(r"<main\b.*?</main>", html, re.S)
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", main.group(0) if main else html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", body)


EMAILS = sorted(path.name for path in (ALLAUTH / "templates" / "account" / "email").glob("*.txt")
                if not path.name.startswith("base_"))
MESSAGES = sorted(path.name for path in (ALLAUTH / "templates" / "account" / "messages").glob("*.txt"))


def email_values(user) -> dict:
    """Every value an allauth e-mail or message template may use (the German and Spanish tests)."""
    return {"user": user, "current_site": SimpleNamespace(name="hexsite", domain="hexsite.example"),
            "activate_url": "https://hexsite.example/a", "password_reset_url": "https://hexsite.example/r",
            "signup_url": "https://hexsite.example/s", "username": user.username, "email": "greta@example.com",
            "deleted_email": "old@example.com", "from_email": "old@example.com", "to_email": "new@example.com",
            "ip": "192.0.2.1", "user_agent": "Firefox", "timestamp": "6.12.2026", "phone": "+49 30 1234567",
            "email_address": SimpleNamespace(email="greta@example.com"), "provider": "Example"}


def rendered_emails_and_messages(user, language: str):
    """(name, text) of each allauth e-mail and message, with a link and with a code to type."""
    with translation.override(language):
        for folder, names in (("email", EMAILS), ("messages", MESSAGES)):
            for name in names:
                for code in ("", "123456"):
                    yield f"{folder}/{name}", render_to_string(f"account/{folder}/{name}",
                                                               {**email_values(user), "code": code})


@pytest.mark.django_db
def test_every_account_email_and_message_is_written_in_du(make_user):
    found = {name: text.strip() for name, text in rendered_emails_and_messages(make_user("greta", language="de"), "de")
             if SIE.search(text)}
    assert not found, found


SIGNED_IN_PAGES = ["account_email", "account_change_password", "account_logout", "account_reauthenticate"]


def anonymous_pages() -> dict[str, str]:
    names = ["account_signup", "account_login", "account_reset_password", "account_reset_password_done",
             "account_email_verification_sent", "account_inactive", "account_reset_password_from_key_done"]
    pages = {name: reverse(name) for name in names}
    pages["a password reset link that no longer works"] = reverse("account_reset_password_from_key",
                                                                  kwargs={"uidb36": "1", "key": "no-such-key"})
    pages["an e-mail confirmation link that no longer works"] = reverse("account_confirm_email", args=["no-such-key"])
    return pages


def read_account_pages(client, user, language: str):
    """(name, what a reader sees) of each account page, anonymously and then signed in as ``user``,
    and of the forms' refusals (their errors are allauth's and Django's words too)."""
    def read(name, url, data=None):
        if data is None:
            answer = client.get(url, HTTP_ACCEPT_LANGUAGE=language, follow=True)
        else:
            answer = client.post(url, data, HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code == 200, (name, answer.status_code)
        html = answer.content.decode()
        assert f'<html lang="{language}"' in html, name
        return name, " ".join(text_of(html).split())

    for name, url in anonymous_pages().items():
        yield read(name, url)
    yield read("a sign-up refused", reverse("account_signup"),
               {"username": "no one", "email": "no-address", "password1": "12345678", "password2": "87654321"})
    yield read("a log-in refused", reverse("account_login"), {"login": user.username, "password": "not-this-one"})
    client.force_login(user)
    for name in SIGNED_IN_PAGES:
        yield read(name, reverse(name))
    yield read("a password change refused", reverse("account_change_password"),
               {"oldpassword": "not-this-one", "password1": "12345678", "password2": "12345678"})


@pytest.mark.django_db
def test_the_account_pages_are_written_in_du(client, make_user):
    found = {name: text[:400] for name, text in read_account_pages(client, make_user("greta", language="de"), "de")
             if SIE.search(text)}
    assert not found, found
