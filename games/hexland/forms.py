"""Hexland's room form: the settings a host chooses, and may change until the start."""
from __future__ import annotations

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import ngettext

from games.ai_names import ai_player
from games.errors import BadMove
from games.hexland import words
from games.hexland.engine import MOVE_TYPES
from games.hexland.engine.ai import AI_LEVELS
from games.hexland.engine.board import RESOURCES
from games.hexland.engine.state import TIMER_PRESETS
from games.models import Game


_ai_seat_lazy = lazy(ai_player, str)

SEAT_CHOICES = [("open", gettext_lazy("Open for a player"))] + [(level, _ai_seat_lazy(level)) for level in AI_LEVELS]
MAPS = {"beginner": {"layout": "fixed", "board_seed": 0}, "random": {"layout": "random"},
        "spiral": {"layout": "spiral"}}
MAP_CHOICES = [("beginner", gettext_lazy("Beginner map (always the same)")), ("random", gettext_lazy("Random map")),
               ("spiral", gettext_lazy("Random tiles, official number order"))]
TIMER_CHOICES = [("fast", gettext_lazy("Fast: 60 s a turn")), ("normal", gettext_lazy("Normal: 2 min a turn")),
                 ("slow", gettext_lazy("Slow: 3 min a turn")),
                 ("correspondence", gettext_lazy("Correspondence: a day a move, with e-mail reminders"))]


def _seat_label(index: int) -> str:
    return _("Seat %(number)s") % {"number": index}


_seat_label_lazy = lazy(_seat_label, str)


class RoomForm(forms.Form):
    title = forms.CharField(max_length=120, required=False, label=gettext_lazy("Title"),
                            help_text=gettext_lazy("Optional; shown in the lobby."))
    visibility = forms.ChoiceField(choices=Game.Visibility.choices, initial=Game.Visibility.PUBLIC,
                                   label=gettext_lazy("Visibility"),
                                   help_text=gettext_lazy("A private room is joined by its invitation link only."))
    players = forms.TypedChoiceField(choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, initial=4,
                                     label=gettext_lazy("Seats"), help_text=gettext_lazy("You take the first seat."))
    # Seats beyond the chosen number are hidden by static/hexland/room_form.js and ignored here.
    seat_2 = forms.ChoiceField(choices=SEAT_CHOICES, initial="open", label=_seat_label_lazy(2), required=False,
                               widget=forms.Select(attrs={"data-seat": 2}))
    seat_3 = forms.ChoiceField(choices=SEAT_CHOICES, initial="open", label=_seat_label_lazy(3), required=False,
                               widget=forms.Select(attrs={"data-seat": 3}))
    seat_4 = forms.ChoiceField(choices=SEAT_CHOICES, initial="open", label=_seat_label_lazy(4), required=False,
                               widget=forms.Select(attrs={"data-seat": 4}))
    timers = forms.ChoiceField(choices=TIMER_CHOICES, initial="normal", label=gettext_lazy("Timers"))
    vp_to_win = forms.IntegerField(min_value=3, max_value=20, initial=10, label=gettext_lazy("Points to win"))
    board = forms.ChoiceField(choices=MAP_CHOICES, initial="beginner", label=gettext_lazy("Map"))
    discard_limit = forms.IntegerField(min_value=5, max_value=12, initial=7, label=gettext_lazy("Discard limit"),
                                       help_text=gettext_lazy("On a 7, players holding more cards than this discard half."))
    max_turns = forms.IntegerField(min_value=20, max_value=500, initial=200, label=gettext_lazy("Turn limit"),
                                   help_text=gettext_lazy("A game that cannot end stops here; the most points wins."))

    def clean(self):
        """Seats beyond the chosen number do not exist: whatever came for them is dropped (a
        page without JavaScript still shows them); a seat left empty is open."""
        data = super().clean()
        players = data.get("players") or 4
        for index in range(2, 5):
            name = f"seat_{index}"
            if index > players:
                self.errors.pop(name, None)
                data.pop(name, None)
            elif name not in self.errors and not data.get(name):
                data[name] = "open"
        return data

    def config(self) -> dict:
        data = self.cleaned_data
        return {"players": data["players"], "timers": data["timers"], "vp_to_win": data["vp_to_win"],
                "discard_limit": data["discard_limit"], "max_turns": data["max_turns"], **MAPS[data["board"]]}

    def ai_seats(self) -> dict[int, str]:
        data = self.cleaned_data
        return {index - 1: data[f"seat_{index}"] for index in range(2, data["players"] + 1)
                if data[f"seat_{index}"] != "open"}

    def turn_seconds(self) -> int:
        return TIMER_PRESETS[self.cleaned_data["timers"]][1]


def describe_settings(game: Game) -> list[tuple[str, str]]:
    """A room's settings in words, for players deciding whether to take a seat."""
    config = game.config
    board = SettingsForm.initial_from(config)["board"]
    limit = config.get("discard_limit", 7)
    timers = dict(TIMER_CHOICES).get(config.get("timers", "normal"))
    return [(_("Timers"), str(timers) if timers is not None else words.timers(config.get("timers", ""))),
            (_("Points to win"), str(config.get("vp_to_win", 10))),
            (_("Map"), str(dict(MAP_CHOICES)[board])),
            (_("Discard limit"), ngettext("more than %(count)s card on a 7", "more than %(count)s cards on a 7",
                                          limit) % {"count": limit}),
            (_("Turn limit"), str(config.get("max_turns", 200)))]


class SettingsForm(forms.Form):
    """What the host may still change in an open room (seats are changed one by one)."""

    players = RoomForm.base_fields["players"]
    timers = RoomForm.base_fields["timers"]
    vp_to_win = RoomForm.base_fields["vp_to_win"]
    board = RoomForm.base_fields["board"]
    discard_limit = RoomForm.base_fields["discard_limit"]
    max_turns = RoomForm.base_fields["max_turns"]

    config = RoomForm.config
    turn_seconds = RoomForm.turn_seconds

    @classmethod
    def initial_from(cls, config: dict) -> dict:
        board = next((name for name, keys in MAPS.items() if all(config.get(k) == v for k, v in keys.items())), "random")
        return {"players": config.get("players", 4), "timers": config.get("timers", "normal"),
                "vp_to_win": config.get("vp_to_win", 10), "board": board,
                "discard_limit": config.get("discard_limit", 7), "max_turns": config.get("max_turns", 200)}


# --- a move from a form (works without JavaScript; the board's clicks post the same fields) ---

COUNTED = {"offer": ("give", "get"), "discard": ("cards",)}
NUMBERED = ("node", "edge", "hex", "victim", "seat", "count")


def _whole(data, key: str) -> int | None:
    value = data.get(key, "")
    if value in ("", None):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BadMove(_not_whole(key)) from None


def _not_whole(key: str) -> str:
    """The refusal of a field that is not a whole number ("give wood must be a whole number.")."""
    group, _sep, name = key.partition("_")
    if name in RESOURCES:
        resource = words.resource(name)
        # Translators: "give wood", "get wood", "cards wood" name a form's fields: how many
        # cards of a resource to give, to ask for, or to discard.
        if group == "give":
            return _("give %(resource)s must be a whole number.") % {"resource": resource}
        if group == "get":
            return _("get %(resource)s must be a whole number.") % {"resource": resource}
        if group == "cards":
            return _("cards %(resource)s must be a whole number.") % {"resource": resource}
    # Translators: field: a move's field as the site sends it (node, edge, hex, victim, seat, count).
    return _("%(field)s must be a whole number.") % {"field": key.replace("_", " ")}


def parse_move_form(data) -> dict:
    """The move a Hexland action form asks for: its ``type`` and the fields that type takes
    (cards as ``give_wood``, ``cards_ore``… counts; places as ``node``, ``edge``, ``hex``)."""
    kind = data.get("type", "")
    if kind not in MOVE_TYPES:
        raise BadMove(_("Choose an action."))
    move: dict = {"type": kind}
    for group in COUNTED.get(kind, ()):
        counts = {name: _whole(data, f"{group}_{name}") or 0 for name in RESOURCES}
        move[group] = {name: count for name, count in counts.items() if count}
    for key in NUMBERED:
        number = _whole(data, key)
        if number is not None:
            move[key] = number
    if kind == "move_robber" and "victim" not in move:
        move["victim"] = None
    if kind == "bank_trade":  # one "give:get" choice, or two fields
        give, _colon, get = data.get("pair", "").partition(":")
        move["give"], move["get"] = data.get("give", give), data.get("get", get)
    if kind == "play_dev":
        move["card"] = data.get("card", "")
        if move["card"] == "monopoly":
            move["resource"] = data.get("resource", "")
        if move["card"] == "year_of_plenty":
            move["resources"] = [data.get("resource_1", ""), data.get("resource_2", "")]
    return move
