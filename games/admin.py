"""Staff moderation. The secret seed is never shown; move events are read-only."""
from django.contrib import admin

from games.models import Game, MoveEvent, Rating, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "ai_level", "joined_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "title", "status", "visibility", "version", "created_by", "created_at", "deadline_at")
    list_filter = ("kind", "status", "visibility")
    search_fields = ("title", "created_by__username")
    fields = ("kind", "title", "status", "visibility", "config", "version", "turn_seconds", "deadline_at",
              "created_by", "created_at", "started_at", "finished_at", "result")
    # Play changes only through the services (locks, clocks, AI tasks); staff may retitle.
    readonly_fields = tuple(f for f in fields if f != "title")
    raw_id_fields = ("created_by",)
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("game", "index", "user", "ai_level")
    search_fields = ("user__username",)
    readonly_fields = ("game", "index", "user", "ai_level", "joined_at")

    def has_add_permission(self, request):
        return False


@admin.register(MoveEvent)
class MoveEventAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "kind", "created_by", "created_at")
    list_filter = ("kind",)
    search_fields = ("game__id",)
    fields = ("game", "seq", "seat", "kind", "created_by", "created_at", "move")
    readonly_fields = fields

    @admin.display(description="payload")
    def move(self, event: MoveEvent) -> str:
        # A move of a game still in play may be a placement others must not see yet.
        if event.game.status != Game.Status.FINISHED:
            return "(hidden until the game is over)"
        return str(event.payload)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "mu", "sigma", "games")
    search_fields = ("user__username",)
    readonly_fields = ("user", "mu", "sigma", "games")
