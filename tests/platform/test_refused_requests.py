"""Oversized or over-long requests are refused with 400 and logged as one warning line.

Django answers a body over DATA_UPLOAD_MAX_MEMORY_SIZE (RequestDataTooBig) and a form over
DATA_UPLOAD_MAX_NUMBER_FIELDS ("Max number of fields exceeded", TooManyFieldsSent) with 400, and
logged each at ERROR with a full traceback: a client's doing, not the site's fault, and easy to
send in numbers. hexsite/logfilters.py makes each one WARNING line that names the request.
Both through the WSGI test client and the ASGI handler Daphne runs.
"""
from __future__ import annotations

import asyncio
import logging

import pytest
from django.conf import settings
from django.test import AsyncClient, Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

CLIENT = "203.0.113.9"


def too_big() -> bytes:
    return b"login=" + b"x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)


def too_many_fields() -> bytes:
    return b"&".join(b"f%d=1" % n for n in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))


def refusal_records(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("django.security") or r.name == "django.request"]


def post_wsgi(body: bytes):
    """The test client (WSGI), from CLIENT; returns the response and the client's address."""
    return Client().post(reverse("account_login"), body, content_type="application/x-www-form-urlencoded",
                         REMOTE_ADDR=CLIENT), CLIENT


def post_asgi(body: bytes):
    """Through Django's ASGI handler, as under Daphne (the async test client is 127.0.0.1)."""
    async def post():
        return await AsyncClient().post(reverse("account_login"), body,
                                        content_type="application/x-www-form-urlencoded")
    return asyncio.run(post()), "127.0.0.1"


@pytest.mark.parametrize("post", [post_wsgi, post_asgi], ids=["wsgi", "asgi"])
@pytest.mark.parametrize("body, kind, says", [
    (too_big, "RequestDataTooBig", "Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE"),
    (too_many_fields, "TooManyFieldsSent", "The number of GET/POST parameters exceeded"),
], ids=["too-big", "too-many-fields"])
def test_a_refused_request_is_a_400_and_one_warning_line_without_a_traceback(caplog, post, body, kind, says):
    caplog.set_level(logging.INFO)
    response, address = post(body())
    assert response.status_code == 400
    records = refusal_records(caplog)
    assert len(records) == 1, [(r.name, r.levelname, r.getMessage()) for r in records]
    record = records[0]
    assert record.name == f"django.security.{kind}"
    assert record.levelno == logging.WARNING
    assert record.exc_info is None and record.exc_text is None and record.stack_info is None
    line = logging.Formatter("%(levelname)s %(name)s %(message)s").format(record)
    assert "\n" not in line and "Traceback" not in line
    assert line.startswith(f"WARNING django.security.{kind} Refused with 400 ({kind}: {says}")
    assert line.endswith(f"): POST /accounts/login/ from {address}")
    assert "Refused with 400" in caplog.text and "Traceback" not in caplog.text


def test_a_client_cannot_write_a_second_line_into_the_log():
    from django.core.exceptions import TooManyFieldsSent
    from django.test import RequestFactory

    from hexsite.logfilters import RefusedRequestFilter

    request = RequestFactory().post("/games/1/")
    request.path = "/games/1/\nERROR forged line/"  # as a server might pass on a decoded %0A
    record = logging.LogRecord("django.security.TooManyFieldsSent", logging.ERROR, __file__, 1,
                               "Too many\nfields", (), (TooManyFieldsSent, TooManyFieldsSent("x"), None))
    record.request = request
    assert RefusedRequestFilter().filter(record)
    line = logging.Formatter().format(record)
    assert "\n" not in line and line.endswith("POST /games/1/\\nERROR forged line/ from 127.0.0.1")
    # Logging configured twice (a worker does it again) puts two filters on the logger: the
    # second leaves the line as it is.
    assert RefusedRequestFilter().filter(record) and logging.Formatter().format(record) == line


# --- a body declared in a charset other than UTF-8 -------------------------------------------------

FORM = "application/x-www-form-urlencoded; charset={}"


def post_login_wsgi(body: bytes, content_type: str):
    """Anonymously, as a browser would (the login page read first, the CSRF check on: it reads
    the body), the body's bytes as given."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.get(reverse("account_login"))
    return client.generic("POST", reverse("account_login"), body, content_type=content_type, REMOTE_ADDR=CLIENT,
                          HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def post_login_asgi(body: bytes, content_type: str):
    async def post():
        client = AsyncClient(enforce_csrf_checks=True, raise_request_exception=False)
        await client.get(reverse("account_login"))
        return await client.generic("POST", reverse("account_login"), body, content_type=content_type,
                                    headers={"X-CSRFToken": client.cookies["csrftoken"].value})
    return asyncio.run(post())


def one_refusal_line(caplog) -> str:
    records = refusal_records(caplog)
    assert len(records) == 1, [(r.name, r.levelname, r.getMessage()) for r in records]
    record = records[0]
    assert record.levelno == logging.WARNING and record.exc_info is None and record.stack_info is None
    assert "Traceback" not in caplog.text
    return record.getMessage()


@pytest.mark.parametrize("post", [post_login_wsgi, post_login_asgi], ids=["wsgi", "asgi"])
@pytest.mark.parametrize("charset", ["utf-7", "latin-1", "utf-16", "no-such-charset"])
def test_a_form_declared_in_another_charset_is_a_400_with_a_message_and_one_line(caplog, post, charset):
    """Before, Django's BadRequest for it met its own 400 handler's CSRF check, which read the
    body again: a 500 with chained tracebacks. UTF-7 is also a way to smuggle markup past an escape."""
    caplog.set_level(logging.INFO)
    response = post("login=ana&password=+ADw-b+AD4-".encode(), FORM.format(charset))
    assert response.status_code == 400
    assert "only as UTF-8" in response.content.decode()
    line = one_refusal_line(caplog)
    assert line.startswith(f"Refused with 400 (charset {charset}): POST /accounts/login/ from ")


def test_a_move_declared_in_utf7_is_refused_in_the_live_pages_shape_and_nothing_is_played(caplog, make_user):
    from games.models import Game
    from tests.support.factories import toy_game

    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.force_login(ana)
    client.get(reverse("game_detail", args=[game.pk]))
    move = 'version=0&move={"type": "add", "n": 2}'.encode()
    caplog.set_level(logging.INFO)
    response = client.generic("POST", reverse("game_move", args=[game.pk]), move, content_type=FORM.format("utf-7"),
                              HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    assert response.status_code == 400
    assert response.json() == {"type": "error", "message": response.json()["message"]}
    assert "only as UTF-8" in response.json()["message"]
    assert one_refusal_line(caplog).startswith(f"Refused with 400 (charset utf-7): POST /games/{game.pk}/move/ from ")
    assert Game.objects.get(pk=game.pk).version == 0
    # UTF-8 by another name is read as UTF-8 (Django's form reading knows only "utf-8").
    played = client.generic("POST", reverse("game_move", args=[game.pk]), move, content_type=FORM.format("UTF8"),
                            HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    assert played.status_code == 200 and played.json()["stamp"].startswith("1.")
