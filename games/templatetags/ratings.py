"""The rating chart of a player's page."""
from __future__ import annotations

from django import template
from django.utils.html import format_html

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
    return format_html(
        '<svg viewBox="0 0 {} {}" role="img" class="rating-chart"><title>Rating after each of {} games: '
        "from {} to {}</title>"
        '<polyline fill="none" stroke="currentColor" stroke-width="2" points="{}"/></svg>',
        width, height, len(values), f"{values[0]:.1f}", f"{values[-1]:.1f}", points,
    )
