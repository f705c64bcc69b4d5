"""The /oauth/ endpoints: the consent page (the authorization endpoint, in the site's layout),
the token endpoint and the revocation endpoint (django-oauth-toolkit's own views)."""
from __future__ import annotations

from urllib.parse import urlsplit

from oauth2_provider.views import AuthorizationView

from api import oauth


class ConsentView(AuthorizationView):
    """GET: the app's name and each scope it asks for, with Allow and Deny (a plain form: no
    script). POST: the answer; DOT redirects to the app with a code, or with ``access_denied``.
    Signing in comes first (LoginRequiredMixin, to the site's log-in page). A bot account is
    told here why it may not allow an app that would play without the bot scope; an Allow sent
    anyway is refused by the validator (``api.oauth.AppValidator``: ``invalid_scope``)."""

    template_name = "api/oauth_consent.html"

    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        redirect_uri = (getattr(self, "oauth2_data", None) or {}).get("redirect_uri")
        if redirect_uri and response.status_code == 200:
            # The answer to the form redirects to the app: the CSP's form-action must allow its origin.
            parts = urlsplit(redirect_uri)
            origin = f"{parts.scheme}://{parts.netloc}" if parts.netloc else f"{parts.scheme}:"
            response._csp_update = {"form-action": [origin]}
        return response

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        scopes = context.get("scopes") or []
        context["requested_scopes"] = list(zip(scopes, context.get("scopes_descriptions") or []))
        context["refusal"] = oauth.bot_refusal(self.request.user, scopes) if "error" not in context else None
        return context
