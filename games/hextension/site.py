"""Hextension on the site: what the platform asks of this game."""
from games.hextension import forms, services
from games.sites import GameSite


def round_label(view: dict) -> str:
    return f"Round {view['round']} of {view['rounds']}"


SITE = GameSite(
    kind="hextension",
    engine_path="games.hextension.engine",
    board_template="hextension/board.html",
    turn_progress_template="hextension/turn_progress.html",
    replay_template="hextension/replay.html",
    parse_form=forms.parse_placement,
    rated=True,
    after_game=(services.analyse_game,),
    turn_label=round_label,
    urls="games.hextension.urls",
    lobby_url_name="hextension_lobby",
)
