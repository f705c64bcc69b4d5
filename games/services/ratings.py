"""Ratings: OpenSkill's Plackett-Luce model over each finished game's order, for the games whose
site says they are rated; each rated game has its own ratings (``Rating.kind``). Reads are in
``games.selectors``."""
from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver
from openskill.models import PlackettLuce

from games import signals
from games.models import Game, Rating, RatingChange, Seat
from games.sites import get_site

MODEL = PlackettLuce()


@transaction.atomic
def rate_game(game: Game) -> bool:
    """Update the ratings in this game's kind of a finished game's human players; once per game."""
    if not get_site(game.kind).rated or not game.result or RatingChange.objects.filter(game=game).exists():
        return False
    seats = list(Seat.objects.filter(game=game, user__isnull=False).order_by("index"))
    if len(seats) < 2:
        return False
    ranks = game.result["ranks"]
    prior = MODEL.rating()
    user_ids = sorted(seat.user_id for seat in seats)
    Rating.objects.bulk_create(  # every row exists before it is locked, so no update is lost
        [Rating(user_id=user_id, kind=game.kind, mu=prior.mu, sigma=prior.sigma) for user_id in user_ids], ignore_conflicts=True
    )
    ratings = {r.user_id: r for r in Rating.objects.select_for_update().filter(user_id__in=user_ids, kind=game.kind)
               .order_by("user_id")}
    teams = [[MODEL.rating(mu=ratings[s.user_id].mu, sigma=ratings[s.user_id].sigma)] for s in seats]
    rated = MODEL.rate(teams, ranks=[ranks[seat.index] for seat in seats])
    for seat, (new,) in zip(seats, rated):
        rating = ratings[seat.user_id]
        rating.mu, rating.sigma, rating.games = new.mu, new.sigma, rating.games + 1
        rating.save(update_fields=["mu", "sigma", "games"])
        RatingChange.objects.create(user_id=seat.user_id, game=game, mu=new.mu, sigma=new.sigma, ordinal=new.ordinal())
    return True


@receiver(signals.game_finished, dispatch_uid="ratings.rate_finished_game")
def rate_finished_game(sender, game: Game, **kwargs) -> None:
    rate_game(game)
