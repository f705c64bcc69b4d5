"""Leagues in the admin: read-only; staff pause and resume a season through the league services."""
from django.contrib import admin, messages
from django.utils.translation import gettext, gettext_lazy as _

from games.admin_base import ReadOnlyInline, SiteAdminMixin, SiteModelAdmin
from games.errors import GameError
from games.leagues import services
from games.leagues.models import Announcement, League, LeagueEntry


class LeagueEntryInline(ReadOnlyInline):
    # Entries change through the organiser's tools (decide_entry, replace_player).
    model = LeagueEntry
    fields = ("user", "status", "created_at")


@admin.register(League)
class LeagueAdmin(SiteModelAdmin):
    secret_fields = ("invite_token",)
    list_display = ("name", "organiser", "status", "entry", "schedule", "season_games", "starts_at")
    list_filter = ("status", "entry", "schedule")
    search_fields = ("name", "organiser__username")
    fields = ("name", "description", "organiser", "status", "entry", "schedule", "tiles_per_round",
              "round_hours", "season_games", "starts_at", "created_at")
    inlines = [LeagueEntryInline]
    actions = ["pause_seasons", "resume_seasons"]

    def has_pause_permission(self, request) -> bool:
        # Pausing stops every game's clock: for staff trusted to change leagues.
        return request.user.has_perm(f"{League._meta.app_label}.change_league")

    @admin.action(description=_("Pause the selected seasons (every running game keeps its time)"), permissions=["pause"])
    def pause_seasons(self, request, queryset):
        self._set_paused(request, queryset, paused=True)

    @admin.action(description=_("Resume the selected seasons"), permissions=["pause"])
    def resume_seasons(self, request, queryset):
        self._set_paused(request, queryset, paused=False)

    def _set_paused(self, request, queryset, *, paused: bool) -> None:
        for league_id, name in queryset.values_list("pk", "name"):
            try:
                services.set_paused(league_id=league_id, by_user=request.user, paused=paused)
            except GameError as refused:
                # Translators: a league the admin could not pause or resume, then why.
                self.message_user(request, gettext("%(league)s: %(reason)s") % {"league": name, "reason": refused},
                                  messages.WARNING)
            else:
                done = gettext("%(league)s: paused.") if paused else gettext("%(league)s: resumed.")
                self.message_user(request, done % {"league": name}, messages.SUCCESS)


@admin.register(Announcement)
class AnnouncementAdmin(SiteAdminMixin, admin.ModelAdmin):
    """Not play: staff may delete one (moderation), never write one (announce() mails the players)."""

    list_display = ("league", "author", "created_at")
    search_fields = ("league__name", "author__username")
    fields = ("league", "author", "text", "created_at")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
