"""Opening a game through the API: each game's new-game form (the page's own, with its
defaults and checks) filled from the JSON body, then the page's own service.

``players`` and ``ai`` say how many seats and how many of the last ones the AI plays; the other
fields are the form's, by their form names, each optional with the page's default. The schema
of the body is generated from the forms' fields (``settings_schema``)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from django import forms
from django.db import transaction
from django.utils.translation import gettext as _

from games.errors import BadMove
from games.models import Game


@dataclass(frozen=True)
class NewGame:
    kind: str
    # The form fields a client may set (besides players and ai), by their names on the page.
    settings: tuple[str, ...]
    form: Callable[[], type]
    open: Callable[..., Game]  # (user, players, ai, settings) -> the game


def _hextension_form():
    from games.hextension.forms import HextensionGameForm

    return HextensionGameForm


def _open_hextension(user, players: int, ai: int, settings: dict) -> Game:
    from games.hextension import services

    form = _filled(_hextension_form(), {**settings, "players": players, "ai_seats": ai})
    with transaction.atomic():  # opened and started together, or not at all
        return services.open_game(user, form.cleaned_data)


def _hexland_form():
    from games.hexland.forms import RoomForm

    return RoomForm


HEXLAND_AI_LEVEL = "medium"


def _open_hexland(user, players: int, ai: int, settings: dict) -> Game:
    from games.hexland import services

    level = settings.pop("ai_level", HEXLAND_AI_LEVEL)
    seats = {f"seat_{number}": (level if number > players - ai else "open") for number in range(2, players + 1)}
    if ai >= players:
        raise BadMove(_("Leave at least one seat for you."))
    form = _filled(_hexland_form(), {**settings, "players": players, **seats})
    return services.open_room(host=user, title=form.cleaned_data["title"], visibility=form.cleaned_data["visibility"],
                              config=form.config(), ai_seats=form.ai_seats(), turn_seconds=form.turn_seconds())


def _open_hextremadura(user, players: int, ai: int, settings: dict) -> Game:
    from games.hextremadura import services

    if players != 1 or ai != 0:
        raise BadMove(_("Hextremadura is played alone: one player, no AI."))
    return services.start_casual_game(user=user)


def _filled(form_class: type, data: dict) -> forms.Form:
    """The page's form bound to ``data`` (the page's initial values for what is not given),
    valid, or a BadMove naming the first refused field in the form's own words."""
    initial = {name: field.initial for name, field in form_class.base_fields.items() if field.initial is not None}
    form = form_class(data={**initial, **{k: v for k, v in data.items() if v is not None}})
    if not form.is_valid():
        name, errors = next(iter(form.errors.items()))
        message = errors[0]
        raise BadMove(message if name == "__all__" else f"{name}: {message}")
    return form


NEW_GAMES: dict[str, NewGame] = {
    "hextension": NewGame("hextension", ("title", "visibility", "tiles_per_round", "round_deadline", "ai_level"),
                          _hextension_form, _open_hextension),
    "hexland": NewGame("hexland", ("title", "visibility", "timers", "vp_to_win", "board", "discard_limit", "max_turns",
                                   "ai_level"), _hexland_form, _open_hexland),
    "hextremadura": NewGame("hextremadura", (), lambda: None, _open_hextremadura),
}


def open_game(user, body: dict) -> Game:
    """The game ``body`` asks for (already checked against the schema), opened by ``user``."""
    new = NEW_GAMES[body["game"]]
    settings = {key: value for key, value in body.items() if key not in ("game", "players", "ai")}
    unknown = sorted(key for key in settings if key not in new.settings)
    if unknown:
        raise BadMove(_("%(game)s has no setting %(names)s.") % {"game": body["game"], "names": ", ".join(unknown)})
    return new.open(user, body["players"], body["ai"], settings)


# --- the body's schema, from the forms -------------------------------------------------------


def field_schema(field: forms.Field) -> dict:
    """A JSON Schema for one form field, as the API takes it."""
    if isinstance(field, forms.TypedChoiceField) and field.coerce is int:
        return {"type": "integer", "enum": [int(value) for value, _label in field.choices]}
    if isinstance(field, forms.ChoiceField):
        return {"type": "string", "enum": [str(value) for value, _label in field.choices]}
    if isinstance(field, forms.IntegerField):
        schema = {"type": "integer"}
        if field.min_value is not None:
            schema["minimum"] = field.min_value
        if field.max_value is not None:
            schema["maximum"] = field.max_value
        return schema
    if isinstance(field, forms.CharField):
        return {"type": "string", "maxLength": field.max_length or 500}
    return {}


def settings_schema() -> dict[str, dict]:
    """Every optional setting of every game, with the games that take it and its default."""
    found: dict[str, dict] = {}
    for new in NEW_GAMES.values():
        form_class = new.form()
        for name in new.settings:
            if form_class is None:
                continue
            if name == "ai_level" and new.kind == "hexland":
                from games.hexland.engine.ai import AI_LEVELS

                schema = {"type": "string", "enum": list(AI_LEVELS)}
                default = HEXLAND_AI_LEVEL
            else:
                field = form_class.base_fields[name]
                schema, default = field_schema(field), field.initial
            entry = found.setdefault(name, {**schema, "x-games": {}})
            if entry.get("enum") != schema.get("enum") and "enum" in entry:
                entry["enum"] = sorted(set(entry["enum"]) | set(schema.get("enum", [])), key=str)
            for bound in ("minimum", "maximum"):
                if bound in schema:
                    pick = min if bound == "minimum" else max
                    entry[bound] = pick(entry.get(bound, schema[bound]), schema[bound])
            entry["x-games"][new.kind] = {"default": default}
    for name, entry in found.items():
        games = entry.pop("x-games")
        entry["description"] = "; ".join(f"{kind}: default {value['default']}" for kind, value in games.items())
    return found
