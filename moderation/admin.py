"""The staff's side of moderation, in the admin: the report queue with its context and the
target's history, actions with a reason form, the record, sanctions, blocks and flags.

Every admin here follows the site's rules (games.admin_base): nothing is added, changed or
deleted directly; staff act through ``moderation.services`` (one function per action), each
recorded. Moderators need ``moderation.moderate_users`` for every action; bulk actions are
moderation actions only (Django's "delete selected" is off site-wide).
"""
from __future__ import annotations

from datetime import timedelta

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from accounts.admin import UserAdmin as AccountsUserAdmin
from accounts.models import User
from games.admin import ChatMessageAdmin as GamesChatMessageAdmin
from games.admin import GameAdmin as GamesGameAdmin
from games.admin_base import ReadOnlyInline, SiteAdminMixin
from games.errors import GameError
from games.models import ChatMessage, Game, MoveEvent, Seat
from moderation import services
from moderation.forms import ActionForm, AdjudicationForm, ReasonForm
from moderation.models import Block, Flag, ModerationRecord, Report, Sanction

# Bulk actions are moderation actions only: no bulk delete anywhere in the admin.
admin.site.disable_action("delete_selected")


class ModerationAdminMixin(SiteAdminMixin):
    """Read-only rows; actions need the moderation permission."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_moderate_permission(self, request) -> bool:
        return services.can_moderate(request.user)

    def reason_action(self, request, queryset, title: str, apply) -> TemplateResponse | None:
        """A bulk action's intermediate page: a reason, then ``apply(reason, obj)`` per row."""
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            done = 0
            for obj in queryset:
                try:
                    apply(form.cleaned_data["reason"], obj)
                    done += 1
                except GameError as refused:
                    self.message_user(request, f"{obj}: {refused.message}", messages.WARNING)
            self.message_user(request, ngettext("%(action)s: %(count)s done.", "%(action)s: %(count)s done.", done)
                              % {"action": title, "count": done}, messages.SUCCESS)
            return None
        context = {**self.admin_site.each_context(request), "title": title, "form": form, "objects": queryset,
                   "action": request.POST.get("action"), "opts": self.model._meta,
                   "selected": request.POST.getlist(admin.helpers.ACTION_CHECKBOX_NAME)}
        return TemplateResponse(request, "admin/moderation/reason_form.html", context)


# A report's outcome inside a sentence ("Closed (no action needed)").
OUTCOME_WORDS = {
    Report.Outcome.DISMISSED: gettext_lazy("no action needed"),
    Report.Outcome.ACTIONED: gettext_lazy("action taken"),
}


def _link(obj, label=None) -> str:
    url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, label or obj)


def target_history(user: User, exclude_report: int | None = None) -> dict:
    """What staff weigh before acting: earlier reports, sanctions, records, leaving counts,
    recent games."""
    seats = Seat.objects.filter(user=user)
    timeouts = MoveEvent.objects.filter(kind=MoveEvent.Kind.TIMEOUT, game__seats__user=user,
                                        seat=F("game__seats__index")).count()
    return {
        "person": user,
        "reports": Report.objects.filter(target=user).exclude(pk=exclude_report).select_related("reporter")[:20],
        "sanctions": Sanction.objects.filter(user=user)[:20],
        "records": ModerationRecord.objects.filter(target_user=user).select_related("actor")[:20],
        "timeouts": timeouts,
        "resigned": seats.filter(resigned_at__isnull=False).count(),
        "games": seats.count(),
        "recent": [seat.game for seat in seats.select_related("game").order_by("-game__created_at")[:10]],
        "flags": Flag.objects.filter(user=user, cleared_at__isnull=True),
    }


def apply_action(actor, data: dict, user: User, report: Report | None) -> str:
    """Run the chosen action through its service; returns what was done, for the message."""
    action, reason, report_id = data["action"], data["reason"], report.pk if report else None
    if action == "dismiss":
        services.dismiss(actor=actor, report_id=report_id, reason=reason)
    elif action == "warn":
        services.warn(actor=actor, user=user, reason=reason, report_id=report_id)
    elif action == "mute":
        services.mute(actor=actor, user=user, days=data["days"], reason=reason, report_id=report_id)
    elif action == "play_ban":
        services.play_ban(actor=actor, user=user, days=data.get("days"), reason=reason, report_id=report_id)
    elif action == "suspend":
        services.suspend(actor=actor, user=user, days=data["days"], reason=reason, report_id=report_id)
    elif action == "close":
        services.close_account(actor=actor, user=user, reason=reason, report_id=report_id)
    elif action == "rename":
        services.rename(actor=actor, user=user, new_name=data.get("new_name", ""), reason=reason, report_id=report_id)
    elif action == "hide_message":
        if report is None or report.chat_message_id is None:
            raise GameError(_("This report names no chat message."))
        services.hide_message(actor=actor, message_id=report.chat_message_id, reason=reason, report_id=report_id)
    return str(dict(ActionForm.ACTIONS)[action])


def action_view(model_admin, request: HttpRequest, user: User, report: Report | None, back: str):
    if not services.can_moderate(request.user):
        raise PermissionDenied
    actions = [key for key, _label in ActionForm.ACTIONS if report is not None or key not in ("dismiss", "hide_message")]
    if report is not None and report.chat_message_id is None:
        actions.remove("hide_message")
    form = ActionForm(request.POST or None, actions=actions)
    # A staff account is for a superuser: the page says so and acts on nothing (the services
    # refuse it too).
    refusal = services.staff_refusal(request.user, user)
    if refusal:
        form.refuse(refusal)
    elif request.method == "POST" and form.is_valid():
        try:
            done = apply_action(request.user, form.cleaned_data, user, report)
        except GameError as refused:
            form.add_error(None, refused.message)
        else:
            model_admin.message_user(request, _("%(action)s: done and recorded.") % {"action": done}, messages.SUCCESS)
            return HttpResponseRedirect(back)
    context = {**model_admin.admin_site.each_context(request), "title": _("Act on %(name)s") % {"name": user.public_name},
               "form": form, "report": report, "person": user, "opts": model_admin.model._meta,
               "default_ban_days": services.default_ban_days(user), "refused": bool(refusal),
               **{"history": target_history(user)}}
    status = 403 if refusal else 400 if form.errors else 200
    return TemplateResponse(request, "admin/moderation/act.html", context, status=status)


class AgeFilter(admin.SimpleListFilter):
    title = gettext_lazy("age")
    parameter_name = "age"

    def lookups(self, request, model_admin):
        return [("day", _("Last 24 hours")), ("week", _("Last 7 days")), ("older", _("Older than 7 days"))]

    def queryset(self, request, queryset):
        now = timezone.now()
        if self.value() == "day":
            return queryset.filter(created_at__gte=now - timedelta(days=1))
        if self.value() == "week":
            return queryset.filter(created_at__gte=now - timedelta(days=7))
        if self.value() == "older":
            return queryset.filter(created_at__lt=now - timedelta(days=7))
        return queryset


@admin.register(Report)
class ReportAdmin(ModerationAdminMixin, admin.ModelAdmin):
    list_display = ("created_at", "status", "reason", "target", "reporter", "context", "outcome")
    list_filter = ("status", "reason", AgeFilter, ("target", admin.RelatedOnlyFieldListFilter))
    search_fields = ("target__username", "target__display_name", "reporter__username")
    list_select_related = ("target", "reporter", "game", "chat_message")
    fields = ("act", "reporter", "target", "reason", "text", "context", "status", "outcome", "created_at",
              "closed_at", "closed_by", "history")
    readonly_fields = ("act", "context", "history")
    actions = ["dismiss_reports"]

    def get_urls(self):
        act = self.admin_site.admin_view(self.act_view)
        return [path("<int:report_id>/act/", act, name="moderation_report_act"), *super().get_urls()]

    def act_view(self, request, report_id: int):
        report = get_object_or_404(Report.objects.select_related("target"), pk=report_id)
        back = reverse("admin:moderation_report_changelist")
        if report.status != Report.Status.OPEN:
            self.message_user(request, _("This report is closed."), messages.WARNING)
            return HttpResponseRedirect(reverse("admin:moderation_report_change", args=[report.pk]))
        return action_view(self, request, report.target, report, back)

    @admin.display(description=gettext_lazy("action"))
    def act(self, report: Report) -> str:
        if report.status != Report.Status.OPEN:
            outcome = OUTCOME_WORDS.get(report.outcome) or report.get_outcome_display().lower()
            return _("Closed (%(outcome)s)") % {"outcome": outcome}
        return format_html('<a class="button" href="{}">{}</a>',
                           reverse("admin:moderation_report_act", args=[report.pk]), _("Act on this report"))

    @admin.display(description=gettext_lazy("context"))
    def context(self, report: Report) -> str:
        parts = []
        if report.chat_message_id:
            message = report.chat_message
            # Translators: {text} is the reported chat message; {state} is "hidden" or "visible".
            parts.append(format_html(_("Chat message: “{text}” ({state})"), text=message.text[:200],
                                     state=_("hidden") if message.hidden_at else _("visible")))
        if report.game_id:
            # Translators: {game} is a link to the game in the admin; keep the HTML link to its page.
            parts.append(format_html(_('Game: {game} (<a href="{url}">page</a>)'), game=_link(report.game),
                                     url=reverse("game_detail", args=[report.game_id])))
        return format_html_join(mark_safe("<br>"), "{}", ((part,) for part in parts)) if parts else "—"

    @admin.display(description=gettext_lazy("the target's history"))
    def history(self, report: Report) -> str:
        from django.template.loader import render_to_string

        return render_to_string("admin/moderation/_history.html", {"history": target_history(report.target, report.pk)})

    @admin.action(description=gettext_lazy("Dismiss the selected reports (asks for a reason)"), permissions=["moderate"])
    def dismiss_reports(self, request, queryset):
        return self.reason_action(request, queryset.filter(status=Report.Status.OPEN), _("Dismiss reports"),
                                  lambda reason, report: services.dismiss(actor=request.user, report_id=report.pk,
                                                                          reason=reason))


@admin.register(Sanction)
class SanctionAdmin(ModerationAdminMixin, admin.ModelAdmin):
    list_display = ("user", "kind", "starts_at", "ends_at", "lifted_at", "created_by", "reason")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    fields = ("user", "kind", "reason", "starts_at", "ends_at", "lifted_at", "created_by", "report")
    readonly_fields = fields
    actions = ["lift_sanctions"]

    @admin.action(description=gettext_lazy("Lift the selected sanctions (asks for a reason)"), permissions=["moderate"])
    def lift_sanctions(self, request, queryset):
        return self.reason_action(request, queryset, _("Lift sanctions"),
                                  lambda reason, s: services.lift(actor=request.user, sanction_id=s.pk, reason=reason))


@admin.register(ModerationRecord)
class ModerationRecordAdmin(ModerationAdminMixin, admin.ModelAdmin):
    list_display = ("created_at", "actor", "action", "target_user", "reason")
    list_filter = ("action",)
    date_hierarchy = "created_at"
    search_fields = ("target_user__username", "actor__username")
    fields = ("created_at", "actor", "action", "reason", "target_user", "report", "game", "chat_message",
              "sanction", "details")
    readonly_fields = fields


@admin.register(Block)
class BlockAdmin(ModerationAdminMixin, admin.ModelAdmin):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    fields = ("blocker", "blocked", "created_at")
    readonly_fields = fields


class OpenFlagFilter(admin.SimpleListFilter):
    title = gettext_lazy("state")
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("open", pgettext_lazy("flag state", "Open")), ("cleared", pgettext_lazy("flag state", "Cleared"))]

    def queryset(self, request, queryset):
        if self.value() == "open":
            return queryset.filter(cleared_at__isnull=True)
        if self.value() == "cleared":
            return queryset.filter(cleared_at__isnull=False)
        return queryset


@admin.register(Flag)
class FlagAdmin(ModerationAdminMixin, admin.ModelAdmin):
    """The "flagged" list: what the automatic checks found, with the evidence."""

    list_display = ("created_at", "kind", "user", "other_user", "summary", "cleared_at")
    list_filter = ("kind", OpenFlagFilter)
    search_fields = ("user__username",)
    fields = ("kind", "user", "other_user", "summary", "evidence", "created_at", "cleared_at")
    readonly_fields = fields
    actions = ["clear_flags"]

    @admin.display(description=gettext_lazy("evidence in short"))
    def summary(self, flag: Flag) -> str:
        return flag.summary()

    @admin.action(description=gettext_lazy("Clear the selected flags (asks for a reason)"), permissions=["moderate"])
    def clear_flags(self, request, queryset):
        return self.reason_action(request, queryset, _("Clear flags"),
                                  lambda reason, f: services.clear_flag(actor=request.user, flag_id=f.pk, reason=reason))


# --- on the user's page: sanctions and the record inline, and the actions ----------------------


class SanctionInline(ReadOnlyInline):
    model = Sanction
    fk_name = "user"
    fields = ("kind", "reason", "starts_at", "ends_at", "lifted_at", "created_by")


class RecordInline(ReadOnlyInline):
    model = ModerationRecord
    fk_name = "target_user"
    fields = ("created_at", "actor", "action", "reason")
    verbose_name_plural = gettext_lazy("moderation record")


admin.site.unregister(User)


@admin.register(User)
class UserAdmin(AccountsUserAdmin):
    inlines = [*AccountsUserAdmin.inlines, SanctionInline, RecordInline]
    readonly_fields = (*AccountsUserAdmin.readonly_fields, "moderation")

    def get_fieldsets(self, request, obj=None):
        fieldsets = list(super().get_fieldsets(request, obj))
        if obj is not None:
            fieldsets.insert(0, (_("Moderation"), {"fields": ("moderation",)}))
        return fieldsets

    def get_urls(self):
        view = self.admin_site.admin_view(self.moderate_view)
        return [path("<int:user_id>/moderate/", view, name="accounts_user_moderate"), *super().get_urls()]

    def moderate_view(self, request, user_id: int):
        person = get_object_or_404(User, pk=user_id)
        return action_view(self, request, person, None, reverse("admin:accounts_user_change", args=[person.pk]))

    @admin.display(description=gettext_lazy("moderation"))
    def moderation(self, user: User) -> str:
        return format_html('<a class="button" href="{}">{}</a>', reverse("admin:accounts_user_moderate", args=[user.pk]),
                           _("Warn, mute, ban, suspend, close or rename"))


# --- chat and games: hiding and adjudication through the services ------------------------------


admin.site.unregister(ChatMessage)


@admin.register(ChatMessage)
class ChatMessageAdmin(ModerationAdminMixin, GamesChatMessageAdmin):
    actions = ["hide_messages"]

    @admin.action(description=gettext_lazy("Hide the selected messages from the players (asks for a reason; they "
                                           "stay stored)"),
                  permissions=["moderate"])
    def hide_messages(self, request, queryset):
        return self.reason_action(request, queryset, _("Hide chat messages"),
                                  lambda reason, m: services.hide_message(actor=request.user, message_id=m.pk,
                                                                          reason=reason))


admin.site.unregister(Game)


@admin.register(Game)
class GameAdmin(GamesGameAdmin):
    readonly_fields = (*GamesGameAdmin.readonly_fields, "adjudicate")
    fields = (*GamesGameAdmin.fields, "adjudicate")

    def has_moderate_permission(self, request) -> bool:
        return services.can_moderate(request.user)

    def get_urls(self):
        view = self.admin_site.admin_view(self.adjudicate_view)
        return [path("<int:game_id>/adjudicate/", view, name="games_game_adjudicate"), *super().get_urls()]

    @admin.display(description=gettext_lazy("staff decision"))
    def adjudicate(self, game: Game) -> str:
        if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
            return "—"
        return format_html('<a class="button" href="{}">{}</a>', reverse("admin:games_game_adjudicate", args=[game.pk]),
                           _("Abort or decide the result"))

    def adjudicate_view(self, request, game_id: int):
        if not services.can_moderate(request.user):
            raise PermissionDenied
        game = get_object_or_404(Game, pk=game_id)
        form = AdjudicationForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                if data["decision"] == "abort":
                    services.abort_game(actor=request.user, game_id=game.pk, reason=data["reason"])
                else:
                    services.end_game(actor=request.user, game_id=game.pk, scores=data["scores"],
                                      reason=data["reason"])
            except GameError as refused:
                form.add_error(None, refused.message)
            else:
                self.message_user(request, _("The decision is recorded and the players are told."), messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:games_game_change", args=[game.pk]))
        context = {**self.admin_site.each_context(request), "title": _("Adjudicate %(game)s") % {"game": game}, "form": form,
                   "game": game, "seats": list(game.seats.select_related("user")), "opts": Game._meta}
        return TemplateResponse(request, "admin/moderation/adjudicate.html", context,
                                status=400 if form.errors else 200)
