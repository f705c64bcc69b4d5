"""The platform's own forms (each game's settings forms live in its folder)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class InviteForm(forms.Form):
    """A host invites a player by username; what the service refuses is shown beside the field."""

    username = forms.CharField(max_length=150, label=_("Invite a player by username"),
                               error_messages={"required": _("Give the username of the player to invite.")},
                               widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none",
                                                             "spellcheck": "false"}))
