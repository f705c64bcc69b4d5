"""What a page costs a visitor: static files with hashed names, cached for ever and compressed
(WhiteNoise, after `collectstatic`), pages compressed, a favicon, and a description for search
results on every main page."""
from __future__ import annotations

import gzip
import html
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from hexsite import context_processors

pytestmark = pytest.mark.django_db

PRODUCTION_STORAGES = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                       "staticfiles": {"BACKEND": "hexsite.staticfiles.HashedStaticStorage"}}


@pytest.fixture
def collected(settings, tmp_path):
    """The site as a release serves it: `collectstatic` run, the settings' own storage, no DEBUG."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = PRODUCTION_STORAGES
    settings.WHITENOISE_USE_FINDERS = False
    call_command("collectstatic", "--noinput", verbosity=0)
    return tmp_path


def static_urls(page: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', page)


def test_static_files_have_hashed_names_long_lifetimes_and_come_compressed(collected):
    client = Client()
    page = client.get("/").content.decode()
    urls = static_urls(page)
    assert any(re.fullmatch(r"/static/css/site\.[0-9a-f]{12}\.css", url) for url in urls), urls
    assert any(re.fullmatch(r"/static/vendor/htmx/htmx\.min\.[0-9a-f]{12}\.js", url) for url in urls), urls
    for url in urls:
        plain = client.get(url)
        assert plain.status_code == 200, url
        assert "max-age=315360000" in plain["Cache-Control"] and "immutable" in plain["Cache-Control"], url
        assert "Content-Encoding" not in plain
        for encoding in ("br", "gzip"):
            packed = client.get(url, headers={"Accept-Encoding": encoding})
            assert packed["Content-Encoding"] == encoding, url
            assert int(packed["Content-Length"]) < int(plain["Content-Length"]), url
    assert gzip.decompress(b"".join(client.get(urls[0], headers={"Accept-Encoding": "gzip"}).streaming_content)) == \
        b"".join(client.get(urls[0]).streaming_content)


def test_a_file_collectstatic_never_saw_is_an_error_without_debug(collected, settings):
    from django.templatetags.static import static

    with pytest.raises(ValueError):
        static("css/not-collected.css")
    settings.DEBUG = True  # a checkout where collectstatic never ran: the plain name, from the finders
    assert static("css/not-collected.css") == "/static/css/not-collected.css"
    assert re.fullmatch(r"/static/css/site\.[0-9a-f]{12}\.css", static("css/site.css"))  # hashed in DEBUG too


@pytest.mark.parametrize("name", ["home", "account_login", "hexland_rules"])
def test_pages_come_compressed(client, name):
    response = client.get(reverse(name), headers={"Accept-Encoding": "gzip, deflate, br"})
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert b"<!DOCTYPE html>" in gzip.decompress(response.content)


def test_the_favicon_is_linked_and_served(client):
    page = client.get("/").content.decode()
    assert '<link rel="icon" href="/favicon.ico"' in page
    assert 'data:,' not in page
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] in {"image/x-icon", "image/vnd.microsoft.icon"}
    assert b"".join(response.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO file
    svg = re.search(r'<link rel="icon" href="([^"]+\.svg)"', page).group(1)
    assert client.get(svg).status_code == 200


def description(page: str) -> str:
    match = re.search(r'<meta name="description" content="([^"]*)">', page)
    assert match, "no meta description"
    return html.unescape(match.group(1))


@pytest.mark.parametrize("name", ["home", "account_login", "account_signup", "account_reset_password",
                                  "hextension_lobby", "hexland_lobby", "hexland_rules", "hextremadura_home",
                                  "league_list", "dashboard", "profile"])
def test_every_main_page_describes_itself(client, make_user, name):
    client.force_login(make_user("ana"))
    if name == "home" or name.startswith("account_"):  # pages of visitors
        client.logout()
    response = client.get(reverse(name))
    assert response.status_code == 200
    text = description(response.content.decode())
    assert text == context_processors.DESCRIPTIONS[name]
    assert len(text) > 40


def test_a_page_without_words_of_its_own_has_the_sites(client):
    response = client.get(reverse("account_reset_password_done"))
    assert description(response.content.decode()) == context_processors.SITE
