"""Hexland's words on the site: the engine's codes (resources, terrains, cards, colours, answers,
timers…) as a player of the active language reads them.

The engine is pure Python and speaks in English codes ("wood", "road_building", "main"); nothing
it names reaches a page as it is: the templates, the SVG and the refusals look its codes up
here. The English words are the codes' own, so an English page reads as it always did.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from django.utils.translation import gettext_lazy
from django.utils.translation import pgettext, pgettext_lazy

# The resources, in the engine's order (engine/board.py RESOURCES).
RESOURCES = ("wood", "brick", "sheep", "wheat", "ore")

RESOURCE_NAMES = {
    # Translators: a Hexland resource inside a sentence ("you do not hold 2 wood"), lower case in
    # English. "wood" is also called lumber, "sheep" wool, "wheat" grain; keep one word for each.
    "wood": pgettext_lazy("hexland resource", "wood"),
    "brick": pgettext_lazy("hexland resource", "brick"),
    "sheep": pgettext_lazy("hexland resource", "sheep"),
    "wheat": pgettext_lazy("hexland resource", "wheat"),
    "ore": pgettext_lazy("hexland resource", "ore"),
}
RESOURCE_TITLES = {
    # Translators: a Hexland resource card's title (the cards in a player's hand), capitalised.
    "wood": pgettext_lazy("hexland resource card", "Wood"),
    "brick": pgettext_lazy("hexland resource card", "Brick"),
    "sheep": pgettext_lazy("hexland resource card", "Sheep"),
    "wheat": pgettext_lazy("hexland resource card", "Wheat"),
    "ore": pgettext_lazy("hexland resource card", "Ore"),
}
TERRAIN_NAMES = {
    # Translators: a Hexland terrain (a hex of the island), lower case in English.
    "forest": pgettext_lazy("hexland terrain", "forest"),
    "hills": pgettext_lazy("hexland terrain", "hills"),
    "pasture": pgettext_lazy("hexland terrain", "pasture"),
    "fields": pgettext_lazy("hexland terrain", "fields"),
    "mountains": pgettext_lazy("hexland terrain", "mountains"),
    "desert": pgettext_lazy("hexland terrain", "desert"),
}
DEV_TITLES = {
    # Translators: the Hexland development cards' names.
    "knight": pgettext_lazy("hexland card", "Knight"),
    "road_building": pgettext_lazy("hexland card", "Road Building"),
    "year_of_plenty": pgettext_lazy("hexland card", "Year of Plenty"),
    "monopoly": pgettext_lazy("hexland card", "Monopoly"),
    "victory_point": pgettext_lazy("hexland card", "Victory Point"),
}
COLOUR_NAMES = (
    # Translators: the colour of a Hexland player's pieces.
    pgettext_lazy("hexland colour", "orange"),
    pgettext_lazy("hexland colour", "blue"),
    pgettext_lazy("hexland colour", "white"),
    pgettext_lazy("hexland colour", "purple"),
)
ANSWERS = {
    # Translators: a player's answer to a Hexland trade offer ("bo: accepted").
    "pending": pgettext_lazy("hexland offer answer", "pending"),
    "accepted": pgettext_lazy("hexland offer answer", "accepted"),
    "declined": pgettext_lazy("hexland offer answer", "declined"),
}
TIMER_NAMES = {
    # Translators: a Hexland room's timer preset, by its name.
    "fast": pgettext_lazy("hexland timers", "Fast"),
    "normal": pgettext_lazy("hexland timers", "Normal"),
    "slow": pgettext_lazy("hexland timers", "Slow"),
    "correspondence": pgettext_lazy("hexland timers", "Correspondence"),
}
TIMER_WORDS = {
    # Translators: the same timer presets inside a table cell of the lobby, lower case in English.
    "fast": pgettext_lazy("hexland timers in the lobby", "fast"),
    "normal": pgettext_lazy("hexland timers in the lobby", "normal"),
    "slow": pgettext_lazy("hexland timers in the lobby", "slow"),
    "correspondence": pgettext_lazy("hexland timers in the lobby", "correspondence"),
}
MAP_WORDS = {
    # Translators: which Hexland map a room uses, in the lobby's table (lower case in English).
    "fixed": pgettext_lazy("hexland map", "beginner"),
    "random": pgettext_lazy("hexland map", "random"),
    "spiral": pgettext_lazy("hexland map", "spiral"),
}
AI_LEVEL_NAMES = {
    # Translators: an AI player's level of play.
    "easy": pgettext_lazy("AI level", "easy"),
    "medium": pgettext_lazy("AI level", "medium"),
    "hard": pgettext_lazy("AI level", "hard"),
}
# Translators: no cards at all ("ana offers 1 wood for nothing").
NOTHING = gettext_lazy("nothing")


def _word(table: Mapping, code) -> str:
    """The word of ``code`` in ``table``; a code no table knows stays as it is (never English
    prose: codes are short names the engine checked)."""
    word = table.get(str(code).lower()) if isinstance(code, str) else None
    return str(word) if word is not None else str(code)


def resource(code) -> str:
    return _word(RESOURCE_NAMES, code)


def resource_title(code) -> str:
    return _word(RESOURCE_TITLES, code)


def terrain(code) -> str:
    return _word(TERRAIN_NAMES, code)


def dev_title(code) -> str:
    return _word(DEV_TITLES, code)


def answer(code) -> str:
    return _word(ANSWERS, code)


def timers(code) -> str:
    return _word(TIMER_WORDS, code)


def ai_level(code) -> str:
    return _word(AI_LEVEL_NAMES, code)


def amount(count, code) -> str:
    """"2 wood": a number of cards of one resource."""
    # Translators: a number of Hexland resource cards, e.g. "2 wood" (resource: a resource's name).
    return pgettext("hexland amount", "%(count)s %(resource)s") % {"count": count, "resource": resource(code)}


def spot(number, code) -> str:
    """A hex by its number and what it produces: "6 wheat"."""
    # Translators: a Hexland hex by its number and the resource it produces, e.g. "6 wheat".
    return pgettext("hexland hex", "%(number)s %(resource)s") % {"number": number, "resource": resource(code)}


def amounts(pairs: Iterable) -> str:
    """"1 wood, 2 ore" from (resource, count) pairs with a count; "nothing" when none has."""
    parts = [amount(count, code) for code, count in pairs if count]
    return ", ".join(parts) if parts else str(NOTHING)


def bundle(cards: Mapping | None) -> str:
    """A bundle of cards by resource ({"wood": 1, "ore": 2}) in words, in the engine's order."""
    cards = cards if isinstance(cards, Mapping) else {}
    return amounts((code, cards.get(code, 0)) for code in RESOURCES)


def resource_list(codes: Iterable) -> str:
    """"wood, ore": resources named one after the other."""
    return ", ".join(resource(code) for code in codes)
