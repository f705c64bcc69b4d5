from django.urls import path

from games.hextremadura import views

urlpatterns = [
    path("", views.home, name="hextremadura_home"),
    path("new/", views.new_casual_game, name="hextremadura_new"),
    path("daily/", views.start_daily, name="hextremadura_daily"),
    path("daily/<str:date>/", views.daily_leaderboard, name="hextremadura_leaderboard"),
    path("game/<int:game_id>/par/", views.solver_game, name="hextremadura_solver_game"),
]
