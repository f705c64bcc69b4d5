"""The JavaScript catalogue: Django's own view, at one address per language and release, so a
browser keeps it for a day instead of asking again on every page."""
from __future__ import annotations

import time

from django.conf import settings
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header
from django.views.decorators.cache import cache_control
from django.views.i18n import JavaScriptCatalog

# New with each start of the site, so a release's new strings reach browsers at once.
CATALOGUE_VERSION = str(int(time.time()))


@cache_control(max_age=24 * 3600, private=True)
def javascript_catalog(request, language: str):
    """The strings of the djangojs domain in ``language`` (a code we do not speak: English)."""
    try:
        code = translation.get_supported_language_variant(language)
    except LookupError:
        code = translation.get_supported_language_variant("en")
    with translation.override(code):
        return JavaScriptCatalog.as_view(domain="djangojs")(request)


def catalogue_version(request) -> dict:
    """Template context: the release part of the catalogue's address."""
    return {"js_catalogue_version": CATALOGUE_VERSION}


def language_of_socket(scope) -> str:
    """The language a game socket draws in: the one its page was drawn in, chosen as for a
    request (the player's saved language, the footer's cookie, Accept-Language, English)."""
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False) and getattr(user, "language", ""):
        return _supported(user.language) or settings.LANGUAGE_CODE
    headers = {name: value.decode("latin-1") for name, value in scope.get("headers") or []}
    cookie = parse_cookie(headers.get(b"cookie", "")).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie and _supported(cookie):
        return _supported(cookie)
    for code, _quality in parse_accept_lang_header(headers.get(b"accept-language", "")):
        if code != "*" and _supported(code):
            return _supported(code)
    return settings.LANGUAGE_CODE


def _supported(code: str) -> str | None:
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None
