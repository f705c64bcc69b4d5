"""What the player whose view it is may do now, grouped for the action panel (buttons and small
forms that work without JavaScript), from the view's legal moves only."""
from __future__ import annotations

import json
from typing import Mapping

from django import template
from django.utils.translation import gettext_lazy as _

from games.hexland import svg, words

register = template.Library()

RESOURCES = ("wood", "brick", "sheep", "wheat", "ore")
BUTTONS = {  # move type (or card) -> the button's words
    "roll": _("Roll the dice"), "end_turn": _("End your turn"), "buy_dev": _("Buy a development card"),
    "accept": _("Accept the offer"), "decline": _("Decline the offer"), "cancel": _("Withdraw your offer"),
    "knight": _("Play a Knight"), "road_building": _("Play Road Building"),
}
PLACES = {  # moves made on the board, named for the list that stands in for clicking
    "place_settlement": _("Place a settlement"), "place_road": _("Place a road"),
    "build_settlement": _("Build a settlement"), "build_city": _("Build a city"), "build_road": _("Build a road"),
    "move_robber": _("Move the robber"), "move_pair": _("Move your auto-placed settlement and road"),
}


@register.simple_tag
def hexland_actions(view: Mapping) -> dict:
    """The panel's groups; ``any`` is false when the viewer has nothing to do."""
    seat, moves = view.get("seat"), view.get("legal_moves") or []
    if seat is None or not moves:
        return {"any": False}
    names = [p["name"] for p in view["players"]]
    hand = (view.get("you") or {}).get("hand") or {}
    buttons, places = [], {}
    geometry = svg.Geometry(view.get("topology") or {})
    for m in moves:
        key = m.get("card") if m["type"] == "play_dev" else m["type"]
        if key in BUTTONS:
            buttons.append({"type": m["type"], "card": m.get("card", ""), "label": BUTTONS[key]})
        elif m["type"] in PLACES:
            fields = {k: v for k, v in m.items() if k != "type"}
            places.setdefault(m["type"], []).append({"fields": fields, "label": svg.move_label(view, m, geometry)})
    rates = view["players"][seat]["rates"]
    bank_trades = sorted({(m["give"], m["get"]) for m in moves if m["type"] == "bank_trade"})
    cards = {m.get("card") for m in moves if m["type"] == "play_dev"}
    kinds = {m["type"] for m in moves}
    return {
        "any": True,
        "buttons": buttons,
        "confirm": [{"seat": m["seat"], "name": names[m["seat"]]} for m in moves if m["type"] == "confirm"],
        "places": [{"type": kind, "title": PLACES[kind], "choices": choices} for kind, choices in places.items()],
        # give, get: the resources' codes (the form's values); give_name, get_name: their words
        "bank_trades": [{"give": g, "get": r, "rate": rates[g], "give_name": words.resource(g),
                         "get_name": words.resource(r)} for g, r in bank_trades],
        "monopoly": "monopoly" in cards,
        "year_of_plenty": "year_of_plenty" in cards,
        "can_offer": "offer" in kinds,
        "discard": view["discards"][seat] if "discard" in kinds else 0,
        # name: the resource's code (the form's field names); title: its word
        "hand": [{"name": r, "title": words.resource(r), "count": hand.get(r, 0)} for r in RESOURCES],
        "resources": [{"name": r, "title": words.resource(r)} for r in RESOURCES],
    }


@register.filter
def move_json(choice: Mapping, kind: str) -> str:
    """The JSON of a listed board move, for the no-script form's select."""
    return json.dumps({"type": kind, **choice["fields"]})
