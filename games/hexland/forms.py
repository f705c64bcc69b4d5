"""Hexland's room form: the settings a host chooses, and may change until the start."""
from __future__ import annotations

from django import forms

from games.errors import BadMove
from games.hexland.engine import MOVE_TYPES
from games.hexland.engine.ai import AI_LEVELS
from games.hexland.engine.board import RESOURCES
from games.hexland.engine.state import TIMER_PRESETS
from games.models import Game

SEAT_CHOICES = [("open", "Open for a player")] + [(level, f"AI ({level})") for level in AI_LEVELS]
MAPS = {"beginner": {"layout": "fixed", "board_seed": 0}, "random": {"layout": "random"},
        "spiral": {"layout": "spiral"}}
MAP_CHOICES = [("beginner", "Beginner map (always the same)"), ("random", "Random map"),
               ("spiral", "Random tiles, official number order")]
TIMER_CHOICES = [("fast", "Fast: 60 s a turn"), ("normal", "Normal: 2 min a turn"), ("slow", "Slow: 3 min a turn"),
                 ("correspondence", "Correspondence: a day a move, with e-mail reminders")]


class RoomForm(forms.Form):
    title = forms.CharField(max_length=120, required=False, help_text="Optional; shown in the lobby.")
    visibility = forms.ChoiceField(choices=Game.Visibility.choices, initial=Game.Visibility.PUBLIC,
                                   help_text="A private room is joined by its invitation link only.")
    players = forms.TypedChoiceField(choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int, initial=4,
                                     label="Seats", help_text="You take the first seat.")
    seat_2 = forms.ChoiceField(choices=SEAT_CHOICES, initial="open", label="Seat 2")
    seat_3 = forms.ChoiceField(choices=SEAT_CHOICES, initial="open", label="Seat 3")
    seat_4 = forms.ChoiceField(choices=SEAT_CHOICES, initial="open", label="Seat 4")
    timers = forms.ChoiceField(choices=TIMER_CHOICES, initial="normal", label="Timers")
    vp_to_win = forms.IntegerField(min_value=3, max_value=20, initial=10, label="Points to win")
    board = forms.ChoiceField(choices=MAP_CHOICES, initial="beginner", label="Map")
    discard_limit = forms.IntegerField(min_value=5, max_value=12, initial=7, label="Discard limit",
                                       help_text="On a 7, players holding more cards than this discard half.")
    max_turns = forms.IntegerField(min_value=20, max_value=500, initial=200, label="Turn limit",
                                   help_text="A game that cannot end stops here; the most points wins.")

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
        raise BadMove(f"{key.replace('_', ' ')} must be a whole number.") from None


def parse_move_form(data) -> dict:
    """The move a Hexland action form asks for: its ``type`` and the fields that type takes
    (cards as ``give_wood``, ``cards_ore``… counts; places as ``node``, ``edge``, ``hex``)."""
    kind = data.get("type", "")
    if kind not in MOVE_TYPES:
        raise BadMove("Choose an action.")
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
        give, _, get = data.get("pair", "").partition(":")
        move["give"], move["get"] = data.get("give", give), data.get("get", get)
    if kind == "play_dev":
        move["card"] = data.get("card", "")
        if move["card"] == "monopoly":
            move["resource"] = data.get("resource", "")
        if move["card"] == "year_of_plenty":
            move["resources"] = [data.get("resource_1", ""), data.get("resource_2", "")]
    return move
