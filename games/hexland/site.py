"""Hexland on the site: what the platform asks of this game."""
import hashlib
import json

from games.hexland import forms, names, selectors, services, svg
from games.hexland.refusals import REFUSALS
from games.hexland.templatetags.hexland_boards import hexland_panel
from games.regions import PUBLIC, SEAT, Region
from games.sites import GameSite


def _board_audience(live) -> str:
    """The island is the same for every viewer, but for the seat to move: its places to click."""
    return SEAT if live.your_move else PUBLIC


BOARD_MOVES = frozenset(svg.NODE_MOVES + svg.EDGE_MOVES + svg.HEX_MOVES)


def _board_depends(live) -> str:
    """What the island shows: the pieces, the robber, the players' names, and for the seat to
    move its places to click. Trades, dice, discards and cards in hand leave it as it was."""
    view = live.seat_view if live.your_move else live.public_view
    # Only the moves drawn as places to click (svg.click_targets): a roll, a trade or an offer
    # changes the mover's other moves, not the island.
    targets = [m for m in view.get("legal_moves") or [] if isinstance(m, dict) and m.get("type") in BOARD_MOVES]
    shown = [view.get("buildings"), view.get("roads"), view.get("robber"),
             [(p.get("seat"), p.get("name")) for p in view.get("players") or []],
             targets if live.your_move else None]
    return hashlib.blake2b(json.dumps(shown, sort_keys=True, default=str).encode(), digest_size=8).hexdigest()


# The page (board.html places them): the island beside the seat's own cards and moves.
REGIONS = (
    Region("hl-head", "hexland/regions/head.html", PUBLIC),
    Region("hl-island", "hexland/regions/island.html", PUBLIC, depends=lambda live: "map", turn_bound=False),
    Region("hl-board", "hexland/regions/board.html", _board_audience, depends=_board_depends, turn_bound=False),
    Region("hl-private", "hexland/regions/private.html", SEAT),
    Region("hl-public", "hexland/regions/public.html", PUBLIC),
    Region("hl-players", "hexland/regions/players.html", PUBLIC),
)


def _check_board_draws(view: dict) -> None:
    """A state is stored only if its pieces (with the seat's targets) and panel can be drawn.
    The island is the same all game long: a move cannot change it, so it is not drawn here,
    under the game's row lock, at every move."""
    svg.pieces_svg(view, interactive=True)
    hexland_panel(view)


SITE = GameSite(
    kind="hexland",
    engine_path="games.hexland.engine",
    board_template="hexland/board.html",
    regions=REGIONS,
    check_view=_check_board_draws,
    shown_view=names.shown_view,
    shown_view_schema=names.shown_view_schema,
    rated=True,
    standin_after_timeouts=2,
    standin_level="medium",
    urls="games.hexland.urls",
    lobby_url_name="hexland_lobby",
    parse_form=forms.parse_move_form,
    config_at_start=services.config_at_start,
    settings_form=forms.SettingsForm,
    describe_settings=forms.describe_settings,
    refusals=REFUSALS,
    profile_sections=(("hexland/_stats.html", selectors.player_stats),),
)
