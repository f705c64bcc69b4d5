"""The rating chart of a player's page."""
from __future__ import annotations

from django import template
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import ngettext

register = template.Library()


@register.simple_tag
def rating_chart(history, width: int = 320, height: int = 120) -> str:
    """A small line chart of the rating (ordinal) after each game, as SVG markup."""
    if len(history) < 2:
        return ""
    values = [change.ordinal for change in history]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    pad = 8
    points = " ".join(
        f"{pad + i * (width - 2 * pad) / (len(values) - 1):.1f},{height - pad - (v - low) * (height - 2 * pad) / span:.1f}"
        for i, v in enumerate(values)
    )
    # The title is read out; its numbers are written as the page's language writes them. The
    # drawing's own numbers (viewBox, points) stay plain: an SVG reads 1.5, never 1,5.
    title = ngettext("Rating after each of %(count)s game: from %(first)s to %(last)s",
                     "Rating after each of %(count)s games: from %(first)s to %(last)s", len(values)) % {
        "count": len(values), "first": number_format(values[0], 1), "last": number_format(values[-1], 1)}
    return format_html(
        '<svg viewBox="0 0 {} {}" role="img" class="rating-chart"><title>{}</title>'
        '<polyline fill="none" stroke="currentColor" stroke-width="2" points="{}"/></svg>',
        width, height, title, points,
    )
