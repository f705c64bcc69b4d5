"""Ratings per game, step 2: one OpenSkill rating per player and rated game (``Rating.kind``) instead of
one across the site. The ratings are worked out again from the rated games, in the order they
were rated, each game's players starting from their rating in that game only; each
``RatingChange`` gets the figures of its own game's chain."""
from django.db import migrations


def rate_each_game_apart(apps, schema_editor):
    from openskill.models import PlackettLuce

    Rating, RatingChange, Seat = (apps.get_model("games", name) for name in ("Rating", "RatingChange", "Seat"))
    model = PlackettLuce()
    prior = model.rating()
    current: dict[tuple[int, str], tuple[float, float, int]] = {}  # (user, kind) -> mu, sigma, games
    changes = list(RatingChange.objects.select_related("game").order_by("created_at", "pk"))
    by_game: dict[int, list] = {}
    for change in changes:
        by_game.setdefault(change.game_id, []).append(change)
    for game_changes in by_game.values():
        game = game_changes[0].game
        kind = game.kind
        index_of = dict(Seat.objects.filter(game=game, user__isnull=False).values_list("user_id", "index"))
        ranks = (game.result or {}).get("ranks") or []
        rateable = len(game_changes) >= 2 and all(index_of.get(c.user_id, len(ranks)) < len(ranks) for c in game_changes)
        if rateable:
            teams = [[model.rating(mu=current.get((c.user_id, kind), (prior.mu, prior.sigma, 0))[0],
                                   sigma=current.get((c.user_id, kind), (prior.mu, prior.sigma, 0))[1])]
                     for c in game_changes]
            rated = model.rate(teams, ranks=[ranks[index_of[c.user_id]] for c in game_changes])
            for change, (new,) in zip(game_changes, rated):
                change.mu, change.sigma, change.ordinal = new.mu, new.sigma, new.ordinal()
                change.save(update_fields=["mu", "sigma", "ordinal"])
        for change in game_changes:  # a change that cannot be worked out again keeps its figures
            games = current.get((change.user_id, kind), (0, 0, 0))[2]
            current[(change.user_id, kind)] = (change.mu, change.sigma, games + 1)
    Rating.objects.all().delete()
    Rating.objects.bulk_create(Rating(user_id=user_id, kind=kind, mu=mu, sigma=sigma, games=games)
                               for (user_id, kind), (mu, sigma, games) in current.items())


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0013_rating_kind'),
    ]

    operations = [
        migrations.RunPython(rate_each_game_apart, migrations.RunPython.noop),
    ]
