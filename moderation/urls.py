from django.urls import path

from moderation import views

urlpatterns = [
    path("reports/", views.my_reports, name="my_reports"),
    path("players/<str:username>/report/", views.report_player, name="report_player"),
    path("players/<str:username>/block/", views.block_player, name="block_player"),
]
