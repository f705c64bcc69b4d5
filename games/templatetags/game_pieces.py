"""Template tags for pieces of pages drawn once and reused (``games.pieces``)."""
from django import template
from django.utils.safestring import mark_safe

from games import pieces

register = template.Library()


@register.simple_tag
def presence_list(presence):
    """Who sits where and who is connected (``games/_presence.html``)."""
    return mark_safe(pieces.presence_list(presence))
