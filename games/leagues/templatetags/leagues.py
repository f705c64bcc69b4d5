"""Template helpers of leagues for the pages of their games."""
from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def left_the_season(game, user) -> bool:
    """Whether the organiser replaced or removed ``user`` from ``game``'s league."""
    from games.leagues.services import left_the_season as left

    return left(game, user)
