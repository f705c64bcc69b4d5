"""The par of a Hextremadura game for its page (a read through the selectors)."""
from __future__ import annotations

from django import template

from games.hextremadura import selectors
from games.models import Game

register = template.Library()


@register.simple_tag
def hxt_par(game):
    """The par of ``game``'s shuffle (``selectors.ParInfo``), or None."""
    # Only a stored game has a par (a board drawn from a plain view, as in a preview, has none).
    return selectors.par_of_game(game) if isinstance(game, Game) and game.pk else None
