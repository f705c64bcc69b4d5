"""The profile page's form for a new personal token."""
from __future__ import annotations

import datetime as dt

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy

from api.models import DEFAULT_SCOPES, Scope

EXPIRY_CHOICES = [("", gettext_lazy("Never")), ("30", gettext_lazy("In 30 days")), ("90", gettext_lazy("In 90 days")),
                  ("365", gettext_lazy("In a year"))]


class TokenForm(forms.Form):
    name = forms.CharField(max_length=60, label=gettext_lazy("Name"),
                           help_text=gettext_lazy("What the token is for, so you can tell your tokens apart."))
    scopes = forms.MultipleChoiceField(choices=Scope.choices, initial=list(DEFAULT_SCOPES),
                                       widget=forms.CheckboxSelectMultiple, label=gettext_lazy("Scopes"))
    expires = forms.ChoiceField(choices=EXPIRY_CHOICES, required=False, label=gettext_lazy("Expires"))

    def expires_at(self) -> dt.datetime | None:
        days = self.cleaned_data.get("expires")
        return timezone.now() + dt.timedelta(days=int(days)) if days else None
