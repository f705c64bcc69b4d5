"""Hexland on the site: what the platform asks of this game."""
from games.hexland import forms, selectors, services, svg
from games.hexland.templatetags.hexland_boards import hexland_panel
from games.sites import GameSite


def _check_board_draws(view: dict) -> None:
    """A state is stored only if its board and panel can be drawn (with the seat's targets)."""
    svg.board_svg(view, interactive=True)
    hexland_panel(view)


SITE = GameSite(
    kind="hexland",
    engine_path="games.hexland.engine",
    board_template="hexland/board.html",
    check_view=_check_board_draws,
    rated=True,
    standin_after_timeouts=2,
    standin_level="medium",
    urls="games.hexland.urls",
    lobby_url_name="hexland_lobby",
    parse_form=forms.parse_move_form,
    config_at_start=services.config_at_start,
    settings_form=forms.SettingsForm,
    profile_sections=(("hexland/_stats.html", selectors.player_stats),),
)
