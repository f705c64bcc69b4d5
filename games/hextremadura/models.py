"""The daily puzzle: one secret shuffle a day for everyone, one attempt each."""
from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game, new_secret_seed


class DailyPuzzle(models.Model):
    """The Hextremadura puzzle of a day (table kept from the platform app it moved from)."""

    date = models.DateField(unique=True)
    seed = models.BigIntegerField(default=new_secret_seed, editable=False)
    par = models.PositiveSmallIntegerField(null=True, blank=True, help_text="The solver's score on this shuffle.")

    class Meta:
        db_table = "games_dailypuzzle"
        ordering = ["-date"]

    def __str__(self) -> str:
        return f"Daily puzzle of {self.date:%d %B %Y}"


class DailyAttempt(models.Model):
    """A player's one game of a day's puzzle."""

    puzzle = models.ForeignKey(DailyPuzzle, on_delete=models.PROTECT, related_name="attempts")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="daily_attempts")
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="daily_attempt")

    class Meta:
        ordering = ["puzzle", "game"]
        constraints = [models.UniqueConstraint(fields=["puzzle", "user"], name="one_daily_attempt_each_player")]

    def __str__(self) -> str:
        return f"{self.user} on {self.puzzle}"
