"""Staff moderation of play: read-only (games.admin_base). No seed, token or open move shows."""
from django.contrib import admin, messages
from django.utils.translation import gettext, gettext_lazy as _

from games import selectors
from games.admin_base import ReadOnlyInline, SiteModelAdmin
from games.errors import GameError
from games.models import ChatMessage, Game, MoveEvent, Rating, RatingChange, Seat
from games.services import chat


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("index", "user", "ai_level", "joined_at")


@admin.register(Game)
class GameAdmin(SiteModelAdmin):
    secret_fields = ("seed", "invite_token")
    list_display = ("id", "kind", "title", "status", "visibility", "version", "created_by", "created_at", "deadline_at")
    list_filter = ("kind", "status", "visibility")
    search_fields = ("title", "created_by__username")
    fields = ("kind", "title", "status", "visibility", "config", "version", "turn_seconds", "deadline_at",
              "created_by", "created_at", "started_at", "finished_at", "result")
    # Staff may retitle a game (an offensive name); play never reads the title.
    editable_fields = ("title",)
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(SiteModelAdmin):
    # Seats are taken and handed over by the services: a seat removed here left its game running.
    list_display = ("game", "index", "user", "ai_level")
    search_fields = ("user__username",)
    fields = ("game", "index", "user", "ai_level", "joined_at")


@admin.register(MoveEvent)
class MoveEventAdmin(SiteModelAdmin):
    secret_fields = ("payload",)
    list_display = ("game", "seq", "seat", "kind", "created_by", "created_at")
    list_filter = ("kind",)
    search_fields = ("game__id",)
    list_select_related = ("game", "created_by")
    fields = ("game", "seq", "seat", "kind", "created_by", "created_at")
    readonly_fields = ("move", "move_hidden")  # one of them is added to the fields, per event

    def get_fields(self, request, obj=None):
        shown = "move" if obj is not None and self.move_is_public(request, obj) else "move_hidden"
        return [*super().get_fields(request, obj), shown]

    @staticmethod
    def move_is_public(request, event: MoveEvent) -> bool:
        # A move of a game in play may be a placement others must not see yet; a finished one
        # may still show a secret others play on (a daily puzzle's shuffle), so staff see it
        # only where the site would show them the game.
        return event.game.status == Game.Status.FINISHED and selectors.can_watch(event.game, request.user)

    @admin.display(description=_("move"))
    def move(self, event: MoveEvent) -> str:
        return str(event.payload)

    @admin.display(description=_("move"))
    def move_hidden(self, event: MoveEvent) -> str:
        if event.game.status != Game.Status.FINISHED:
            return gettext("(hidden until the game is over)")
        return gettext("(hidden: only those who may watch this game see its moves)")


@admin.register(Rating)
class RatingAdmin(SiteModelAdmin):
    list_display = ("user", "kind", "mu", "sigma", "games")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    fields = ("user", "kind", "mu", "sigma", "games")


@admin.register(RatingChange)
class RatingChangeAdmin(SiteModelAdmin):
    list_display = ("user", "game", "ordinal", "created_at")
    search_fields = ("user__username",)
    fields = ("user", "game", "mu", "sigma", "ordinal", "created_at")


@admin.register(ChatMessage)
class ChatMessageAdmin(SiteModelAdmin):
    """Chat is read here; a message is hidden (never deleted) through the chat service."""

    list_display = ("game", "author", "text", "created_at", "hidden_at")
    list_filter = ("hidden_at",)
    search_fields = ("author__username", "text")
    fields = ("game", "author", "text", "created_at", "hidden_at", "hidden_by")
    actions = ["hide_messages"]

    @admin.action(description=_("Hide the selected messages from the players (they stay stored)"))
    def hide_messages(self, request, queryset):
        for message_id in queryset.values_list("pk", flat=True):
            try:
                chat.hide_message(message_id=message_id, by_user=request.user)
            except GameError as refused:
                self.message_user(request, str(refused), messages.WARNING)
        self.message_user(request, gettext("The messages are hidden."), messages.SUCCESS)
