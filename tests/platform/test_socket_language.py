"""A game socket draws its regions in the language its page was drawn in: the player's saved
language first, then the footer's cookie, then the browser's Accept-Language, then English."""
from types import SimpleNamespace

import pytest

from hexsite.i18n import language_of_socket


def scope(user=None, **headers):
    return {"user": user, "headers": [(name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()]}


def player(language=""):
    return SimpleNamespace(is_authenticated=True, language=language)


@pytest.mark.parametrize(("socket", "expected"), [
    (scope(player("es"), cookie="django_language=de", accept_language="de-DE,de;q=0.9"), "es"),
    (scope(player(""), cookie="django_language=de; sessionid=x", accept_language="es"), "de"),
    (scope(player(""), accept_language="fr-FR,fr;q=0.9,es;q=0.8,en;q=0.5"), "es"),
    (scope(player(""), accept_language="de-AT"), "de"),
    (scope(player(""), accept_language="en-US,en;q=0.9"), "en-gb"),
    (scope(player(""), cookie="django_language=xx", accept_language="pt-BR"), "en-gb"),
    (scope(None), "en-gb"),
])
def test_a_socket_speaks_the_language_its_page_was_drawn_in(socket, expected):
    assert language_of_socket(socket) == expected
