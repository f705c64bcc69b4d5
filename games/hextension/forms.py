"""Hextension's forms: opening a game, and the placement form without JavaScript."""
from __future__ import annotations

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.errors import BadMove
from games.models import Game

AI_LEVELS = [
    ("strong", pgettext_lazy("AI level", "Strong")),
    ("greedy", pgettext_lazy("AI level", "Greedy")),
    ("random", pgettext_lazy("AI level", "Random")),
]
DEADLINE_CHOICES = [
    (3600, gettext_lazy("1 hour")), (4 * 3600, gettext_lazy("4 hours")), (12 * 3600, gettext_lazy("12 hours")),
    (86400, gettext_lazy("1 day")), (2 * 86400, gettext_lazy("2 days")), (3 * 86400, gettext_lazy("3 days")),
    (5 * 86400, gettext_lazy("5 days")), (7 * 86400, gettext_lazy("7 days")), (14 * 86400, gettext_lazy("14 days")),
]


def describe_settings(game: Game) -> list[tuple[str, str]]:
    """A game's settings in words, for players deciding whether to take a seat."""
    deadline = dict(DEADLINE_CHOICES).get(game.turn_seconds) if game.turn_seconds else None
    settings = [(_("Tiles a round"), str(game.config.get("tiles_per_round", 2)))]
    if deadline:
        settings.append((_("Round deadline"), str(deadline)))
    return settings


class HextensionGameForm(forms.Form):
    title = forms.CharField(max_length=120, required=False, label=gettext_lazy("Title"),
                            help_text=gettext_lazy("Optional; shown in game lists."))
    visibility = forms.ChoiceField(choices=Game.Visibility.choices, initial=Game.Visibility.PUBLIC,
                                   label=gettext_lazy("Visibility"),
                                   help_text=gettext_lazy("A private game is joined by its invitation link only."))
    players = forms.IntegerField(min_value=2, max_value=100, initial=4, label=gettext_lazy("Players"),
                                 help_text=gettext_lazy("2 to 100 seats, AI seats included."))
    tiles_per_round = forms.TypedChoiceField(
        choices=[(1, gettext_lazy("1 (the live game)")), (2, gettext_lazy("2 (play by mail)")), (3, "3")],
        coerce=int, initial=2, label=gettext_lazy("Tiles per round"))
    round_deadline = forms.TypedChoiceField(choices=DEADLINE_CHOICES, coerce=int, initial=3 * 86400,
                                            label=gettext_lazy("Round deadline"),
                                            help_text=gettext_lazy("How long each round may take."))
    ai_seats = forms.IntegerField(min_value=0, max_value=99, initial=0, label=gettext_lazy("AI players"),
                                  help_text=gettext_lazy("Seats played by the computer."))
    ai_level = forms.ChoiceField(choices=AI_LEVELS, initial="strong", label=gettext_lazy("AI level"))

    def clean(self):
        data = super().clean()
        players, ai_seats = data.get("players"), data.get("ai_seats")
        if players is not None and ai_seats is not None and ai_seats >= players:
            self.add_error("ai_seats", _("Leave at least one seat for you."))
        return data


def parse_placement(data: QueryDict) -> dict:
    """The placement form: one ``cell_<tile>`` field per drawn tile."""
    placements = {key[len("cell_"):]: value for key, value in data.items() if key.startswith("cell_")}
    if not placements or not all(placements.values()):
        raise BadMove(_("Choose a cell for every tile of this round."))
    return {"type": "place", "placements": placements}
