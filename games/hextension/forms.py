"""Hextension's forms: opening a game, and the placement form without JavaScript."""
from __future__ import annotations

from django import forms
from django.http import QueryDict

from games.errors import BadMove
from games.models import Game

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


def parse_placement(data: QueryDict) -> dict:
    """The placement form: one ``cell_<tile>`` field per drawn tile."""
    placements = {key[len("cell_"):]: value for key, value in data.items() if key.startswith("cell_")}
    if not placements or not all(placements.values()):
        raise BadMove("Choose a cell for every tile of this round.")
    return {"type": "place", "placements": placements}
