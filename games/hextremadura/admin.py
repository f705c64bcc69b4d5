"""The daily puzzle in the admin: read-only, and never its seed (the day's secret shuffle)."""
from django.contrib import admin

from games.admin_base import SiteModelAdmin
from games.hextremadura.models import DailyAttempt, DailyPuzzle


@admin.register(DailyPuzzle)
class DailyPuzzleAdmin(SiteModelAdmin):
    secret_fields = ("seed",)
    list_display = ("date", "par")
    date_hierarchy = "date"
    fields = ("date", "par")


@admin.register(DailyAttempt)
class DailyAttemptAdmin(SiteModelAdmin):
    list_display = ("puzzle", "user", "game")
    search_fields = ("user__username",)
    list_select_related = ("puzzle", "user", "game")
    fields = ("puzzle", "user", "game")
