"""A player's page: one section per game, each with that game's own figures and its own rating."""
from __future__ import annotations

import importlib
import re

import pytest
from django.apps import apps
from django.urls import reverse

from games import services
from games.models import Game, Rating, RatingChange
from games.services import ratings

pytestmark = pytest.mark.django_db


def finished(kind: str, users, scores, ranks, **config) -> Game:
    game = services.create_game(kind=kind, config={"players": len(users), **config}, created_by=users[0],
                                players=list(users), join=False)
    Game.objects.filter(pk=game.pk).update(status="finished", result={"winner": ranks.index(1), "scores": scores, "ranks": ranks})
    game.refresh_from_db()
    assert ratings.rate_game(game)
    return game


def section(page: str, kind: str) -> str:
    match = re.search(rf'<section class="card profile-game" aria-labelledby="profile-{kind}">(.*?)</section>', page, re.S)
    assert match, f"no {kind} section"
    return match.group(1)


def test_each_game_has_its_own_named_section_figures_and_rating(client, make_user):
    ana, bo, cy, dee = (make_user(name) for name in ("ana", "bo", "cy", "dee"))
    finished("hexland", [ana, bo, cy, dee], scores=[10, 7, 5, 2], ranks=[1, 2, 3, 4])
    client.force_login(ana)

    page = client.get(reverse("player", args=["dee"])).content.decode()
    assert not re.search(r"<h2[^>]*>Rated games</h2>", page)  # no block that mixes the games
    hexland = section(page, "hexland")
    assert "<h2 id=\"profile-hexland\">Hexland</h2>" in hexland
    assert "<dt>Games</dt><dd>1</dd>" in hexland and "<dt>Wins</dt><dd>0</dd>" in hexland
    assert "<dt>Average points</dt><dd>2.0</dd>" in hexland and "Average score" not in hexland
    dee_rating = Rating.objects.get(user=dee, kind="hexland")
    assert f"<dt>Rating</dt><dd>{dee_rating.ordinal:.1f}" in hexland and "Hexland rating" in hexland
    hextension = section(page, "hextension")
    assert "No finished Hextension game yet" in hextension and "Not rated in Hextension yet" in hextension
    assert "<dt>Rating</dt>" not in hextension
    assert "Not rated" not in section(page, "hextremadura") and "rating" not in section(page, "hextremadura").lower()

    # A Hextension game: its own figures and a rating of its own; Hexland's stays as it was.
    finished("hextension", [dee, ana], scores=[140, 120], ranks=[1, 2], tiles_per_round=1)
    assert Rating.objects.get(user=dee, kind="hexland").mu == dee_rating.mu
    assert Rating.objects.get(user=dee, kind="hextension").games == 1
    page = client.get(reverse("player", args=["dee"])).content.decode()
    hextension = section(page, "hextension")
    assert "<dt>Games</dt><dd>1</dd>" in hextension and "<dt>Best score</dt><dd>140</dd>" in hextension
    assert "<dt>Average place</dt><dd>1.00" in hextension and "<dt>Games rated</dt><dd>1</dd>" in hextension
    assert "<dt>Games</dt><dd>1</dd>" in section(page, "hexland")


def test_games_against_the_ai_only_are_counted_but_not_rated(client, make_user):
    ana = make_user("ana")
    game = services.create_game(kind="hexland", config={"players": 2}, created_by=ana, ai_seats={1: "easy"})
    Game.objects.filter(pk=game.pk).update(status="finished", result={"winner": 0, "scores": [10, 4], "ranks": [1, 2]})
    assert not ratings.rate_game(Game.objects.get(pk=game.pk))
    client.force_login(ana)
    hexland = section(client.get(reverse("profile")).content.decode(), "hexland")
    assert "<dt>Wins</dt><dd>1</dd>" in hexland and "games against AI players only are not rated" in hexland


def test_the_migration_splits_a_site_wide_rating_into_one_per_game(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    finished("hexland", [ana, bo], scores=[10, 6], ranks=[1, 2])
    finished("hextension", [ana, bo], scores=[100, 150], ranks=[2, 1], tiles_per_round=1)
    finished("hexland", [bo, ana], scores=[10, 9], ranks=[1, 2])
    def ratings_now():
        return sorted((u, k, round(m, 9), round(s, 9), g) for u, k, m, s, g in
                      Rating.objects.values_list("user_id", "kind", "mu", "sigma", "games"))

    def changes_now():
        return sorted((pk, round(m, 9), round(s, 9), round(o, 9)) for pk, m, s, o in
                      RatingChange.objects.values_list("pk", "mu", "sigma", "ordinal"))

    expected_ratings, expected_changes = ratings_now(), changes_now()
    assert [games for *_, games in expected_ratings] == [2, 1, 2, 1]
    # As the site-wide rating left them: one row per player, the changes chained across games.
    Rating.objects.all().delete()
    Rating.objects.bulk_create([Rating(user=ana, kind="", mu=30.0, sigma=6.0, games=3),
                                Rating(user=bo, kind="", mu=20.0, sigma=6.0, games=3)])
    RatingChange.objects.update(mu=1.0, sigma=1.0, ordinal=-2.0)

    migration = importlib.import_module("games.migrations.0014_rating_per_game")
    migration.rate_each_game_apart(apps, None)

    assert ratings_now() == expected_ratings
    assert changes_now() == expected_changes
