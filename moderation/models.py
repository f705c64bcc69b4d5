"""Community moderation: players' reports and blocks, staff sanctions, automatic flags, and the
append-only record of every moderation action (the database refuses to change or delete it)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

USER = settings.AUTH_USER_MODEL


class Report(models.Model):
    """A player's report of another player; one open report per reporter, target and reason."""

    class Reason(models.TextChoices):
        CHAT_ABUSE = "chat_abuse", _("Abuse in chat")
        CHEATING = "cheating", _("Cheating or multiple accounts")
        STALLING = "stalling", _("Stalling or leaving games")
        OFFENSIVE_NAME = "offensive_name", _("Offensive name")
        OTHER = "other", pgettext_lazy("report reason", "Other")

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("report status", "Open")
        CLOSED = "closed", pgettext_lazy("report status", "Closed")

    class Outcome(models.TextChoices):
        NONE = "", _("Not decided yet")
        DISMISSED = "dismissed", _("No action needed")
        ACTIONED = "actioned", _("Action taken")

    reporter = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="reports_made")
    target = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="reports_received")
    reason = models.CharField(max_length=16, choices=Reason.choices)
    text = models.TextField(_("what happened"), max_length=1000, blank=True)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    chat_message = models.ForeignKey("games.ChatMessage", null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True)
    outcome = models.CharField(max_length=12, choices=Outcome.choices, default=Outcome.NONE, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["-status", "created_at"]  # open ("open" > "closed") first, oldest first
        permissions = [("moderate_users", "Can take moderation actions (warn, mute, ban, adjudicate)")]
        constraints = [
            models.UniqueConstraint(fields=["reporter", "target", "reason"], condition=models.Q(status="open"),
                                    name="report_one_open_per_reason"),
            models.CheckConstraint(condition=~models.Q(reporter=models.F("target")), name="report_not_self"),
        ]

    def __str__(self) -> str:
        return gettext("%(reason)s: %(target)s (by %(reporter)s)") % {
            "reason": self.get_reason_display(), "target": self.target, "reporter": self.reporter}


class Sanction(models.Model):
    """A restriction on a user for a time (``ends_at`` None: until lifted)."""

    class Kind(models.TextChoices):
        MUTE = "mute", _("Muted in chat")
        PLAY_BAN = "play_ban", _("Banned from play")
        SUSPENSION = "suspension", _("Account suspended")
        CLOSURE = "closure", _("Account closed")

    user = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="sanctions")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    # The reason the user is told ("why"); the staff's own notes are in the record.
    reason = models.CharField(max_length=500)
    starts_at = models.DateTimeField(default=timezone.now)
    ends_at = models.DateTimeField(null=True, blank=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.PROTECT, related_name="sanctions")

    class Meta:
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["user", "kind", "ends_at"], name="sanction_user_kind_idx")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.user}"

    def is_active(self, now=None) -> bool:
        now = now or timezone.now()
        return self.lifted_at is None and self.starts_at <= now and (self.ends_at is None or self.ends_at > now)


class ModerationRecord(models.Model):
    """One moderation action: who, when, what, why, on whom. Append-only (a database trigger)."""

    class Action(models.TextChoices):
        DISMISS = "dismiss", _("Report dismissed")
        WARN = "warn", _("Warning")
        MUTE = "mute", _("Muted in chat")
        PLAY_BAN = "play_ban", _("Banned from play")
        SUSPEND = "suspend", _("Account suspended")
        CLOSE = "close", _("Account closed")
        RENAME = "rename", _("Display name changed")
        HIDE_MESSAGE = "hide_message", _("Chat message hidden")
        LIFT = "lift", _("Sanction lifted")
        ABORT_GAME = "abort_game", _("Game aborted")
        END_GAME = "end_game", _("Game ended with a staff result")
        FLAG_CLEARED = "flag_cleared", _("Automatic flag cleared")

    actor = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="moderation_actions")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    action = models.CharField(max_length=16, choices=Action.choices)
    reason = models.TextField()
    target_user = models.ForeignKey(USER, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="moderation_records")
    report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.PROTECT, related_name="records")
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    chat_message = models.ForeignKey("games.ChatMessage", null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="+")
    sanction = models.ForeignKey(Sanction, null=True, blank=True, on_delete=models.PROTECT, related_name="records")
    # What changed, in words a later reader understands (old and new name, days, a result).
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("moderation record")
        verbose_name_plural = _("moderation record")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return gettext("%(action)s by %(actor)s (%(when)s)") % {
            "action": self.get_action_display(), "actor": self.actor, "when": f"{self.created_at:%Y-%m-%d %H:%M}"}


class Block(models.Model):
    """A player blocks another: no chat from them, no invitations from them."""

    blocker = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["blocker", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"),
        ]

    def __str__(self) -> str:
        return gettext("%(blocker)s blocks %(blocked)s") % {"blocker": self.blocker, "blocked": self.blocked}


class Flag(models.Model):
    """An automatic flag for staff, with its evidence; cleared by a moderator (recorded)."""

    class Kind(models.TextChoices):
        LEAVING_STREAK = "leaving_streak", _("Times out or resigns in many games in a row")
        PLACEMENT_MATCH = "placement_match", _("Placements match another account's")

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="moderation_flags")
    other_user = models.ForeignKey(USER, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    evidence = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    cleared_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("flag")
        verbose_name_plural = _("flagged players")
        ordering = ["cleared_at", "-created_at"]
        constraints = [
            # One open flag per user and kind (and other account): two partial indexes, since
            # NULLS NOT DISTINCT needs PostgreSQL 15.
            models.UniqueConstraint(fields=["user", "kind", "other_user"], name="flag_one_open_pair",
                                    condition=models.Q(cleared_at__isnull=True, other_user__isnull=False)),
            models.UniqueConstraint(fields=["user", "kind"], name="flag_one_open",
                                    condition=models.Q(cleared_at__isnull=True, other_user__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.user}"

    def summary(self) -> str:
        """The evidence in short, in the reader's language: from the evidence's figures, else the
        English "summary" stored with it (moderation/flags.py)."""
        evidence = self.evidence if isinstance(self.evidence, dict) else {}
        games = evidence.get("games")
        if self.kind == self.Kind.LEAVING_STREAK and isinstance(games, list):
            return ngettext("timed out or resigned in their last %(count)s game in a row",
                            "timed out or resigned in their last %(count)s games in a row", len(games)) % {
                "count": len(games)}
        if (self.kind == self.Kind.PLACEMENT_MATCH and isinstance(games, list)
                and isinstance(evidence.get("matched"), int) and isinstance(evidence.get("compared"), int)):
            return ngettext("%(matched)s of %(compared)s placements identical over %(count)s game",
                            "%(matched)s of %(compared)s placements identical over %(count)s games", len(games)) % {
                "matched": evidence["matched"], "compared": evidence["compared"], "count": len(games)}
        return str(evidence.get("summary", ""))
