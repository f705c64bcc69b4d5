"""Production settings: Django's deployment checklist passes with DEBUG=0, every page carries a
Content-Security-Policy, and oversized request bodies are refused early."""
from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


def production_env(**overrides: str) -> dict:
    env = dict(os.environ)  # DATABASE_URL and REDIS_URL from the test run
    # Set by the browser tests' fixture in this process (Playwright's loop): never production's.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update(DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="hexsite.example")
    env.update(overrides)
    return env


def test_check_deploy_passes_with_debug_off():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=production_env(), capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_behind_a_tls_proxy():
    script = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_PROXY_SSL_HEADER, s.X_FRAME_OPTIONS]))"
    )
    env = production_env(SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto", DJANGO_SETTINGS_MODULE="hexsite.settings")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == (
        '[true, true, true, 31536000, true, ["HTTP_X_FORWARDED_PROTO", "https"], "DENY"]'
    )


def csp_directives(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        directives[name] = sources
    return directives


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/accounts/signup/"])
def test_pages_carry_a_content_security_policy(client, path):
    response = client.get(path)
    assert response.status_code == 200
    csp = csp_directives(response)
    assert csp["script-src"] == ["'self'"]  # no inline scripts, no eval
    assert "'unsafe-inline'" not in csp["style-src"]
    assert csp["object-src"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"]
    assert "'self'" in csp["connect-src"]
    assert any(source.startswith("wss://") for source in csp["connect-src"])  # the live boards


@pytest.mark.django_db
def test_styles_come_only_from_the_sites_files(client):
    # No exception for htmx's injected indicator <style>: base.html turns it off, site.css has it.
    response = client.get("/")
    assert csp_directives(response)["style-src"] == ["'self'"]
    assert '"includeIndicatorStyles":false' in response.content.decode()
    css = (ROOT / "static" / "css" / "site.css").read_text()
    assert ".htmx-indicator { opacity: 0; visibility: hidden; }" in css


@pytest.mark.django_db
def test_an_oversized_post_is_refused_with_400():
    client = Client(enforce_csrf_checks=True)  # as a browser: the CSRF check reads the body first
    client.get("/accounts/login/")
    token = client.cookies["csrftoken"].value
    response = client.post("/accounts/login/", {"login": "x" * (65 * 1024), "password": "p"},
                           headers={"X-CSRFToken": token})
    assert response.status_code == 400


@pytest.mark.django_db
def test_the_largest_form_fits_the_body_limit(client):
    # A 4,000-character league announcement of 4-byte characters: 48,000 bytes URL-encoded.
    response = client.post("/accounts/login/", {"login": "\N{GRINNING FACE}" * 4000, "password": "p"})
    assert response.status_code == 200  # the form's own error, not a refused body


@pytest.mark.parametrize("entry_point, configured, expected", [
    ("hexsite.wsgi", None, 0.0005), ("hexsite.wsgi", "0.002", 0.002),
    ("hexsite.asgi", "0.002", 0.005),  # the sockets' Daphne keeps Python's interval
])
def test_page_processes_pass_the_interpreter_between_threads_sooner(entry_point, configured, expected):
    """A move's thread back from PostgreSQL waits for the interpreter at most this long behind a
    page being drawn (hexsite/switching.py); Python's own default is 0.005 s, which the socket
    processes keep (they only draw: more switches between their drawing threads cost more)."""
    env = production_env()
    env.pop("SWITCH_INTERVAL_SECONDS", None)
    if configured is not None:
        env["SWITCH_INTERVAL_SECONDS"] = configured
    script = f"import sys, {entry_point}; print(sys.getswitchinterval())"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert float(result.stdout.strip().splitlines()[-1]) == pytest.approx(expected)


@pytest.mark.parametrize("entry_point", ["hexsite.wsgi", "hexsite.asgi"])
@pytest.mark.parametrize("overrides, frozen, thresholds", [
    ({}, False, (700, 10, 10)),  # as Python has it: nothing else was measured better
    ({"GC_FREEZE": "1", "GC_THRESHOLDS": "2000,10,10"}, True, (2000, 10, 10)),  # for measuring
])
def test_serving_processes_leave_the_collector_as_python_has_it_unless_told(entry_point, overrides, frozen, thresholds):
    """A page or socket process keeps Python's collector as it is; for measuring, it freezes what
    it made to start (the objects frozen include the views' modules, loaded before the first
    request) and takes other thresholds (hexsite/collector.py)."""
    env = production_env(**overrides)
    env.pop("HEXSITE_GC_LOG", None)
    script = (f"import gc, json, sys, {entry_point}; "
              "print(json.dumps([gc.get_freeze_count(), gc.get_threshold(), 'games.views' in sys.modules]))")
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    freeze_count, got_thresholds, views_loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert tuple(got_thresholds) == thresholds
    if frozen:
        assert views_loaded and freeze_count > 50_000
    else:
        assert freeze_count == 0
