"""The platform's policy hook: what it asks before a user plays or chats, and whose messages a
viewer does not want to read.

The platform knows no policy app. It calls the functions below; they ask the one registered
``Policy``. The defaults allow everything, so the platform works on its own (tests, a site
without moderation). The moderation app registers its answers from its ``AppConfig.ready()``
(moderation/apps.py), as each game registers its site (games/sites.py).
"""
from __future__ import annotations

from typing import Any, Iterable


class Policy:
    """The defaults: nobody is refused, nobody has blocked anybody. A policy app subclasses
    this and overrides what it decides; a refusal raises a ``GameError`` (games/errors.py) whose
    message says why, as every refused action does."""

    def check_may_play(self, user) -> None:
        """Raise to refuse creating or joining a game, or entering a league."""

    def check_may_chat(self, user) -> None:
        """Raise to refuse a chat message."""

    def mute_notice(self, user) -> str:
        """What the user reads where the chat form would be, when they may not chat ("": none)."""
        return ""

    def blocked_by(self, user) -> Iterable[Any]:
        """The ids of the users ``user`` does not want to read, for ``exclude(author_id__in=...)``
        (a subquery keeps it one statement)."""
        return ()

    def has_blocked(self, user, other_id: int | None) -> bool:
        """Whether ``user`` blocked the user ``other_id`` (whose invitations they then refuse)."""
        return False


_policy: Policy = Policy()


def register(policy: Policy) -> None:
    """Install the site's policy (the last one registered answers)."""
    global _policy
    _policy = policy


def registered() -> Policy:
    return _policy


def check_may_play(user) -> None:
    _policy.check_may_play(user)


def check_may_chat(user) -> None:
    _policy.check_may_chat(user)


def mute_notice(user) -> str:
    return _policy.mute_notice(user)


def blocked_by(user) -> Iterable[Any]:
    return _policy.blocked_by(user)


def has_blocked(user, other_id: int | None) -> bool:
    return _policy.has_blocked(user, other_id)
