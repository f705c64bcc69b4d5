"""Hextremadura's writes: casual games, the daily puzzle and its par."""
from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games import jobs, services
from games.errors import GameNotActive
from games.hextremadura.engine import KIND, solver
from games.hextremadura.models import CasualPar, DailyAttempt, DailyPuzzle
from games.models import Game


def start_casual_game(*, user) -> Game:
    """A casual game: unlisted (only its player sees it), with undo and hints."""
    with transaction.atomic():
        game = services.create_game(kind=KIND, config={"players": 1, "undo": True}, created_by=user,
                                    visibility=Game.Visibility.PRIVATE)
        services.start_game(game_id=game.pk)
        transaction.on_commit(lambda: jobs.enqueue("games.tasks.compute_casual_par", game.pk))
    return Game.objects.get(pk=game.pk)


def today() -> dt.date:
    return timezone.localdate(timezone=dt.timezone.utc)


def ensure_puzzle(day: dt.date | None = None) -> DailyPuzzle:
    """The puzzle of ``day`` (today), made on first need; its par is computed by a task, queued
    again (at most every 10 minutes) while a puzzle has none, as after a migration cleared it."""
    puzzle, created = DailyPuzzle.objects.get_or_create(date=day or today())
    if puzzle.par is None and cache.add(f"hextremadura:par-queued:{puzzle.pk}", True, PAR_REQUEUE_SECONDS):
        transaction.on_commit(lambda: jobs.enqueue("games.tasks.compute_daily_par", puzzle.pk))
    return puzzle


PAR_REQUEUE_SECONDS = 600


def start_daily_game(*, user, day: dt.date | None = None) -> Game:
    """Start today's puzzle: the same shuffle for everyone, one attempt each, no undo."""
    puzzle = ensure_puzzle(day)
    try:
        with transaction.atomic():
            if DailyAttempt.objects.filter(puzzle=puzzle, user=user).exists():
                raise GameNotActive(_("You have already played today's puzzle: one attempt each."))
            game = services.create_game(kind=KIND, config={"players": 1}, created_by=user, seed=puzzle.seed,
                                        title=daily_title(puzzle.date), visibility=Game.Visibility.PRIVATE)
            DailyAttempt.objects.create(puzzle=puzzle, user=user, game=game)
            services.start_game(game_id=game.pk)
    except IntegrityError:  # a second click raced the first
        raise GameNotActive(_("You have already played today's puzzle: one attempt each.")) from None
    return Game.objects.get(pk=game.pk)


def daily_title(day: dt.date) -> str:
    """The title of a daily game: stored with the game, in the language of the player who starts it
    (only that player, and others who have finished the same puzzle, ever see it)."""
    return _("Daily puzzle, %(date)s") % {"date": date_format(day, "DATE_FORMAT")}


CASUAL_PAR_BUDGET_S = 10.0


def par_budget_s(casual: bool = False) -> float:
    """The solver's CPU budget per shuffle (seconds); most shuffles take one or two. The daily
    puzzle's gets the full minute (one a day); a casual game's less, since every new game
    queues one on the same workers as the AI moves."""
    if casual:
        return float(getattr(settings, "HEXTREMADURA_CASUAL_PAR_BUDGET_S", CASUAL_PAR_BUDGET_S))
    return float(getattr(settings, "HEXTREMADURA_PAR_BUDGET_S", solver.DEFAULT_BUDGET_S))


def compute_par(puzzle_id: int, budget_s: float | None = None) -> int | None:
    """The new solver's par of the puzzle's shuffle, whether it is proved, and its game; stored
    once (a second run finds the par set and does nothing)."""
    puzzle = DailyPuzzle.objects.filter(pk=puzzle_id, par__isnull=True).first()
    if puzzle is None:
        return None
    par = solver.solve(puzzle.seed, par_budget_s() if budget_s is None else budget_s)
    DailyPuzzle.objects.filter(pk=puzzle.pk, par__isnull=True).update(
        par=par.score, par_proved=par.proved, par_moves=par.moves)
    return par.score


def compute_casual_par(game_id: int, budget_s: float | None = None) -> int | None:
    """The par of a casual game's shuffle, stored once beside the game."""
    game = Game.objects.filter(pk=game_id, kind=KIND).first()
    if game is None or CasualPar.objects.filter(game=game).exists() \
            or DailyAttempt.objects.filter(game=game).exists():
        return None
    par = solver.solve(game.seed, par_budget_s(casual=True) if budget_s is None else budget_s)
    CasualPar.objects.get_or_create(game=game, defaults={
        "par": par.score, "par_proved": par.proved, "par_moves": par.moves})
    return par.score
