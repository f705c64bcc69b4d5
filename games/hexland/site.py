"""Hexland on the site: what the platform asks of this game (its rooms come with their own
pages; until then games are created by services and shown on the generic game page, with
Hexland's board and panel)."""
from games.hexland import svg
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
)
