"""Third-party apps' tokens: OAuth2's authorization code grant with PKCE, served by
django-oauth-toolkit (DOT) under /oauth/ and configured here (settings.OAUTH2_PROVIDER).

- ``AppServer``: the authorization code grant and refresh tokens, nothing else (no implicit,
  password or client-credentials grant whatever an application row says), and PKCE with S256
  only: a request without a code challenge, or with ``plain``, is refused before the consent page.
- ``AppValidator``: DOT's, plus the bot rule (``bot_refusal``) wherever a code is issued.
- ``ApiScopes``: the API's own scopes (``api.models.Scope``), their descriptions its labels.
- Tokens are ``hxa_…`` (access) and ``hxr_…`` (refresh); DOT keeps only their sha256.

The API reads an app's access token as it reads a personal token (api/bearer.py); the profile
page lists the apps a user authorised (``authorised_apps``) and revokes one at once (``revoke_app``).
"""
from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass
from functools import partial

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from oauth2_provider.models import AccessToken, Application, Grant, RefreshToken
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.scopes import BaseScopes
from oauthlib.oauth2 import WebApplicationServer
from oauthlib.oauth2.rfc6749 import errors

from api.models import ALL_SCOPES, Scope
from games import realtime

ACCESS_TOKEN_PREFIX = "hxa_"
REFRESH_TOKEN_PREFIX = "hxr_"
# What an app gets when its authorization request names no scope.
DEFAULT_SCOPES = (Scope.READ.value,)


def new_access_token(request) -> str:
    return ACCESS_TOKEN_PREFIX + secrets.token_urlsafe(30)


def new_refresh_token(request) -> str:
    return REFRESH_TOKEN_PREFIX + secrets.token_urlsafe(30)


class ApiScopes(BaseScopes):
    """The scopes an app may ask for: the API's own, described as the token form describes them."""

    def get_all_scopes(self) -> dict[str, str]:
        return {scope.value: str(scope.label) for scope in Scope}

    def get_available_scopes(self, application=None, request=None, *args, **kwargs) -> list[str]:
        return list(ALL_SCOPES)

    def get_default_scopes(self, application=None, request=None, *args, **kwargs) -> list[str]:
        return list(DEFAULT_SCOPES)


def _s256_only(request) -> dict:
    """A pre-authorization check: PKCE's S256 method, never ``plain`` (RFC 9700 §2.1.1)."""
    if request.code_challenge is not None and request.code_challenge_method != "S256":
        raise errors.InvalidRequestError(description="Use code_challenge_method=S256.", request=request)
    return {}


class AppServer(WebApplicationServer):
    """oauthlib's server for web and native apps: authorization code and refresh token grants."""

    def __init__(self, request_validator, token_generator=None, token_expires_in=None, refresh_token_generator=None,
                 **unused):
        # DOT passes every server's arguments (the device flow's too); this server takes these.
        super().__init__(request_validator, token_generator=token_generator, token_expires_in=token_expires_in,
                         refresh_token_generator=refresh_token_generator)
        self.auth_grant.custom_validators.pre_auth.append(_s256_only)


class AppValidator(OAuth2Validator):
    def validate_grant_type(self, client_id, grant_type, client, request, *args, **kwargs):
        # AppServer offers no other grant; an application row that names another gets none.
        return grant_type in ("authorization_code", "refresh_token") and super().validate_grant_type(
            client_id, grant_type, client, request, *args, **kwargs)

    def validate_response_type(self, client_id, response_type, client, request, *args, **kwargs):
        return response_type == "code" and super().validate_response_type(
            client_id, response_type, client, request, *args, **kwargs)

    def validate_scopes(self, client_id, scopes, client, request, *args, **kwargs):
        # The user is known when a code is issued (consent given, or skipped): the bot rule there.
        user = getattr(request, "user", None)
        if user is not None and bot_refusal(user, scopes):
            return False
        return super().validate_scopes(client_id, scopes, client, request, *args, **kwargs)


def bot_refusal(user, scopes) -> str | None:
    """Why ``user`` may not authorise an app for ``scopes``, or None. A bot account plays with the
    ``bot`` scope, never ``play`` (api.http.check_scope): an app asking to play for a bot
    without ``bot`` could not, so the bot may not authorise it."""
    if getattr(user, "is_bot", False) and Scope.PLAY in scopes and Scope.BOT not in scopes:
        return _("This is a bot account: it plays with the bot scope, and this app asks to play without it. "
                 "The app must ask for the bot scope to play for a bot.")
    return None


# --- the API's side: an access token read (api/bearer.py) ----------------------------------------------


def _checksum(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def access_token_for_secret(secret: str) -> AccessToken | None:
    """The app's usable access token with this secret (its owner loaded), or None: unknown,
    revoked (DOT deletes a revoked access token), expired, or an owner who may no longer sign in."""
    if not secret.startswith(ACCESS_TOKEN_PREFIX) or len(secret) > 200:
        return None
    token = (AccessToken.objects.select_related("user").filter(token_checksum=_checksum(secret))
             .exclude(application=None).exclude(user=None).first())
    if token is None or token.is_expired() or not token.user.is_active:
        return None
    return token


def access_token_usable(token_id: int) -> bool:
    """Is the access token still there (not revoked), unexpired, its owner active?"""
    token = AccessToken.objects.select_related("user").filter(pk=token_id).first()
    return token is not None and token.user is not None and not token.is_expired() and token.user.is_active


# --- the profile page: the apps a user authorised ---------------------------------------------


@dataclass(frozen=True)
class AuthorisedApp:
    application_id: int
    name: str
    scopes: tuple[str, ...]  # in the order of api.models.Scope
    authorised_at: dt.datetime


def _live_tokens(user):
    """The user's apps' access tokens that still work, or whose refresh token still may."""
    return AccessToken.objects.filter(user=user, application__isnull=False).filter(
        Q(expires__gt=timezone.now()) | Q(refresh_token__revoked__isnull=True, refresh_token__isnull=False))


def authorised_apps(user) -> list[AuthorisedApp]:
    """The apps holding a working token of ``user``, each once with the scopes of its tokens;
    the latest authorised first."""
    scopes: dict[int, set[str]] = {}
    for application_id, scope in _live_tokens(user).values_list("application_id", "scope"):
        scopes.setdefault(application_id, set()).update(scope.split())
    apps = (Application.objects.filter(pk__in=scopes)
            .annotate(latest=Max("accesstoken__created", filter=Q(accesstoken__user=user))).order_by("-latest", "pk"))
    return [AuthorisedApp(app.pk, app.name or app.client_id, tuple(s for s in ALL_SCOPES if s in scopes[app.pk]),
                          app.latest) for app in apps]


def revoke_app(*, user, application_id: int) -> bool:
    """End every token and pending code ``user`` gave the app, at once (its open streams too);
    False when the app held none that still worked."""
    with transaction.atomic():
        had_any = _live_tokens(user).filter(application_id=application_id).exists()
        # Revoked, not deleted: DOT's reuse protection tells a replayed refresh token by its row.
        RefreshToken.objects.filter(user=user, application_id=application_id, revoked__isnull=True).update(
            revoked=timezone.now())
        AccessToken.objects.filter(user=user, application_id=application_id).delete()
        Grant.objects.filter(user=user, application_id=application_id).delete()
        transaction.on_commit(partial(realtime.announce_tokens_revoked, user.pk))  # its open streams end now
    return had_any
