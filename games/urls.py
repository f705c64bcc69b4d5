from django.urls import path

from games import hextension_views, league_views, solo_views, views

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("finished/", views.finished_games, name="finished_games"),
    path("<int:game_id>/", views.game_detail, name="game_detail"),
    path("<int:game_id>/move/", views.game_move, name="game_move"),
    path("<int:game_id>/start/", views.game_start, name="game_start"),
    path("join/<str:token>/", views.game_join, name="game_join"),
    path("<int:game_id>/undo/", solo_views.undo, name="game_undo"),
    path("<int:game_id>/hint/", solo_views.hint, name="game_hint"),
    path("hextremadura/", solo_views.home, name="hextremadura_home"),
    path("hextremadura/new/", solo_views.new_casual_game, name="hextremadura_new"),
    path("hextremadura/daily/", solo_views.start_daily, name="hextremadura_daily"),
    path("hextremadura/daily/<str:date>/", solo_views.daily_leaderboard, name="hextremadura_leaderboard"),
    path("hextension/", hextension_views.lobby, name="hextension_lobby"),
    path("hextension/new/", hextension_views.new_game, name="hextension_new"),
    path("leagues/", league_views.league_list, name="league_list"),
    path("leagues/new/", league_views.league_new, name="league_new"),
    path("leagues/<int:league_id>/", league_views.league_detail, name="league_detail"),
    path("leagues/<int:league_id>/enter/", league_views.league_enter, name="league_enter"),
    path("leagues/<int:league_id>/entries/<int:entry_id>/", league_views.league_decide, name="league_decide"),
    path("leagues/<int:league_id>/start/", league_views.league_start, name="league_start"),
    path("leagues/<int:league_id>/pause/", league_views.league_pause, name="league_pause"),
    path("leagues/<int:league_id>/extend/", league_views.league_extend, name="league_extend"),
    path("leagues/<int:league_id>/replace/", league_views.league_replace, name="league_replace"),
    path("leagues/<int:league_id>/announce/", league_views.league_announce, name="league_announce"),
    path("leagues/<int:league_id>/standings.csv", league_views.league_standings_csv, name="league_standings_csv"),
    path("leagues/<int:league_id>/boards.csv", league_views.league_boards_csv, name="league_boards_csv"),
]
