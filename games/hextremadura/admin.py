"""The daily puzzle in the admin: read-only, and never its seed or the solver's placements
(both show the day's secret shuffle)."""
from django.contrib import admin

from games.admin_base import SiteModelAdmin
from games.hextremadura.models import DailyAttempt, DailyPuzzle


@admin.register(DailyPuzzle)
class DailyPuzzleAdmin(SiteModelAdmin):
    secret_fields = ("seed", "par_moves")
    list_display = ("date", "par", "par_proved")
    date_hierarchy = "date"
    fields = ("date", "par", "par_proved")


@admin.register(DailyAttempt)
class DailyAttemptAdmin(SiteModelAdmin):
    list_display = ("puzzle", "user", "game")
    search_fields = ("user__username",)
    list_select_related = ("puzzle", "user", "game")
    fields = ("puzzle", "user", "game")
