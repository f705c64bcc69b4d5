"""Making, finding and revoking personal tokens (the only writes of ApiToken).

A token is ``hxp_`` and 40 random URL-safe characters (240 bits); its first 12 characters are
kept in clear to tell tokens apart, and the sha256 of the whole is what a request is matched
against. The secret itself is returned once, by ``create_token``, and never stored.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from api.models import ALL_SCOPES, DEFAULT_SCOPES, ApiToken
from games import realtime

TOKEN_PREFIX = "hxp_"
SHOWN_CHARS = 12
# Writing last_used_at on every request would make every read a write: once a minute is enough.
LAST_USED_GRANULARITY = dt.timedelta(minutes=1)
MAX_TOKENS_PER_USER = 50


class TokenRefused(ValueError):
    """A token that cannot be made as asked; the message is a sentence for the person asking."""


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def parse_scopes(text: str | None) -> tuple[str, ...]:
    """``"read,play"`` → the scopes, checked; None or empty → the default (all but organise)."""
    if not text:
        return DEFAULT_SCOPES
    scopes = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [scope for scope in scopes if scope not in ALL_SCOPES]
    if unknown or not scopes:
        raise TokenRefused(_("Unknown scope %(scopes)s: choose among %(known)s.")
                           % {"scopes": ", ".join(unknown) or "''", "known": ", ".join(ALL_SCOPES)})
    return scopes


def create_token(*, owner, name: str, scopes=DEFAULT_SCOPES, expires_at: dt.datetime | None = None) -> tuple[ApiToken, str]:
    """A new token of ``owner``: the row and the secret (shown once, stored only hashed)."""
    scopes = tuple(scopes)
    if not scopes or any(scope not in ALL_SCOPES for scope in scopes):
        raise TokenRefused(_("Choose at least one scope."))
    if expires_at is not None and expires_at <= timezone.now():
        raise TokenRefused(_("The expiry must be in the future."))
    name = (name or "").strip()[:60] or _("Token")
    with transaction.atomic():
        if ApiToken.objects.filter(owner=owner, revoked_at__isnull=True).count() >= MAX_TOKENS_PER_USER:
            raise TokenRefused(_("You have too many tokens: revoke one first."))
        secret = TOKEN_PREFIX + secrets.token_urlsafe(30)
        token = ApiToken.objects.create(owner=owner, name=name, scopes=list(scopes), prefix=secret[:SHOWN_CHARS],
                                        secret_hash=hash_secret(secret), expires_at=expires_at)
    return token, secret


def token_for_secret(secret: str) -> ApiToken | None:
    """The usable token with this secret (its owner loaded), or None: unknown, revoked, expired,
    or an owner who may no longer sign in. Notes the use, at most once a minute."""
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > 200:
        return None
    token = ApiToken.objects.select_related("owner").filter(secret_hash=hash_secret(secret)).first()
    now = timezone.now()
    if token is None or not token.is_usable(now) or not token.owner.is_active:
        return None
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_GRANULARITY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def is_still_usable(token_id: int) -> bool:
    """Is the token neither revoked nor expired now (an open stream asks from time to time)?"""
    token = ApiToken.objects.filter(pk=token_id).select_related("owner").first()
    return token is not None and token.is_usable() and token.owner.is_active


def revoke_token(*, owner, token_id: int) -> bool:
    """Revoke one of ``owner``'s tokens, at once (its open streams end too); False when they
    have no such usable token."""
    revoked = bool(ApiToken.objects.filter(pk=token_id, owner=owner, revoked_at__isnull=True)
                   .update(revoked_at=timezone.now()))
    if revoked:
        transaction.on_commit(partial(realtime.announce_tokens_revoked, owner.pk))
    return revoked


def tokens_of(owner) -> list[ApiToken]:
    """The owner's tokens not revoked, newest first (the profile page's list)."""
    return list(ApiToken.objects.filter(owner=owner, revoked_at__isnull=True))
