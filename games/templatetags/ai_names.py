"""The AI levels' names in the active language (``games.ai_names``)."""
from django import template

from games import ai_names

register = template.Library()


@register.filter
def ai_level_name(code: str) -> str:
    """``{{ level|ai_level_name }}``: "easy", in the page's language."""
    return ai_names.level_name(code)


@register.filter
def ai_player(code: str) -> str:
    """``{{ level|ai_player }}``: "AI (easy)", in the page's language."""
    return ai_names.ai_player(code)
