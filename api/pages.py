"""The API's pages for people: the OpenAPI document, its docs page, and making and revoking
personal tokens from the profile page (a new token is shown once, on the answer to its form),
and revoking an app the user allowed (api/oauth.py)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from api import oauth, openapi, tokens
from api.forms import TokenForm


@require_GET
def openapi_json(request: HttpRequest) -> JsonResponse:
    return JsonResponse(openapi.document(request.build_absolute_uri("/api/v1").rstrip("/")),
                        json_dumps_params={"ensure_ascii": False})


@require_GET
def docs(request: HttpRequest) -> HttpResponse:
    return render(request, "api/docs.html")


@login_required
@require_POST
def token_new(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.POST)
    if form.is_valid():
        try:
            token, secret = tokens.create_token(owner=request.user, name=form.cleaned_data["name"],
                                                scopes=form.cleaned_data["scopes"], expires_at=form.expires_at())
        except tokens.TokenRefused as refusal:
            form.add_error(None, str(refusal))
        else:
            response = render(request, "api/token_created.html", {"token": token, "secret": secret})
            response["Cache-Control"] = "no-store"  # the secret is shown this once
            return response
    return render(request, "api/token_form.html", {"token_form": form}, status=400)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    if tokens.revoke_token(owner=request.user, token_id=token_id):
        messages.success(request, _("The token has been revoked: it no longer works."))
    else:
        messages.error(request, _("You have no such token."))
    return redirect("profile")


@login_required
@require_POST
def app_revoke(request: HttpRequest, application_id: int) -> HttpResponse:
    if oauth.revoke_app(user=request.user, application_id=application_id):
        messages.success(request, _("The app's access has been revoked: its tokens no longer work."))
    else:
        messages.error(request, _("No such app may use your account."))
    return redirect("profile")
