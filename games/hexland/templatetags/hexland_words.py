"""Hexland's codes (a room's timers, its map) in the words of the active language, for pages
that show a room's settings (the lobby)."""
from __future__ import annotations

from django import template

from games.hexland import words

register = template.Library()


@register.filter
def hexland_timers(code) -> str:
    """A room's timer preset ("normal") as a word."""
    return words.timers(code) if code else ""


@register.filter
def hexland_map(layout) -> str:
    """A room's map by its layout ("fixed" is the beginner map) as a word."""
    return words._word(words.MAP_WORDS, layout) if layout else ""
