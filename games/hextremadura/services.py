"""Hextremadura's writes: casual games, the daily puzzle and its par."""
from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import jobs, services
from games.errors import GameNotActive
from games.hextremadura.engine import KIND, ai
from games.hextremadura.models import DailyAttempt, DailyPuzzle
from games.models import Game


def start_casual_game(*, user) -> Game:
    """A casual game: unlisted (only its player sees it), with undo and hints."""
    with transaction.atomic():
        game = services.create_game(kind=KIND, config={"players": 1, "undo": True}, created_by=user,
                                    visibility=Game.Visibility.PRIVATE)
        services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def today() -> dt.date:
    return timezone.localdate(timezone=dt.timezone.utc)


def ensure_puzzle(day: dt.date | None = None) -> DailyPuzzle:
    """The puzzle of ``day`` (today), made on first need; its par is computed by a task."""
    puzzle, created = DailyPuzzle.objects.get_or_create(date=day or today())
    if created:
        transaction.on_commit(lambda: jobs.enqueue("games.tasks.compute_daily_par", puzzle.pk))
    return puzzle


def start_daily_game(*, user, day: dt.date | None = None) -> Game:
    """Start today's puzzle: the same shuffle for everyone, one attempt each, no undo."""
    puzzle = ensure_puzzle(day)
    try:
        with transaction.atomic():
            if DailyAttempt.objects.filter(puzzle=puzzle, user=user).exists():
                raise GameNotActive("You have already played today's puzzle: one attempt each.")
            game = services.create_game(kind=KIND, config={"players": 1}, created_by=user, seed=puzzle.seed,
                                        title=f"Daily puzzle, {puzzle.date:%d %B %Y}", visibility=Game.Visibility.PRIVATE)
            DailyAttempt.objects.create(puzzle=puzzle, user=user, game=game)
            services.start_game(game_id=game.pk)
    except IntegrityError:  # a second click raced the first
        raise GameNotActive("You have already played today's puzzle: one attempt each.") from None
    return Game.objects.get(pk=game.pk)


def compute_par(puzzle_id: int) -> int | None:
    """The solver's score on the puzzle's shuffle, stored once."""
    puzzle = DailyPuzzle.objects.filter(pk=puzzle_id, par__isnull=True).first()
    if puzzle is None:
        return None
    score, _ = ai.solve({"players": 1}, puzzle.seed)
    DailyPuzzle.objects.filter(pk=puzzle.pk, par__isnull=True).update(par=score)
    return score
