"""Apps' tokens through OAuth2 (authorization code with PKCE, api/oauth.py), driven through
Django's test client as an app and a player would: the consent page, the code, the token, the
API with it, a refresh; each refusal; the profile page's revoke; a stream ending at revocation."""
from __future__ import annotations

import asyncio
import base64
import datetime as dt
import hashlib
import io
import json
import secrets
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application, RefreshToken

from api import oauth, openapi, streams
from api.models import Scope
from tests.api.conftest import ApiClient, token_for
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db

REDIRECT = "http://127.0.0.1:8765/callback"


def register_app(name: str = "Hex Helper", **fields) -> Application:
    """An app as staff register it: a public client (a native app or bot) by default."""
    defaults = dict(client_type=Application.CLIENT_PUBLIC, authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
                    redirect_uris=REDIRECT, client_secret="")
    return Application.objects.create(name=name, **{**defaults, **fields})


def pkce_pair() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def authorize_url(app: Application, challenge: str | None, scope: str = "read play", method: str | None = "S256",
                  state: str = "st-42") -> str:
    params = {"response_type": "code", "client_id": app.client_id, "redirect_uri": REDIRECT, "scope": scope,
              "state": state}
    if challenge is not None:
        params["code_challenge"] = challenge
    if method is not None:
        params["code_challenge_method"] = method
    return "/oauth/authorize/?" + urlencode(params)


def redirect_params(response) -> dict[str, str]:
    assert response.status_code == 302, response.status_code
    location = urlsplit(response["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == REDIRECT
    return {name: values[0] for name, values in parse_qs(location.query).items()}


def answer_consent(browser: Client, url: str, allow: bool) -> dict[str, str]:
    """Send the consent page's own form back, as a browser would: its hidden fields, and the
    Allow button's name when allowing."""
    page = browser.get(url)
    assert page.status_code == 200
    data = {field.html_name: field.value() or "" for field in page.context["form"].hidden_fields()}
    if allow:
        data["allow"] = "on"
    return redirect_params(browser.post(url, data))


def exchange(app: Application, code: str, verifier: str | None) -> tuple[int, dict]:
    data = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT, "client_id": app.client_id}
    if verifier is not None:
        data["code_verifier"] = verifier
    answer = Client().post("/oauth/token/", data)
    return answer.status_code, answer.json()


def tokens_for(user, app: Application, scope: str = "read play") -> dict:
    """The whole flow for ``user``: consent allowed, the code exchanged with its verifier."""
    browser = Client()
    browser.force_login(user)
    verifier, challenge = pkce_pair()
    code = answer_consent(browser, authorize_url(app, challenge, scope), allow=True)["code"]
    status, body = exchange(app, code, verifier)
    assert status == 200, body
    return body


def problem(answer, status: int) -> dict:
    assert answer.status_code == status, (answer.status_code, answer.content)
    assert answer["Content-Type"] == "application/problem+json"
    return answer.json()


# --- the flow ---------------------------------------------------------------------------------


def test_the_whole_pkce_flow_consent_code_token_api_and_refresh(make_user):
    user = make_user("app-user")
    app = register_app()
    browser = Client()
    login = browser.get(authorize_url(app, pkce_pair()[1]))
    assert login.status_code == 302 and login["Location"].startswith(reverse("account_login"))  # signing in first

    browser.force_login(user)
    verifier, challenge = pkce_pair()
    url = authorize_url(app, challenge, scope="read play")
    page = browser.get(url)
    html = page.content.decode()
    assert page.status_code == 200
    assert "Hex Helper" in html and '<a class="skip-link"' in html  # the site's own layout
    assert [scope for scope, _description in page.context["requested_scopes"]] == ["read", "play"]
    for scope in (Scope.READ, Scope.PLAY):
        assert str(scope.label) in html
    assert str(Scope.ORGANISE.label) not in html
    assert 'name="allow"' in html and "<script>" not in html and "style=" not in html
    # The answer redirects to the app: the page's CSP lets its form go there, and nowhere else new.
    csp = page["Content-Security-Policy"]
    assert "form-action 'self' http://127.0.0.1:8765" in csp and "'unsafe-inline'" not in csp

    given = answer_consent(browser, url, allow=True)
    assert given["state"] == "st-42" and given["code"] and given["iss"] == "http://testserver"  # RFC 9207
    status, body = exchange(app, given["code"], verifier)
    assert status == 200, body
    assert body["token_type"] == "Bearer" and body["scope"] == "read play"
    assert body["access_token"].startswith("hxa_") and body["refresh_token"].startswith("hxr_")
    assert 3500 <= body["expires_in"] <= 3600
    # Only the sha256 of each token is kept.
    assert not AccessToken.objects.filter(token=body["access_token"]).exists()
    assert AccessToken.objects.get(token_checksum=hashlib.sha256(body["access_token"].encode()).hexdigest()).token == ""

    assert ApiClient(body["access_token"]).get("/account").json()["username"] == "app-user"
    assert exchange(app, given["code"], verifier)[0] == 400  # a code is used once

    refreshed = Client().post("/oauth/token/", {"grant_type": "refresh_token", "refresh_token": body["refresh_token"],
                                                 "client_id": app.client_id})
    assert refreshed.status_code == 200, refreshed.content
    new = refreshed.json()
    assert new["refresh_token"] != body["refresh_token"]  # rotated
    assert ApiClient(new["access_token"]).get("/account").status_code == 200
    problem(ApiClient(body["access_token"]).get("/account"), 401)  # the old access token ended with its refresh
    # The old refresh token replayed: refused, and its whole family revoked (reuse protection).
    replay = Client().post("/oauth/token/", {"grant_type": "refresh_token", "refresh_token": body["refresh_token"],
                                              "client_id": app.client_id})
    assert replay.status_code == 400
    problem(ApiClient(new["access_token"]).get("/account"), 401)


def test_a_confidential_app_authenticates_with_its_secret(make_user):
    user = make_user()
    out = io.StringIO()
    call_command("oauth_app", "Server App", "--redirect-uri", REDIRECT, "--confidential", stdout=out)
    printed = dict(line.split(": ", 1) for line in out.getvalue().strip().splitlines())
    app = Application.objects.get(client_id=printed["client_id"])
    assert app.client_type == Application.CLIENT_CONFIDENTIAL and app.client_secret != printed["client_secret"]
    browser = Client()
    browser.force_login(user)
    verifier, challenge = pkce_pair()
    code = answer_consent(browser, authorize_url(app, challenge, "read"), allow=True)["code"]
    data = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT, "code_verifier": verifier}
    basic = base64.b64encode(f"{app.client_id}:wrong".encode()).decode()
    assert Client().post("/oauth/token/", data, HTTP_AUTHORIZATION=f"Basic {basic}").status_code == 401
    basic = base64.b64encode(f"{app.client_id}:{printed['client_secret']}".encode()).decode()
    answer = Client().post("/oauth/token/", data, HTTP_AUTHORIZATION=f"Basic {basic}")
    assert answer.status_code == 200, answer.content


# --- refusals ---------------------------------------------------------------------------------


def test_a_missing_or_wrong_code_verifier_is_refused(make_user):
    user, app = make_user(), register_app()
    browser = Client()
    browser.force_login(user)
    verifier, challenge = pkce_pair()
    code = answer_consent(browser, authorize_url(app, challenge), allow=True)["code"]
    status, body = exchange(app, code, None)
    assert status == 400 and body["error"] == "invalid_request"
    status, body = exchange(app, code, pkce_pair()[0])
    assert status == 400 and body["error"] == "invalid_grant"
    assert not AccessToken.objects.exists()


@pytest.mark.parametrize("challenge, method", [(None, None), ("plain-challenge-" + "x" * 40, "plain"),
                                               ("challenge-without-its-method-" + "x" * 30, None)])
def test_authorization_without_pkce_s256_is_refused_before_any_consent(make_user, challenge, method):
    user, app = make_user(), register_app()
    browser = Client()
    browser.force_login(user)
    refused = redirect_params(browser.get(authorize_url(app, challenge, method=method)))
    assert refused["error"] == "invalid_request" and refused["state"] == "st-42" and "code" not in refused


def test_unknown_apps_and_unregistered_redirects_get_a_page_never_a_redirect(make_user):
    user, app = make_user(), register_app()
    browser = Client()
    browser.force_login(user)
    url = authorize_url(app, pkce_pair()[1]).replace(REDIRECT.replace(":", "%3A").replace("/", "%2F"),
                                                     "https%3A%2F%2Fevil.example%2F")
    page = browser.get(url)
    assert page.status_code == 400 and "cannot be answered" in page.content.decode()
    page = browser.get(authorize_url(app, pkce_pair()[1]).replace(app.client_id, "no-such-app"))
    assert page.status_code == 400 and "cannot be answered" in page.content.decode()


def test_denying_sends_the_app_access_denied(make_user):
    user, app = make_user(), register_app()
    browser = Client()
    browser.force_login(user)
    denied = answer_consent(browser, authorize_url(app, pkce_pair()[1]), allow=False)
    assert denied == {"error": "access_denied", "state": "st-42"}
    assert not AccessToken.objects.exists()


def test_an_unknown_scope_or_another_grant_is_refused(make_user):
    user, app = make_user(), register_app()
    browser = Client()
    browser.force_login(user)
    assert redirect_params(browser.get(authorize_url(app, pkce_pair()[1], scope="read admin")))["error"] == "invalid_scope"
    # The implicit grant is never served, whatever an application row says.
    implicit = register_app("Old style", authorization_grant_type=Application.GRANT_IMPLICIT)
    url = authorize_url(implicit, pkce_pair()[1]).replace("response_type=code", "response_type=token")
    assert redirect_params(browser.get(url)) == {"error": "unsupported_response_type", "state": "st-42"}
    # Nor a code to an app registered for another grant.
    assert redirect_params(browser.get(authorize_url(implicit, pkce_pair()[1])))["error"] == "unauthorized_client"
    # No scope named: read only.
    page = browser.get(authorize_url(app, pkce_pair()[1]).replace("scope=read+play&", ""))
    assert [scope for scope, _description in page.context["requested_scopes"]] == ["read"]
    client_credentials = register_app("Machine", client_type=Application.CLIENT_CONFIDENTIAL,
                                      authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS,
                                      client_secret="s3cret-s3cret")
    answer = Client().post("/oauth/token/", {"grant_type": "client_credentials", "client_id": client_credentials.client_id,
                                             "client_secret": "s3cret-s3cret"})
    assert answer.status_code == 400 and answer.json()["error"] == "unsupported_grant_type"


def test_a_token_without_play_gets_403_naming_it_on_a_move(make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    app = register_app()
    body = tokens_for(ana, app, scope="read")
    client = ApiClient(body["access_token"])
    assert client.get(f"/games/{game.pk}").status_code == 200
    refused = problem(client.post(f"/games/{game.pk}/moves", {"version": game.version, "move": {"type": "add", "n": 1}}),
                      403)
    assert refused["scope"] == "play" and "play" in refused["detail"]


def test_revoked_and_expired_tokens_get_401_at_once(make_user):
    user, app = make_user(), register_app()
    body = tokens_for(user, app)
    client = ApiClient(body["access_token"])
    assert client.get("/account").status_code == 200
    revoked = Client().post("/oauth/revoke/", {"token": body["access_token"], "client_id": app.client_id})
    assert revoked.status_code == 200
    refused = problem(client.get("/account"), 401)
    assert refused["detail"] and client.get("/account")["WWW-Authenticate"].startswith("Bearer")

    body = tokens_for(user, app)
    AccessToken.objects.filter(user=user).update(expires=timezone.now() - dt.timedelta(seconds=1))
    problem(ApiClient(body["access_token"]).get("/account"), 401)
    # An unknown token of the app's kind too.
    problem(ApiClient("hxa_" + "x" * 40).get("/account"), 401)


def test_a_bot_may_not_allow_an_app_to_play_without_the_bot_scope(make_user):
    bot = make_user(is_bot=True)
    app = register_app()
    browser = Client()
    browser.force_login(bot)
    url = authorize_url(app, pkce_pair()[1], scope="read play")
    page = browser.get(url)
    html = page.content.decode()
    assert page.status_code == 200 and "bot scope" in html and 'name="allow"' not in html
    # An Allow sent anyway: the app gets invalid_scope, and no code.
    data = {field.html_name: field.value() or "" for field in page.context["form"].hidden_fields()}
    refused = redirect_params(browser.post(url, {**data, "allow": "on"}))
    assert refused["error"] == "invalid_scope" and "code" not in refused
    # Asking for bot, it may; its token plays as a bot's does (bot, not play).
    body = tokens_for(bot, app, scope="read bot")
    assert ApiClient(body["access_token"]).post("/bot/account/upgrade").json()["bot"] is True


def test_an_apps_limits_are_counted_for_the_app_and_user_across_refreshes(make_user, settings):
    settings.API_RATE_LIMITS = {"read": (2, 60)}
    user, app = make_user(), register_app()
    body = tokens_for(user, app)
    client = ApiClient(body["access_token"])
    assert [client.get("/account").status_code for _ in range(2)] == [200, 200]
    assert "Retry-After" in client.get("/account")
    refreshed = Client().post("/oauth/token/", {"grant_type": "refresh_token", "refresh_token": body["refresh_token"],
                                                 "client_id": app.client_id}).json()
    problem(ApiClient(refreshed["access_token"]).get("/account"), 429)  # a refresh starts nothing afresh
    assert ApiClient(token_for(user)).get("/account").status_code == 200  # a personal token counts apart


# --- the profile page ---------------------------------------------------------------------------


def test_the_profile_page_lists_allowed_apps_and_revokes_one_at_once(make_user):
    user, other = make_user("app-owner"), make_user()
    app, other_app = register_app("Hex Helper"), register_app("Board Printer")
    body = tokens_for(user, app, scope="read play")
    kept = tokens_for(user, other_app, scope="read")
    others = tokens_for(other, app, scope="read")
    browser = Client()
    browser.force_login(user)
    page = browser.get(reverse("profile")).content.decode()
    assert 'id="authorised-apps"' in page and "Hex Helper</strong> (read, play)" in page
    assert "Board Printer</strong> (read)" in page
    revoke_url = reverse("api_app_revoke", args=[app.pk])
    assert f'action="{revoke_url}"' in page

    answer = browser.post(revoke_url, follow=True)
    assert "revoked" in answer.content.decode()
    problem(ApiClient(body["access_token"]).get("/account"), 401)
    refresh = Client().post("/oauth/token/", {"grant_type": "refresh_token", "refresh_token": body["refresh_token"],
                                               "client_id": app.client_id})
    assert refresh.status_code == 400  # its refresh token ended too
    assert ApiClient(kept["access_token"]).get("/account").status_code == 200  # another app stays
    assert ApiClient(others["access_token"]).get("/account").status_code == 200  # another user's stays
    assert "Hex Helper" not in browser.get(reverse("profile")).content.decode()
    assert RefreshToken.objects.filter(user=user, application=app, revoked__isnull=False).exists()
    # Nothing left to revoke, or not theirs: said so, nothing changes.
    answer = browser.post(revoke_url, follow=True)
    assert "No such app" in answer.content.decode()
    assert browser.get(revoke_url).status_code == 405


def test_an_expired_access_token_with_a_live_refresh_token_still_lists_the_app(make_user):
    user, app = make_user(), register_app()
    tokens_for(user, app)
    AccessToken.objects.filter(user=user).update(expires=timezone.now() - dt.timedelta(hours=2))
    assert [found.name for found in oauth.authorised_apps(user)] == ["Hex Helper"]


# --- the admin and the OpenAPI document -------------------------------------------------------


def test_staff_register_an_app_in_the_admin_with_safe_redirects_only(make_user, django_user_model):
    root = django_user_model.objects.create_superuser("oauth-root", "root@example.com", "a-long-pass-phrase")
    browser = Client()
    browser.force_login(root)
    add = reverse("admin:oauth2_provider_application_add")
    form = {"name": "Lobby Watcher", "client_type": "public", "client_id": "lobby-watcher", "client_secret": "",
            "redirect_uris": "http://evil.example/cb", "user": ""}
    assert 'name="client_secret"' in browser.get(add).content.decode()  # a new secret, to copy before it is hashed
    refused = browser.post(add, form)
    assert refused.status_code == 200 and "use https" in refused.content.decode()
    assert browser.post(add, {**form, "redirect_uris": f"https://watcher.example/cb {REDIRECT}"}).status_code == 302
    app = Application.objects.get(client_id="lobby-watcher")
    assert app.authorization_grant_type == Application.GRANT_AUTHORIZATION_CODE and not app.skip_authorization
    change = browser.get(reverse("admin:oauth2_provider_application_change", args=[app.pk])).content.decode()
    assert "Lobby Watcher" in change and 'name="client_secret"' not in change


def test_the_openapi_document_declares_both_security_schemes():
    document = openapi.document()
    schemes = document["components"]["securitySchemes"]
    assert schemes["bearer"] == {**schemes["bearer"], "type": "http", "scheme": "bearer"}
    flow = schemes["oauth2"]["flows"]["authorizationCode"]
    assert flow["authorizationUrl"].endswith("/oauth/authorize/") and flow["tokenUrl"].endswith("/oauth/token/")
    assert flow["refreshUrl"].endswith("/oauth/token/")
    assert set(flow["scopes"]) == {"read", "play", "bot", "organise"}
    account = document["paths"]["/account"]["get"]
    assert {"oauth2": ["read"]} in account["security"] and {"bearer": []} in account["security"]


# --- streams ------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_an_open_stream_ends_when_the_app_is_revoked(make_user, monkeypatch):
    from tests.api.test_streams import Reader, stream_request
    from tests.web.test_consumer import close_db_connections, run_scenario

    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 0.2)
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    app = register_app()
    body = tokens_for(ana, app)

    async def scenario():
        reader = Reader(stream_request(f"/api/v1/games/{game.pk}/stream", body["access_token"]))
        assert (await reader.start())["status"] == 200
        assert (await reader.line())["type"] == "gameFull"
        await asyncio.sleep(0.5)
        assert await sync_to_async(oauth.revoke_app)(user=ana, application_id=app.pk)
        assert await reader.line(timeout=5) is None  # the answer ended
        await close_db_connections()

    run_scenario(scenario)


@pytest.mark.django_db(transaction=True)
def test_an_open_stream_ends_when_its_access_token_expires(make_user, monkeypatch):
    from tests.api.test_streams import Reader, stream_request
    from tests.web.test_consumer import close_db_connections, run_scenario

    monkeypatch.setattr(streams, "KEEPALIVE_SECONDS", 0.2)
    monkeypatch.setattr(streams, "TOKEN_CHECK_SECONDS", 0.2)  # an expiry moved in the database is read again
    user = make_user()
    body = tokens_for(user, register_app())

    async def scenario():
        reader = Reader(stream_request("/api/v1/stream/events", body["access_token"]))
        assert (await reader.start())["status"] == 200
        await asyncio.sleep(0.5)
        await sync_to_async(AccessToken.objects.filter(user=user).update)(expires=timezone.now())
        assert await reader.line(timeout=5) is None
        await close_db_connections()

    run_scenario(scenario)


def test_json_is_what_the_token_endpoint_answers(make_user):
    # A client reads the token endpoint's errors as JSON too (RFC 6749 §5.2).
    answer = Client().post("/oauth/token/", {"grant_type": "authorization_code", "code": "nope",
                                             "redirect_uri": REDIRECT, "client_id": "nobody"})
    assert answer.status_code in (400, 401) and "error" in json.loads(answer.content)


@pytest.mark.parametrize("language, allow, deny, read", [("de", "Erlauben", "Ablehnen", "Dein Konto und deine Partien lesen"),
                                                         ("es", "Permitir", "Denegar", "Leer tu cuenta y tus partidas")])
def test_the_consent_page_speaks_the_players_language(make_user, language, allow, deny, read):
    user = make_user(language=language)
    browser = Client()
    browser.force_login(user)
    html = browser.get(authorize_url(register_app(), pkce_pair()[1], scope="read")).content.decode()
    assert f">{allow}</button>" in html and f">{deny}</button>" in html and read in html
