"""Leagues in the admin."""
from django.contrib import admin

from games.leagues.models import Announcement, League, LeagueEntry


class LeagueEntryInline(admin.TabularInline):
    model = LeagueEntry
    extra = 0
    raw_id_fields = ("user",)
    fields = ("user", "status", "created_at")
    readonly_fields = ("created_at",)


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "organiser", "status", "entry", "schedule", "season_games", "starts_at")
    list_filter = ("status", "entry", "schedule")
    search_fields = ("name", "organiser__username")
    raw_id_fields = ("organiser",)
    inlines = [LeagueEntryInline]


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    list_display = ("league", "author", "created_at")
    raw_id_fields = ("league", "author")
