"""Hextremadura on the site: what the platform asks of this game."""
from games.hextremadura import forms, selectors, svg
from games.hextremadura.refusals import REFUSALS
from games.sites import GameSite


def _check_map_draws(view: dict) -> None:
    svg.map_svg(view)


SITE = GameSite(
    kind="hextremadura",
    engine_path="games.hextremadura.engine",
    board_template="hextremadura/board.html",
    parse_form=forms.parse_placement,
    can_watch=selectors.can_watch,
    hint=selectors.hint,
    hint_template="hextremadura/_hint.html",
    check_view=_check_map_draws,
    urls="games.hextremadura.urls",
    lobby_url_name="hextremadura_home",
    profile_sections=(("hextremadura/_solo_stats.html", selectors.solo_stats),),
    refusals=REFUSALS,
)
