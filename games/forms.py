"""Forms of the game pages. They validate what a person typed; the services decide the rest."""
from __future__ import annotations

from django import forms

from games.models import Game, League

AI_LEVELS = [("strong", "Strong"), ("greedy", "Greedy"), ("random", "Random")]
DEADLINE_CHOICES = [
    (3600, "1 hour"), (4 * 3600, "4 hours"), (12 * 3600, "12 hours"), (86400, "1 day"), (2 * 86400, "2 days"),
    (3 * 86400, "3 days"), (5 * 86400, "5 days"), (7 * 86400, "7 days"), (14 * 86400, "14 days"),
]


class HextensionGameForm(forms.Form):
    title = forms.CharField(max_length=120, required=False, help_text="Optional; shown in game lists.")
    visibility = forms.ChoiceField(choices=Game.Visibility.choices, initial=Game.Visibility.PUBLIC,
                                   help_text="A private game is joined by its invitation link only.")
    players = forms.IntegerField(min_value=2, max_value=100, initial=4, help_text="2 to 100 seats, AI seats included.")
    tiles_per_round = forms.TypedChoiceField(choices=[(1, "1 (the live game)"), (2, "2 (play by mail)"), (3, "3")],
                                             coerce=int, initial=2)
    round_deadline = forms.TypedChoiceField(choices=DEADLINE_CHOICES, coerce=int, initial=3 * 86400,
                                            help_text="How long each round may take.")
    ai_seats = forms.IntegerField(min_value=0, max_value=99, initial=0, label="AI players",
                                  help_text="Seats played by the computer.")
    ai_level = forms.ChoiceField(choices=AI_LEVELS, initial="strong", label="AI level")

    def clean(self):
        data = super().clean()
        players, ai_seats = data.get("players"), data.get("ai_seats")
        if players is not None and ai_seats is not None and ai_seats >= players:
            self.add_error("ai_seats", "Leave at least one seat for you.")
        return data


class LeagueForm(forms.ModelForm):
    class Meta:
        model = League
        fields = ["name", "description", "tiles_per_round", "round_hours", "season_games", "entry", "schedule", "starts_at"]
        widgets = {"starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")}
        labels = {"round_hours": "Hours per round", "season_games": "Games in the season"}

    tiles_per_round = forms.TypedChoiceField(choices=[(1, "1"), (2, "2"), (3, "3")], coerce=int, initial=2)
    round_hours = forms.IntegerField(min_value=1, max_value=14 * 24, initial=72)
    season_games = forms.IntegerField(min_value=1, max_value=50, initial=5)


class AnnouncementForm(forms.Form):
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=4000, label="Announcement")


class ExtendDeadlineForm(forms.Form):
    game = forms.IntegerField(widget=forms.HiddenInput)
    hours = forms.IntegerField(min_value=1, max_value=14 * 24, initial=24, label="Extend by (hours)")


class ReplacePlayerForm(forms.Form):
    player = forms.CharField(max_length=150, label="Player (username)")
    replacement = forms.CharField(max_length=150, required=False, label="Replacement (username)",
                                  help_text="Leave empty to remove the player: the AI plays their seats.")
