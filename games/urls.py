from django.urls import path

from games import views

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("finished/", views.finished_games, name="finished_games"),
    path("<int:game_id>/", views.game_detail, name="game_detail"),
    path("<int:game_id>/move/", views.game_move, name="game_move"),
    path("<int:game_id>/start/", views.game_start, name="game_start"),
    path("join/<str:token>/", views.game_join, name="game_join"),
]
