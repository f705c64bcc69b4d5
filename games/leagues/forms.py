"""League forms: they validate what an organiser typed; the services decide the rest."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games.leagues.models import League


class LeagueForm(forms.ModelForm):
    class Meta:
        model = League
        fields = ["name", "description", "tiles_per_round", "round_hours", "season_games", "entry", "admits_bots", "schedule",
                  "starts_at"]
        widgets = {"starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")}
        # The model's fields; those declared below carry their own labels (Meta's do not reach them).
        labels = {"name": _("Name"), "description": _("Description"), "entry": _("Entry"), "schedule": _("Schedule"),
                  "starts_at": _("Starts at"), "admits_bots": _("Admits bot accounts")}

    tiles_per_round = forms.TypedChoiceField(choices=[(1, "1"), (2, "2"), (3, "3")], coerce=int, initial=2,
                                             label=_("Tiles per round"))
    round_hours = forms.IntegerField(min_value=1, max_value=14 * 24, initial=72, label=_("Hours per round"))
    season_games = forms.IntegerField(min_value=1, max_value=50, initial=5, label=_("Games in the season"))


class AnnouncementForm(forms.Form):
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=4000, label=_("Announcement"),
                           error_messages={"required": _("Write something to announce.")})


class ExtendDeadlineForm(forms.Form):
    """One running game's row: its own ids (``auto_id``), so a refused row shows its error and
    the hours typed beside its own field."""

    game = forms.IntegerField(widget=forms.HiddenInput)
    hours = forms.IntegerField(min_value=1, max_value=14 * 24, initial=24, label=_("Hours"),
                               widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                               error_messages={"required": _("Give a number of hours from 1 to 336."),
                                               "invalid": _("Give a number of hours from 1 to 336."),
                                               "min_value": _("Give a number of hours from 1 to 336."),
                                               "max_value": _("Give a number of hours from 1 to 336.")})

    def __init__(self, *args, game_id: int, **kwargs):
        super().__init__(*args, auto_id=f"id_%s_{game_id}", **kwargs)
        self.game_id = game_id


class ReplacePlayerForm(forms.Form):
    """The player to replace and their replacement, by username; each name is looked up here, so
    an unknown one is refused beside its field."""

    player = forms.CharField(max_length=150, label=_("Player (username)"))
    replacement = forms.CharField(max_length=150, required=False, label=_("Replacement (username)"),
                                  help_text=_("Someone who asked to join this league and does not play in it. Leave "
                                              "empty to remove the player: the AI plays their seats."))

    def _user(self, field: str):
        name = self.cleaned_data.get(field, "").strip()
        if not name:
            return None
        user = User.objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(_("There is no player with the username %(name)s."), params={"name": name})
        return user

    def clean_player(self):
        return self._user("player")

    def clean_replacement(self):
        return self._user("replacement")
