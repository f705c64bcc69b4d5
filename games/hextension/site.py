"""Hextension on the site: what the platform asks of this game."""
from django.utils.translation import gettext as _

from games import selectors
from games.hextension import forms, services
from games.hextension.refusals import REFUSALS
from games.regions import PUBLIC, SEAT, Region
from games.sites import GameSite


def _own_part(live) -> tuple:
    """What the seat's own region shows (its board, the tiles to place, its placement, score,
    rank, whether it plays) changes only when a round closes, when the game ends, and when the
    seat itself moves: its submission, or the timeout or stand-in's move played for it, which
    take it out of the seats the game awaits. Other seats' submissions change none of it. So the
    key is read from the game's row, and no seat's view is computed to tell (a 100-seat round's
    every announcement was a view per socket). tests/web/test_hextension_own_part.py plays
    rounds and checks that the key changes whenever the view's own part does."""
    game = live.game
    return (game.turn_started_version, game.status, live.your_move)


def _play_viewers(live) -> tuple:
    """Each seat its own drawing; spectators share one, but for a player the league's organiser
    replaced or removed, whose region says why the placement form has gone (games/leagues)."""
    if live.seat is None and live.game.league_id is not None:
        from games.leagues.services import left_the_season

        if left_the_season(live.game, live.user):
            return ("left the season", live.user.pk)
    return ("seat", live.seat)


def _round(live) -> int:
    return live.game.turn_started_version


# The page (board.html places them). A submission changes only "who has moved" for the others;
# a round's close changes the rest; the diagrams of every board and the table of the tiles drawn
# so far load when scrolled into view, the standings of a large game past their first rows when
# opened.
REGIONS = (
    Region("hx-head", "hextension/regions/head.html", PUBLIC, depends=_round),
    Region("hx-play", "hextension/regions/play.html", SEAT, depends=_own_part, viewers=_play_viewers),
    Region("hx-round", "hextension/regions/round.html", PUBLIC, depends=_round),
    Region("hx-progress", "hextension/regions/progress.html", PUBLIC),
    Region("hx-diagrams", "hextension/regions/diagrams.html", PUBLIC, depends=_round,
           body_template="hextension/regions/diagrams_body.html"),
    Region("hx-standings", "hextension/regions/standings.html", PUBLIC, depends=_round,
           body_template="hextension/regions/standings_body.html"),
    Region("hx-history", "hextension/regions/history.html", PUBLIC, depends=_round,
           body_template="hextension/regions/history_body.html"),
)


def player_stats(user) -> selectors.PlayerStats:
    """A player's finished Hextension games: how many, scores and places."""
    return selectors.player_stats(user, "hextension")


def round_label(view: dict) -> str:
    return _("Round %(round)s of %(rounds)s") % {"round": view["round"], "rounds": view["rounds"]}


SITE = GameSite(
    kind="hextension",
    engine_path="games.hextension.engine",
    board_template="hextension/board.html",
    regions=REGIONS,
    replay_template="hextension/replay.html",
    parse_form=forms.parse_placement,
    rated=True,
    after_game=(services.analyse_game,),
    turn_label=round_label,
    urls="games.hextension.urls",
    lobby_url_name="hextension_lobby",
    profile_sections=(("hextension/_stats.html", player_stats),),
    describe_settings=forms.describe_settings,
    refusals=REFUSALS,
)
