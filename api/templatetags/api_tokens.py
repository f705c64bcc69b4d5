from django import template

from api import oauth, tokens
from api.forms import TokenForm

register = template.Library()


@register.inclusion_tag("api/_tokens.html", takes_context=True)
def api_tokens_panel(context):
    """The profile page's section: the user's tokens, a revoke button each, and the form for a new one."""
    user = context["request"].user
    return {"api_tokens": tokens.tokens_of(user), "token_form": TokenForm(), "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("api/_authorised_apps.html", takes_context=True)
def authorised_apps_panel(context):
    """The profile page's section beside the tokens: the apps the user allowed, a revoke button each."""
    user = context["request"].user
    return {"authorised_apps": oauth.authorised_apps(user), "csrf_token": context.get("csrf_token")}
