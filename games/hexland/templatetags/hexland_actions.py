"""What the player whose view it is may do now, grouped for the action panel (buttons and small
forms that work without JavaScript), from the view's legal moves only."""
from __future__ import annotations

import json
from typing import Mapping

from django import template

from games.hexland import svg

register = template.Library()

RESOURCES = ("wood", "brick", "sheep", "wheat", "ore")
BUTTONS = {  # move type (or card) -> the button's words
    "roll": "Roll the dice", "end_turn": "End your turn", "buy_dev": "Buy a development card",
    "accept": "Accept the offer", "decline": "Decline the offer", "cancel": "Withdraw your offer",
    "knight": "Play a Knight", "road_building": "Play Road Building",
}
PLACES = {  # moves made on the board, named for the list that stands in for clicking
    "place_settlement": "Place a settlement", "place_road": "Place a road", "build_settlement": "Build a settlement",
    "build_city": "Build a city", "build_road": "Build a road", "move_robber": "Move the robber",
    "move_pair": "Move your auto-placed settlement and road",
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
        "bank_trades": [{"give": g, "get": r, "rate": rates[g]} for g, r in bank_trades],
        "monopoly": "monopoly" in cards,
        "year_of_plenty": "year_of_plenty" in cards,
        "can_offer": "offer" in kinds,
        "discard": view["discards"][seat] if "discard" in kinds else 0,
        "hand": [{"name": r, "count": hand.get(r, 0)} for r in RESOURCES],
        "resources": RESOURCES,
    }


@register.filter
def move_json(choice: Mapping, kind: str) -> str:
    """The JSON of a listed board move, for the no-script form's select."""
    return json.dumps({"type": kind, **choice["fields"]})
