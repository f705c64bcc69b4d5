"""The par of a Hextremadura game for its page (a read through the selectors)."""
from __future__ import annotations

from django import template

from games.hextremadura import selectors

register = template.Library()


@register.simple_tag
def hxt_par(game):
    """The par of ``game``'s shuffle (``selectors.ParInfo``), or None."""
    return selectors.par_of_game(game) if game is not None and getattr(game, "pk", None) else None
