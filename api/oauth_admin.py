"""Apps and their tokens in the admin (django-oauth-toolkit registers these classes, named in
settings.OAUTH2_PROVIDER), under the site's admin rules (games.admin_base).

Staff register an app: its name, whether it can keep a secret (confidential: a server) or not
(public: a native app, a bot, a page's script), its redirect URIs, optionally the user it
belongs to. Every app uses the authorization code grant with PKCE; a new confidential app's
secret is shown once, on the form that adds it (or use ``manage.py oauth_app``). Tokens and
codes are listed without their values (only their sha256 is kept anyway) and revoked with an
action, never edited.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext, gettext_lazy as _
from oauth2_provider.models import Application, revoke_access_token

from games.admin_base import SiteAdminMixin, SiteModelAdmin

LOOPBACK_HOSTS = {"127.0.0.1", "::1", "localhost"}


def redirect_uri_problem(uri: str) -> str | None:
    """Why ``uri`` may not be an app's redirect URI, or None: https anywhere, or http on a
    loopback address only (RFC 8252's native apps), never with a fragment."""
    parts = urlsplit(uri)
    if parts.fragment:
        return gettext("%(uri)s: a redirect URI has no fragment (#…).") % {"uri": uri}
    if parts.scheme == "https" and parts.hostname:
        return None
    if parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS:
        return None
    return gettext("%(uri)s: use https, or http on 127.0.0.1 or [::1] for an app on the player's own machine.") % {
        "uri": uri}


class ApplicationForm(forms.ModelForm):
    class Meta:
        model = Application
        fields = ("name", "client_type", "client_id", "client_secret", "redirect_uris", "user")

    def clean_redirect_uris(self) -> str:
        uris = self.cleaned_data["redirect_uris"].split()
        if not uris:
            raise forms.ValidationError(gettext("Give at least one redirect URI."))
        problems = [problem for problem in map(redirect_uri_problem, uris) if problem]
        if problems:
            raise forms.ValidationError(problems)
        return " ".join(uris)


class ApplicationAdmin(SiteAdminMixin, admin.ModelAdmin):
    form = ApplicationForm
    # Kept hashed; never shown, searched or filtered on, but on the form that adds the app.
    secret_fields = ("client_secret",)
    list_display = ("name", "client_id", "client_type", "user", "created")
    list_filter = ("client_type",)
    search_fields = ("name", "client_id", "user__username")
    raw_id_fields = ("user",)
    radio_fields = {"client_type": admin.HORIZONTAL}
    readonly_fields = ("client_id", "created", "updated")

    def get_fields(self, request, obj=None):
        if obj is None:  # the new secret, to copy before it is saved hashed
            return ["name", "client_type", "client_id", "client_secret", "redirect_uris", "user"]
        return ["name", "client_type", "client_id", "redirect_uris", "user", "created", "updated"]

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return [(None, {"fields": self.get_fields(request, obj)})]
        return super().get_fieldsets(request, obj)

    def get_exclude(self, request, obj=None):
        return [name for name in super().get_exclude(request, obj) if obj is not None or name != "client_secret"]

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else list(self.readonly_fields)

    def save_model(self, request, obj, form, change):
        # The one grant this site offers; consent is never skipped (the bot rule is asked there).
        obj.authorization_grant_type = Application.GRANT_AUTHORIZATION_CODE
        obj.skip_authorization = False
        obj.algorithm = Application.NO_ALGORITHM
        super().save_model(request, obj, form, change)


class TokenAdmin(SiteModelAdmin):
    """An app's tokens or codes: read, and revoked with the action; never shown, added or edited."""

    secret_fields = ("token", "token_checksum")
    list_filter = ("application",)
    search_fields = ("user__username", "application__name")
    raw_id_fields = ("user",)
    list_select_related = ("user", "application")


class AccessTokenAdmin(TokenAdmin):
    list_display = ("pk", "user", "application", "scope", "expires", "created")
    fields = ("user", "application", "scope", "expires", "created")
    actions = ["revoke_tokens"]

    @admin.action(description=_("Revoke the selected tokens (and their refresh tokens)"))
    def revoke_tokens(self, request, queryset):
        for token in queryset:
            revoke_access_token(token)
        self.message_user(request, gettext("The selected tokens have been revoked."), messages.SUCCESS)


class RefreshTokenAdmin(TokenAdmin):
    list_display = ("pk", "user", "application", "created", "revoked")
    fields = ("user", "application", "created", "revoked")
    actions = ["revoke_tokens"]

    @admin.action(description=_("Revoke the selected tokens (and their refresh tokens)"))
    def revoke_tokens(self, request, queryset):
        for token in queryset:
            token.revoke()
        self.message_user(request, gettext("The selected tokens have been revoked."), messages.SUCCESS)


class GrantAdmin(TokenAdmin):
    secret_fields = ("code", "code_challenge")
    list_display = ("pk", "user", "application", "expires")
    fields = ("user", "application", "scope", "expires", "created")


class IDTokenAdmin(TokenAdmin):
    # OpenID Connect is off: there are none, but DOT registers the model.
    secret_fields = ()
    list_display = ("pk", "user", "application", "expires")
    fields = ("user", "application", "scope", "expires", "created")
