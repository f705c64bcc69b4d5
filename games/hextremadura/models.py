"""The daily puzzle: one secret shuffle a day for everyone, one attempt each."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.models import Game, new_secret_seed


class DailyPuzzle(models.Model):
    """The Hextremadura puzzle of a day (table kept from the platform app it moved from)."""

    date = models.DateField(_("date"), unique=True)
    seed = models.BigIntegerField(default=new_secret_seed, editable=False)
    par = models.PositiveSmallIntegerField(_("par"), null=True, blank=True, help_text=_("The solver's score on this shuffle."))
    par_proved = models.BooleanField(_("par proved"), default=False,
                                     help_text=_("Whether the par is proved the best this shuffle allows."))
    # The solver's placements: they reveal the shuffle, so they are shown only to a player who
    # has finished this puzzle (``selectors.solver_game``).
    par_moves = models.JSONField(default=list, blank=True, editable=False)

    class Meta:
        db_table = "games_dailypuzzle"
        ordering = ["-date"]
        verbose_name = _("daily puzzle")
        verbose_name_plural = _("daily puzzles")

    def __str__(self) -> str:
        return gettext("Daily puzzle of %(date)s") % {"date": date_format(self.date, "DATE_FORMAT")}


class CasualPar(models.Model):
    """The solver's par of a casual game's shuffle, computed by a task when the game starts."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="hextremadura_par")
    par = models.PositiveSmallIntegerField(_("par"), help_text=_("The solver's score on this shuffle."))
    par_proved = models.BooleanField(_("par proved"), default=False,
                                     help_text=_("Whether the par is proved the best this shuffle allows."))
    par_moves = models.JSONField(default=list, blank=True, editable=False)  # shown once the game is over

    class Meta:
        verbose_name = _("casual game's par")
        verbose_name_plural = _("casual games' pars")

    def __str__(self) -> str:
        return gettext("Par of game %(game)s: %(par)s") % {"game": self.game_id, "par": self.par}


class DailyAttempt(models.Model):
    """A player's one game of a day's puzzle."""

    puzzle = models.ForeignKey(DailyPuzzle, on_delete=models.PROTECT, related_name="attempts")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="daily_attempts")
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="daily_attempt")

    class Meta:
        ordering = ["puzzle", "game"]
        verbose_name = _("daily attempt")
        verbose_name_plural = _("daily attempts")
        constraints = [models.UniqueConstraint(fields=["puzzle", "user"], name="one_daily_attempt_each_player")]

    def __str__(self) -> str:
        return gettext("%(player)s on %(puzzle)s") % {"player": self.user, "puzzle": self.puzzle}
