"""Personal API tokens. Only a hash of the secret is stored: a token is shown once, when made."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Scope(models.TextChoices):
    READ = "read", _("Read your account and games")
    PLAY = "play", _("Play your games (moves, chat, joining, leaving)")
    BOT = "bot", _("Play as a bot account")
    ORGANISE = "organise", _("Run your leagues")


ALL_SCOPES = tuple(Scope.values)
# A token made without naming its scopes: everything but running leagues.
DEFAULT_SCOPES = tuple(scope for scope in ALL_SCOPES if scope != Scope.ORGANISE)


class ApiToken(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    scopes = models.JSONField(default=list)
    # The token's first characters, shown in lists so its owner can tell tokens apart.
    prefix = models.CharField(max_length=16)
    # sha256 of the whole token, hex: a high-entropy secret needs no slow hash.
    secret_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    def is_usable(self, now=None) -> bool:
        now = now or timezone.now()
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > now)

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes
