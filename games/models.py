"""The event store: games as append-only move events, replayed through their engine."""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_lazy as _

from games.ai_names import ai_player


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


def new_secret_seed() -> int:
    """A secret 63-bit seed; it never leaves the server."""
    return secrets.randbits(63)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        ACTIVE = "active", _("In play")
        PAUSED = "paused", _("Paused by the organiser")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        PRIVATE = "private", _("Private (invitation link)")

    kind = models.CharField(max_length=32, db_index=True)
    title = models.CharField(max_length=120, blank=True)
    config = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField(default=new_secret_seed, editable=False)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN, db_index=True)
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC)
    invite_token = models.CharField(max_length=32, default=new_invite_token, editable=False, unique=True)
    version = models.PositiveIntegerField(default=0, help_text=_("Number of move events so far."))
    # The version at which the current turn or round began (see services._is_current).
    turn_started_version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="created_games"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the current turn or round runs out; swept by a periodic task.
    deadline_at = models.DateTimeField(null=True, blank=True)
    # Seconds each turn (or round) may take; None = no clock.
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    # Seats the game is waiting for, kept with each write so lists need no replay.
    awaiting = models.JSONField(default=list, blank=True)
    # Correspondence games: when the reminder to those who have not moved goes out (80%).
    remind_at = models.DateTimeField(null=True, blank=True)
    # While paused: the time that was left on the clock.
    paused_remaining = models.DurationField(null=True, blank=True)
    league = models.ForeignKey("leagues.League", null=True, blank=True, on_delete=models.PROTECT, related_name="games")
    season_index = models.PositiveSmallIntegerField(null=True, blank=True, help_text=_("Game number in the league season."))
    # After the game: figures its site computes once (e.g. what an AI would have scored).
    analysis = models.JSONField(null=True, blank=True)
    # The running clock's key and an interrupted clock's time (games.services.clocks).
    clock = models.JSONField(default=dict, blank=True)
    # The finished game this one replays with the same seats and settings ("rematch").
    rematch_of = models.OneToOneField("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch")
    # Counts changes that are not moves (seats taken or freed, settings): open pages refresh.
    revision = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["deadline_at"], name="game_deadline_idx", condition=models.Q(status="active")),
            models.Index(fields=["remind_at"], name="game_remind_idx", condition=models.Q(status="active")),
        ]

    def __str__(self) -> str:
        return self.title or f"{self.kind_title} #{self.pk}"

    @property
    def kind_title(self) -> str:
        """The name of the game as its site writes it (capitalised), for a game of any kind."""
        from games.sites import get_site

        try:
            return get_site(self.kind).title
        except (KeyError, AttributeError):
            return self.kind.capitalize()

    @property
    def board_token(self) -> str:
        """Changes whenever what a page shows may change: a move, the status, the clock, the
        hindsight figures, a seat. A page's socket connects with it and catches up if it moved
        on; within a connection the socket decides what to send (games.consumers.push_for)."""
        deadline = int(self.deadline_at.timestamp()) if self.deadline_at else 0
        return f"{self.version}.{self.status}.{deadline}.{int(bool(self.analysis))}.{self.revision}"

    def touch(self) -> None:
        """Record a change that is not a move (a seat, a setting) on a locked game."""
        self.revision += 1
        Game.objects.filter(pk=self.pk).update(revision=models.F("revision") + 1)

    def ai_seat_indexes(self) -> set[int]:
        """Seats played by an AI (an AI seat, or an AI standing in for an absent player); asked
        once per game object."""
        if not hasattr(self, "_ai_seat_indexes"):
            played_by_ai = models.Q(ai_level__gt="") | models.Q(standin_level__gt="")
            self._ai_seat_indexes = set(self.seats.filter(played_by_ai).values_list("index", flat=True))
        return self._ai_seat_indexes


class Seat(models.Model):
    """A place at a game, held by a user or by an AI level."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    ai_level = models.CharField(max_length=16, blank=True)
    # An AI playing for the seat's player while they are away (timed out, or resigned); the
    # player takes the seat back by moving again, unless they resigned.
    standin_level = models.CharField(max_length=16, blank=True)
    resigned_at = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["game", "user"], name="seat_one_per_user", condition=models.Q(user__isnull=False)
            ),
            models.CheckConstraint(
                condition=~(models.Q(user__isnull=False) & ~models.Q(ai_level="")),
                name="seat_user_or_ai_not_both",
            ),
        ]

    @property
    def is_ai(self) -> bool:
        """Played by an AI now: an AI seat, or a stand-in for its player."""
        return bool(self.ai_level or self.standin_level)

    @property
    def playing_level(self) -> str:
        return self.ai_level or self.standin_level

    @property
    def label(self) -> str:
        if self.user_id:
            return self.user.public_name
        if self.ai_level:
            return ai_player(self.ai_level)
        return gettext("Empty seat")

    def __str__(self) -> str:
        return gettext("%(game)s seat %(index)s: %(label)s") % {"game": self.game, "index": self.index, "label": self.label}


class MoveEvent(models.Model):
    """One applied move. Never updated or deleted: a database trigger refuses it."""

    class Kind(models.TextChoices):
        MOVE = "move", _("Move by a player")
        AI = "ai", _("Move by an AI")
        TIMEOUT = "timeout", _("Timeout")
        UNDO = "undo", _("Undo of the last move")
        # A staff decision (abort, or a result): who and why, in the payload; replay skips it.
        STAFF = "staff", _("Staff decision")

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    payload = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="moveevent_unique_seq")]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} ({self.kind})"


class Rating(models.Model):
    """A player's OpenSkill (Plackett-Luce) rating in one game (``kind``): a result in one game
    says nothing of a player's skill in another, so each rated game keeps its own
    (docs/architecture.md, "Ratings and the player's page")."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="rating_once_per_user_and_game")]

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class RatingChange(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user", "created_at"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_change_once_per_game")]


class PendingNotification(models.Model):
    """A message kept for a user's daily digest."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pending_notifications")
    subject = models.CharField(max_length=200)
    body = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user", "created_at"]


class ChatMessage(models.Model):
    """A line of a game's chat: plain text, kept with the game; hiding keeps it for staff."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_messages")
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+")

    class Meta:
        ordering = ["game", "created_at", "pk"]
        indexes = [models.Index(fields=["game", "created_at"], name="chat_game_time_idx")]

    def __str__(self) -> str:
        return f"{self.author} in {self.game}: {self.text[:40]}"


class Invitation(models.Model):
    """A player invited by name, by a game's host to a game not yet started or by a league's
    organiser to a league taking entries. It reserves nothing: accepting takes a seat (or an
    entry) as joining does, while one is free. Written only by games/services/invitations.py."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")
        # The game started, filled up or was cancelled; the league's season started.
        EXPIRED = "expired", _("Expired")

    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations")
    league = models.ForeignKey("leagues.League", null=True, blank=True, on_delete=models.CASCADE,
                               related_name="invitations")
    invited = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    # When it was answered, cancelled or expired.
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["invited", "status"], name="invitation_invited_idx"),
                   models.Index(fields=["invited_by", "status"], name="invitation_sender_idx")]
        constraints = [
            models.CheckConstraint(condition=models.Q(game__isnull=False, league__isnull=True)
                                   | models.Q(game__isnull=True, league__isnull=False),
                                   name="invitation_to_a_game_or_a_league"),
            models.UniqueConstraint(fields=["game", "invited"], condition=models.Q(status="pending"),
                                    name="invitation_pending_once_per_game"),
            models.UniqueConstraint(fields=["league", "invited"], condition=models.Q(status="pending"),
                                    name="invitation_pending_once_per_league"),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s invited to %(target)s") % {"player": self.invited, "target": self.game or self.league}
