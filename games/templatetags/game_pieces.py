"""Template tags for the live page's regions (``games.live``)."""
from django import template
from django.utils.safestring import mark_safe


register = template.Library()


@register.simple_tag(takes_context=True)
def region(context, region_id: str):
    """A region of the live page (``games.live``): as drawn for this viewer when the page has
    its regions drawn (``regions``), else drawn here from the page's own context (a replay)."""
    drawn = context.get("regions") or {}
    if region_id in drawn:
        return drawn[region_id]
    from django.template.loader import render_to_string

    from games import live

    game = context["game"]
    found = live.region_named(region_id)
    if found is None:
        raise template.TemplateSyntaxError(f"no region {region_id!r} is declared")
    with context.push(region_shown=game.status in found.statuses):
        return mark_safe(render_to_string(found.template, context.flatten()))


@register.filter
def rematch_offered(game, user) -> bool:
    """Whether the rematch button is shown: exactly when the service would accept it
    (``services.lifecycle.rematch_refusal``), so nobody sees a button they cannot use."""
    from games.selectors import seats_with_users
    from games.services.lifecycle import rematch_refusal

    return rematch_refusal(game, user, seats_with_users(game)) is None
