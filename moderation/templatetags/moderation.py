"""Template helpers of moderation (a builtin library: no {% load %} needed)."""
from __future__ import annotations

from django import template

from games.models import Game
from moderation import sanctions

register = template.Library()


@register.filter
def unless_blocked_by(game, user):
    """A game someone offers (a rematch), or None when ``user`` has blocked who offered it."""
    if not isinstance(game, Game):  # none offered (the template engine gives "" for a missing one)
        return None
    if user is None or not getattr(user, "is_authenticated", False):
        return game
    return None if sanctions.has_blocked(user, game.created_by_id) else game


@register.simple_tag
def report_targets(game, user) -> list:
    """The other human players of a game, whom ``user`` may report from its page."""
    from games.selectors import seats_with_users  # the seats the page read already, when it did

    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return [seat.user for seat in seats_with_users(game) if seat.user_id and seat.user_id != user.pk]


@register.simple_tag
def staff_decision(game):
    """The staff event that ended ``game``, if staff ended it."""
    from games.services.adjudication import staff_decision as decision

    return decision(game)


@register.filter
def is_blocked_by(person, user) -> bool:
    return bool(user and getattr(user, "is_authenticated", False)) and sanctions.has_blocked(user, person.pk)
