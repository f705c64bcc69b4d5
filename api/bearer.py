"""Who a request's ``Authorization: Bearer`` token speaks for, whichever kind it is: a personal
token (``hxp_…``, api/tokens.py) or an app's OAuth2 access token (``hxa_…``, api/oauth.py).

The API's edge (api/http.py) and its streams (api/streams.py) see only a ``Bearer``: the same
scopes, refusals and limits for both kinds, and an open stream asks ``is_still_usable`` on its
beat, so revoking either kind ends it.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from django.utils import timezone

from api import oauth, tokens


@dataclass(frozen=True)
class Bearer:
    owner: Any  # the user
    scopes: frozenset[str]
    # What the token's limits are counted under (api.limits): one personal token, or one app
    # for one user (its access tokens change at each refresh).
    limit_key: str
    _still_usable: Callable[[], bool]
    # When it stops working by itself (None: never); an open stream ends then without a read.
    expires_at: dt.datetime | None = None

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes

    def has_expired(self) -> bool:
        return self.expires_at is not None and timezone.now() >= self.expires_at

    def is_still_usable(self) -> bool:
        """Neither revoked nor expired now (an open stream asks from time to time)?"""
        return self._still_usable()


def bearer_for_secret(secret: str) -> Bearer | None:
    """The usable token with this secret, of either kind, or None."""
    if secret.startswith(tokens.TOKEN_PREFIX):
        token = tokens.token_for_secret(secret)
        if token is None:
            return None
        return Bearer(token.owner, frozenset(token.scopes), str(token.pk), partial(tokens.is_still_usable, token.pk),
                      token.expires_at)
    if secret.startswith(oauth.ACCESS_TOKEN_PREFIX):
        access = oauth.access_token_for_secret(secret)
        if access is None:
            return None
        return Bearer(access.user, frozenset(access.scope.split()), f"app-{access.application_id}-{access.user_id}",
                      partial(oauth.access_token_usable, access.pk), access.expires)
    return None
