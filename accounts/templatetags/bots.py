"""The BOT badge after a player's name: ``{{ user.public_name }}{{ user|bot_badge }}``, or
``{{ row.bot|bot_badge }}`` where a drawing keeps only whether the seat is a bot's."""
from django import template
from django.utils.html import format_html
from django.utils.translation import pgettext

register = template.Library()


@register.filter
def bot_badge(user) -> str:
    if not (user if isinstance(user, bool) else getattr(user, "is_bot", False)):
        return ""
    return format_html(' <span class="badge bot-badge" title="{}">{}</span>',
                       pgettext("badge title", "A bot: a program playing through the API"),
                       pgettext("badge after a bot account's name", "BOT"))
