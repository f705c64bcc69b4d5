"""Hextremadura solo play: casual games, the daily puzzle and its leaderboard, hints."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import services, state_store
from games.engines import get_engine
from games.errors import BadMove, GameNotActive
from games.models import DailyPuzzle, Game
from games.ranking import competition_ranks

KIND = "hextremadura"


def start_casual_game(*, user) -> Game:
    game = services.create_game(kind=KIND, config={"players": 1, "undo": True}, created_by=user)
    services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def todays_puzzle(today: dt.date | None = None) -> DailyPuzzle:
    puzzle, created = DailyPuzzle.objects.get_or_create(date=today or timezone.localdate(timezone=dt.timezone.utc))
    if created:
        from games import tasks

        transaction.on_commit(lambda: tasks.compute_daily_par.delay(puzzle.pk))
    return puzzle


def daily_attempt(user, puzzle: DailyPuzzle) -> Game | None:
    return Game.objects.filter(daily=puzzle, created_by=user).first()


def start_daily_game(*, user, today: dt.date | None = None) -> Game:
    """Start today's puzzle: the same shuffle for everyone, one attempt each, no undo."""
    puzzle = todays_puzzle(today)
    if daily_attempt(user, puzzle) is not None:
        raise GameNotActive("You have already played today's puzzle: one attempt each.")
    try:
        with transaction.atomic():
            game = services.create_game(kind=KIND, config={"players": 1}, created_by=user, daily=puzzle,
                                        title=f"Daily puzzle, {puzzle.date:%d %B %Y}", visibility=Game.Visibility.PRIVATE)
    except IntegrityError:  # a second click raced the first
        raise GameNotActive("You have already played today's puzzle: one attempt each.") from None
    services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def compute_par(puzzle_id: int) -> int | None:
    from games.engines.hextremadura import ai

    puzzle = DailyPuzzle.objects.filter(pk=puzzle_id, par__isnull=True).first()
    if puzzle is None:
        return None
    score, _ = ai.solve({"players": 1}, puzzle.seed)
    DailyPuzzle.objects.filter(pk=puzzle.pk).update(par=score)
    return score


def hint(game: Game, seat: int) -> dict:
    """The solver's suggestion from the player's own view (never the hidden order)."""
    from games.engines.hextremadura import ai

    if game.daily_id:
        raise BadMove("There are no hints in the daily puzzle.")
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive("This game is over.")
    return ai.hint(get_engine(KIND).view(state_store.load(game), seat))


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    name: str
    score: int
    seconds: int
    game_id: int


def leaderboard(puzzle: DailyPuzzle, limit: int = 100) -> list[LeaderboardRow]:
    """Finished attempts by score, then by time taken."""
    games = Game.objects.filter(daily=puzzle, status=Game.Status.FINISHED).select_related("created_by")
    entries = sorted(
        ((g.result["score"], (g.finished_at - g.started_at).total_seconds(), g) for g in games),
        key=lambda entry: (-entry[0], entry[1]),
    )[:limit]
    ranks = competition_ranks([(score, int(seconds)) for score, seconds, _ in entries])
    return [
        LeaderboardRow(rank, game.created_by.public_name, score, int(seconds), game.pk)
        for rank, (score, seconds, game) in zip(ranks, entries)
    ]


@dataclass(frozen=True)
class SoloStats:
    games: int
    best_score: int | None
    perfect: int
    recent: list[Game]


def solo_stats(user) -> SoloStats:
    finished = Game.objects.filter(kind=KIND, created_by=user, status=Game.Status.FINISHED).order_by("-finished_at")
    scores = [g.result["score"] for g in finished]
    return SoloStats(
        games=len(scores),
        best_score=max(scores) if scores else None,
        perfect=sum(1 for g in finished if g.result.get("perfect")),
        recent=list(finished.select_related("daily")[:10]),
    )
