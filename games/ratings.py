"""Site-wide ratings: OpenSkill's Plackett-Luce model over each finished game's order."""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from openskill.models import PlackettLuce

from games.models import Game, Rating, RatingChange, Seat

MODEL = PlackettLuce()
RATED_KINDS = {"hextension"}


@transaction.atomic
def rate_game(game: Game) -> bool:
    """Update the ratings of a finished game's human players; once per game."""
    if game.kind not in RATED_KINDS or not game.result or RatingChange.objects.filter(game=game).exists():
        return False
    seats = list(Seat.objects.filter(game=game, user__isnull=False).order_by("index"))
    if len(seats) < 2:
        return False
    ranks = game.result["ranks"]
    prior = MODEL.rating()
    user_ids = sorted(seat.user_id for seat in seats)
    Rating.objects.bulk_create(  # every row exists before it is locked, so no update is lost
        [Rating(user_id=user_id, mu=prior.mu, sigma=prior.sigma) for user_id in user_ids], ignore_conflicts=True
    )
    ratings = {r.user_id: r for r in Rating.objects.select_for_update().filter(user_id__in=user_ids).order_by("user_id")}
    teams = [[MODEL.rating(mu=ratings[s.user_id].mu, sigma=ratings[s.user_id].sigma)] for s in seats]
    rated = MODEL.rate(teams, ranks=[ranks[seat.index] for seat in seats])
    for seat, (new,) in zip(seats, rated):
        rating = ratings[seat.user_id]
        rating.mu, rating.sigma, rating.games = new.mu, new.sigma, rating.games + 1
        rating.save(update_fields=["mu", "sigma", "games"])
        RatingChange.objects.create(user_id=seat.user_id, game=game, mu=new.mu, sigma=new.sigma, ordinal=new.ordinal())
    return True


@dataclass(frozen=True)
class PlayerStats:
    games: int
    average_score: float | None
    best_score: int | None
    average_rank: float | None
    rating: Rating | None
    history: list[RatingChange]


def player_stats(user, kind: str = "hextension") -> PlayerStats:
    """Games, average and best score, average rank (from finished games), and the rating history."""
    scores, ranks = [], []
    seats = Seat.objects.filter(user=user, game__kind=kind, game__status=Game.Status.FINISHED).select_related("game")
    for seat in seats:
        result = seat.game.result or {}
        if seat.index < len(result.get("scores", [])):
            scores.append(result["scores"][seat.index])
            ranks.append(result["ranks"][seat.index])
    return PlayerStats(
        games=len(scores),
        average_score=sum(scores) / len(scores) if scores else None,
        best_score=max(scores) if scores else None,
        average_rank=sum(ranks) / len(ranks) if ranks else None,
        rating=Rating.objects.filter(user=user).first(),
        history=list(RatingChange.objects.filter(user=user).order_by("created_at")),
    )


def history_svg(history: list[RatingChange], width: int = 320, height: int = 120) -> str:
    """A small line chart of the rating (ordinal) after each game, as SVG markup."""
    from django.utils.html import format_html
    from django.utils.safestring import mark_safe

    if len(history) < 2:
        return ""
    values = [change.ordinal for change in history]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    pad = 8
    points = " ".join(
        f"{pad + i * (width - 2 * pad) / (len(values) - 1):.1f},{height - pad - (v - low) * (height - 2 * pad) / span:.1f}"
        for i, v in enumerate(values)
    )
    return mark_safe(
        format_html(
            '<svg viewBox="0 0 {} {}" role="img" class="rating-chart"><title>Rating after each of {} games: '
            "from {} to {}</title>"
            '<polyline fill="none" stroke="currentColor" stroke-width="2" points="{}"/></svg>',
            width, height, len(values), f"{values[0]:.1f}", f"{values[-1]:.1f}", points,
        )
    )
