"""Leagues: seasons of Hextension games run by an organiser. Tables keep their first names
(``games_league`` …): the models moved here from the platform app without moving data."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_lazy as _, pgettext_lazy

from games.models import new_invite_token


class League(models.Model):
    """A Hextension league run by an organiser: a season of N games among its entrants."""

    class Entry(models.TextChoices):
        OPEN = "open", _("Open: anyone may join")
        APPROVAL = "approval", _("By approval of the organiser")
        INVITATION = "invitation", _("By invitation link only")

    class Schedule(models.TextChoices):
        SEQUENTIAL = "sequential", _("One game after another")
        PARALLEL = "parallel", _("All games at once")

    class Status(models.TextChoices):
        ENROLLING = "enrolling", _("Taking entries")
        RUNNING = "running", _("Season running")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Season finished")

    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_leagues")
    tiles_per_round = models.PositiveSmallIntegerField(default=2)
    round_hours = models.PositiveIntegerField(default=72, help_text=_("Hours each round may take."))
    season_games = models.PositiveSmallIntegerField(default=5)
    entry = models.CharField(max_length=12, choices=Entry.choices, default=Entry.OPEN)
    # Bot accounts (accounts/bots.py) may enter, or be invited, only where the organiser says so.
    admits_bots = models.BooleanField(_("admits bot accounts"), default=False, db_default=False,
                                      help_text=_("Bot accounts may enter this league or be invited to it."))
    schedule = models.CharField(max_length=12, choices=Schedule.choices, default=Schedule.SEQUENTIAL)
    starts_at = models.DateTimeField(help_text=_("The season starts by itself at this time."))
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ENROLLING, db_index=True)
    invite_token = models.CharField(max_length=32, default=new_invite_token, editable=False, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_league"
        ordering = ["-starts_at"]
        permissions = [("organise_leagues", "Can organise Hextension leagues")]

    def __str__(self) -> str:
        return self.name


class LeagueEntry(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for approval")
        APPROVED = "approved", pgettext_lazy("a league entry's status", "Playing")
        DECLINED = "declined", _("Declined")
        REMOVED = "removed", _("Removed by the organiser")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="league_entries")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_leagueentry"
        ordering = ["league", "created_at"]
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="league_entry_once")]

    def __str__(self) -> str:
        return gettext("%(player)s in %(league)s") % {"player": self.user, "league": self.league}


class Announcement(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="announcements")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_announcement"
        ordering = ["-created_at"]
