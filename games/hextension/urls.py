from django.urls import path

from games.hextension import views

urlpatterns = [
    path("", views.lobby, name="hextension_lobby"),
    path("new/", views.new_game, name="hextension_new"),
]
