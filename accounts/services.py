"""Writes to accounts."""
from accounts.models import User


def update_profile(user: User, *, display_name: str, timezone: str, email_notifications: str) -> User:
    user.display_name, user.timezone, user.email_notifications = display_name, timezone, email_notifications
    user.save(update_fields=["display_name", "timezone", "email_notifications"])
    return user
