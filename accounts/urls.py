from django.urls import path

from accounts import views

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("language/", views.set_language, name="set_language"),
    path("players/<str:username>/", views.player, name="player"),
]
