"""Writes to accounts."""
from django.conf import settings

from accounts.models import User

LANGUAGE_CODES = frozenset(code for code, _ in settings.LANGUAGES)


def update_profile(user: User, *, display_name: str, timezone: str, email_notifications: str,
                   language: str | None = None) -> User:
    user.display_name, user.timezone, user.email_notifications = display_name, timezone, email_notifications
    fields = ["display_name", "timezone", "email_notifications"]
    if language is not None:
        user.language = language
        fields.append("language")
    user.save(update_fields=fields)
    return user


def save_language(user: User, code: str) -> None:
    """Keep the player's language for their pages and e-mails; a code we do not speak is ignored."""
    if code in LANGUAGE_CODES and user.language != code:
        user.language = code
        user.save(update_fields=["language"])
