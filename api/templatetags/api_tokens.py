from django import template

from api import tokens
from api.forms import TokenForm

register = template.Library()


@register.inclusion_tag("api/_tokens.html", takes_context=True)
def api_tokens_panel(context):
    """The profile page's section: the user's tokens, a revoke button each, and the form for a new one."""
    user = context["request"].user
    return {"api_tokens": tokens.tokens_of(user), "token_form": TokenForm(), "csrf_token": context.get("csrf_token")}
