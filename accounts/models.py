from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.timezones import validate_timezone


class User(AbstractUser):
    """A player. Profile settings live on the user: one row, no joins on every page."""

    class EmailPreference(models.TextChoices):
        EACH = "each", _("An e-mail for each event")
        DIGEST = "digest", _("One daily digest")
        NONE = "none", _("No e-mail")

    display_name = models.CharField(max_length=40, blank=True)
    # A zone name checked against this machine's tz database (accounts/timezones.py), not a
    # list of choices: that list differs between machines and releases of the database.
    timezone = models.CharField(_("time zone"), max_length=64, default="UTC", validators=[validate_timezone])
    email_notifications = models.CharField(
        _("e-mail notifications"), max_length=8, choices=EmailPreference.choices, default=EmailPreference.EACH
    )

    # Pages and e-mails in this language; empty until the player (or sign-up) sets it, and then
    # the browser's language is used for pages and English for e-mails.
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, blank=True, default="",
                                db_default="")  # rows written by code that predates the field
    # A bot account (accounts/bots.py): plays only through the API, shown with a BOT badge.
    # Set once, by its owner, before any game; never unset.
    is_bot = models.BooleanField(_("bot account"), default=False, db_default=False)

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.public_name
