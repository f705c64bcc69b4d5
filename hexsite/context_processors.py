"""What every page's <head> says of it: the meta description of base.html."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

SITE = _("hexsite: Hextension, Hextremadura and Hexland, hex-tile games to play by correspondence "
          "or live, alone, with friends or against the computer.")

# The main pages' descriptions, by URL name (a template may still override the block).
DESCRIPTIONS = {
    "home": SITE,
    "account_login": _("Log in to hexsite to take your turns, play today's puzzle and follow your leagues."),
    "account_signup": _("Make a free hexsite account to play Hextension, Hextremadura and Hexland with others."),
    "account_reset_password": _("Forgotten your hexsite password? Ask for an e-mail with a link to choose a new one."),
    "dashboard": _("Your hexsite games: whose turn it is, the deadlines, and the games waiting for players."),
    "finished_games": _("Your finished hexsite games, their results and their replays."),
    "profile": _("Your hexsite profile: your name, time zone, e-mails and ratings."),
    "player": _("A hexsite player's profile: their games, results and ratings."),
    "hextension_lobby": _("Hextension: everyone places the same drawn tiles at once; start a game or join an open one."),
    "hextension_new": _("Start a game of Hextension: choose the players, the pace and who may join."),
    "hextremadura_home": _("Hextremadura: lay tiles on a hex board to score; play the daily puzzle or a game of your own."),
    "hextremadura_daily": _("Today's Hextremadura puzzle: the same tiles for every player, and a leaderboard."),
    "hextremadura_leaderboard": _("The leaderboard of today's Hextremadura puzzle."),
    "hexland_lobby": _("Hexland rooms: a live race to ten points of settlements, roads and trades; join a room or open one."),
    "hexland_new": _("Open a Hexland room: choose the players, the computer opponents and the turn time."),
    "hexland_rules": _("The rules of Hexland: building, trading, the robber and the race to ten points."),
    "league_list": _("Hextension leagues: seasons of games with standings; enter an open league or start one."),
    "league_new": _("Start a Hextension league: its rounds, its entry and its season."),
    "league_detail": _("A Hextension league's standings, its games and its announcements."),
    "game_detail": _("A game on hexsite: the board, the players and the moves so far."),
    "game_replay": _("The replay of a hexsite game, move by move."),
}


def meta_description(request) -> dict:
    match = getattr(request, "resolver_match", None)
    return {"meta_description": DESCRIPTIONS.get(match.url_name if match else None, SITE)}
