"""Hextremadura's reads: the daily puzzle, its leaderboard, solo records, hints, who may watch."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games import state_store
from games.errors import BadMove, GameNotActive, GameNotFound
from games.hextremadura import engine
from games.hextremadura.engine import ai
from games.hextremadura.models import CasualPar, DailyAttempt, DailyPuzzle
from games.models import Game
from games.ranking import competition_ranks


def puzzle_of(day: dt.date) -> DailyPuzzle | None:
    return DailyPuzzle.objects.filter(date=day).first()


def daily_attempt(user, puzzle: DailyPuzzle | None) -> Game | None:
    if puzzle is None or not (user and user.is_authenticated):
        return None
    attempt = DailyAttempt.objects.filter(puzzle=puzzle, user=user).select_related("game").first()
    return attempt.game if attempt else None


def can_watch(game: Game, user) -> bool | None:
    """A daily game shows the day's secret shuffle: only its player, and those who have
    finished that day's puzzle, may open it. Casual games follow the platform's rule."""
    attempt = DailyAttempt.objects.filter(game=game).first()
    if attempt is None:
        return None
    if not (user and user.is_authenticated):
        return False
    return attempt.user_id == user.pk or DailyAttempt.objects.filter(
        puzzle_id=attempt.puzzle_id, user=user, game__status=Game.Status.FINISHED).exists()


def is_daily(game: Game) -> bool:
    return DailyAttempt.objects.filter(game=game).exists()


def hint(game: Game, seat: int) -> dict:
    """The solver's suggestion from the player's own view (never the hidden order)."""
    if is_daily(game):
        raise BadMove(_("There are no hints in the daily puzzle."))
    if game.status != Game.Status.ACTIVE:
        raise GameNotActive(_("This game is over."))
    return ai.hint(engine.view(state_store.load(game), seat))


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int
    name: str
    score: int
    seconds: int
    game_id: int


def leaderboard(puzzle: DailyPuzzle | None, limit: int = 100) -> list[LeaderboardRow]:
    """Finished attempts by score, then by time taken."""
    if puzzle is None:
        return []
    games = Game.objects.filter(daily_attempt__puzzle=puzzle, status=Game.Status.FINISHED).select_related("created_by")
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
    finished = Game.objects.filter(kind=engine.KIND, created_by=user, status=Game.Status.FINISHED).order_by("-finished_at")
    scores = [g.result["score"] for g in finished]
    return SoloStats(
        games=len(scores),
        best_score=max(scores) if scores else None,
        perfect=sum(1 for g in finished if g.result.get("perfect")),
        recent=list(finished.select_related("daily_attempt__puzzle")[:10]),
    )


# -- the par and the solver's game ------------------------------------------------------------
@dataclass(frozen=True)
class ParInfo:
    """A shuffle's par as the pages show it: ``score`` is None while the solver works."""

    score: int | None
    proved: bool
    placements: int

    @property
    def label(self) -> str:
        return _("proved best") if self.proved else _("best found")


def _par_row(game: Game):
    attempt = DailyAttempt.objects.filter(game=game).select_related("puzzle").first()
    if attempt is not None:
        return attempt.puzzle
    return CasualPar.objects.filter(game=game).first()


def par_info(row) -> ParInfo | None:
    """The par of a daily puzzle or of a casual game's ``CasualPar`` row."""
    if row is None:
        return None
    return ParInfo(row.par, bool(row.par_proved) and row.par is not None, len(row.par_moves or []))


def par_of_game(game: Game) -> ParInfo | None:
    """The par of a Hextremadura game's shuffle (daily or casual); None if it has none yet."""
    if game.kind != engine.KIND:
        return None
    return par_info(_par_row(game))


@dataclass(frozen=True)
class SolverStep:
    """The solver's game on a shuffle after its first ``at`` placements."""

    game: Game
    par: ParInfo
    at: int
    last: int
    view: dict
    move: dict | None  # the placement that led here
    moves: list[dict]


def solver_game(game: Game, at: int) -> SolverStep:
    """The solver's game of ``game``'s shuffle, step by step. Its placements show the whole
    shuffle, so only once the game is over (the caller checks who may watch the game)."""
    if game.kind != engine.KIND:
        raise GameNotFound(_("Only Hextremadura games have a par."))
    if game.status != Game.Status.FINISHED:
        raise GameNotActive(_("The solver's game is shown once yours is over."))
    row = _par_row(game)
    if row is None or row.par is None or not row.par_moves:
        raise GameNotFound(_("The solver has not played this shuffle yet."))
    moves = list(row.par_moves)
    at = max(0, min(at, len(moves)))
    state = engine.replay({}, game.seed, moves[:at])
    return SolverStep(game=game, par=par_info(row), at=at, last=len(moves), view=engine.view(state),
                      move=moves[at - 1] if at else None, moves=moves)
