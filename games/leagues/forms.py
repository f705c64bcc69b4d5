"""League forms: they validate what an organiser typed; the services decide the rest."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.leagues.models import League


class LeagueForm(forms.ModelForm):
    class Meta:
        model = League
        fields = ["name", "description", "tiles_per_round", "round_hours", "season_games", "entry", "schedule", "starts_at"]
        widgets = {"starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")}
        # The model's fields; those declared below carry their own labels (Meta's do not reach them).
        labels = {"name": _("Name"), "description": _("Description"), "entry": _("Entry"), "schedule": _("Schedule"),
                  "starts_at": _("Starts at")}

    tiles_per_round = forms.TypedChoiceField(choices=[(1, "1"), (2, "2"), (3, "3")], coerce=int, initial=2,
                                             label=_("Tiles per round"))
    round_hours = forms.IntegerField(min_value=1, max_value=14 * 24, initial=72, label=_("Hours per round"))
    season_games = forms.IntegerField(min_value=1, max_value=50, initial=5, label=_("Games in the season"))


class AnnouncementForm(forms.Form):
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=4000, label=_("Announcement"))


class ExtendDeadlineForm(forms.Form):
    game = forms.IntegerField(widget=forms.HiddenInput)
    hours = forms.IntegerField(min_value=1, max_value=14 * 24, initial=24, label=_("Extend by (hours)"))


class ReplacePlayerForm(forms.Form):
    player = forms.CharField(max_length=150, label=_("Player (username)"))
    replacement = forms.CharField(max_length=150, required=False, label=_("Replacement (username)"),
                                  help_text=_("Leave empty to remove the player: the AI plays their seats."))
