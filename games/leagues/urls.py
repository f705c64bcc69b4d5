from django.urls import path

from games.leagues import views

urlpatterns = [
    path("", views.league_list, name="league_list"),
    path("new/", views.league_new, name="league_new"),
    path("<int:league_id>/", views.league_detail, name="league_detail"),
    path("<int:league_id>/organise/", views.league_organise, name="league_organise"),
    path("<int:league_id>/enter/", views.league_enter, name="league_enter"),
    path("<int:league_id>/entries/<int:entry_id>/", views.league_decide, name="league_decide"),
    path("<int:league_id>/start/", views.league_start, name="league_start"),
    path("<int:league_id>/pause/", views.league_pause, name="league_pause"),
    path("<int:league_id>/extend/", views.league_extend, name="league_extend"),
    path("<int:league_id>/replace/", views.league_replace, name="league_replace"),
    path("<int:league_id>/announce/", views.league_announce, name="league_announce"),
    path("<int:league_id>/invite/", views.league_invite, name="league_invite"),
    path("<int:league_id>/invitations/<int:invitation_id>/cancel/", views.league_invitation_cancel,
         name="league_invitation_cancel"),
    path("<int:league_id>/standings.csv", views.league_standings_csv, name="league_standings_csv"),
    path("<int:league_id>/boards.csv", views.league_boards_csv, name="league_boards_csv"),
]
