"""The platform's pages, and each game's own pages under /games/<kind>/ (from its site)."""
from django.urls import include, path

from games import chat_views, invitation_views, seat_views, views
from games.sites import offered_sites

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("finished/", views.finished_games, name="finished_games"),
    path("<int:game_id>/", views.game_detail, name="game_detail"),
    path("<int:game_id>/move/", views.game_move, name="game_move"),
    path("<int:game_id>/regions/", views.game_regions, name="game_regions"),
    path("<int:game_id>/regions/<slug:region_id>/", views.game_region_body, name="game_region_body"),
    path("<int:game_id>/start/", seat_views.start, name="game_start"),
    path("<int:game_id>/seats/<int:index>/", seat_views.set_seat, name="game_seat"),
    path("<int:game_id>/settings/", seat_views.change_settings, name="game_settings"),
    path("<int:game_id>/leave/", seat_views.leave, name="game_leave"),
    path("<int:game_id>/cancel/", seat_views.cancel, name="game_cancel"),
    path("<int:game_id>/resign/", seat_views.resign, name="game_resign"),
    path("<int:game_id>/back/", seat_views.take_back, name="game_take_back"),
    path("<int:game_id>/rematch/", seat_views.rematch, name="game_rematch"),
    path("<int:game_id>/undo/", views.game_undo, name="game_undo"),
    path("<int:game_id>/hint/", views.game_hint, name="game_hint"),
    path("<int:game_id>/chat/", chat_views.game_chat, name="game_chat"),
    path("<int:game_id>/replay/", views.game_replay, name="game_replay"),
    path("join/<str:token>/", views.game_join, name="game_join"),
    path("<int:game_id>/invite/", invitation_views.invite, name="game_invite"),
    path("invitations/<int:invitation_id>/accept/", invitation_views.accept, name="invitation_accept"),
    path("invitations/<int:invitation_id>/decline/", invitation_views.decline, name="invitation_decline"),
    path("invitations/<int:invitation_id>/cancel/", invitation_views.cancel, name="invitation_cancel"),
    path("leagues/", include("games.leagues.urls")),
    *[path(f"{site.kind}/", include(site.urls)) for site in offered_sites() if site.urls],
]
