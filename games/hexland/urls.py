from django.urls import path

from games.hexland import views

urlpatterns = [
    path("", views.lobby, name="hexland_lobby"),
    path("new/", views.new_room, name="hexland_new"),
    path("rules/", views.rules, name="hexland_rules"),
]
