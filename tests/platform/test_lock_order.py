"""Row locks are taken in one order everywhere: League, then Game (by id), then Seat.

Two organisers acting at once (one extends a deadline while the other pauses the league) once
met PostgreSQL's "deadlock detected" as a server error: one path locked Game then League, the
other League then Game. These tests hold every league write to the order, and race the two.
"""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.leagues import services as leagues
from games.leagues.models import League, LeagueEntry
from games.models import Game
from tests.support.concurrency import run_together

RANK = {"games_league": 0, "games_game": 1, "games_seat": 2}


def locked_tables(queries) -> list[str]:
    """The tables each ``SELECT … FOR UPDATE`` locked, in the order the locks were taken."""
    tables = []
    for query in queries:
        sql = query["sql"]
        if "FOR UPDATE" in sql:
            tables.append(re.search(r'FROM "(\w+)"', sql).group(1))
    return tables


def assert_in_lock_order(tables: list[str]) -> None:
    ranks = [RANK[t] for t in tables if t in RANK]
    assert ranks == sorted(ranks), f"locks taken out of order: {tables}"


def running_league(make_user, players: int = 3) -> tuple[League, object, list]:
    orga = make_user()
    orga.user_permissions.add(Permission.objects.get(codename="organise_leagues"))
    orga = type(orga).objects.get(pk=orga.pk)
    league = leagues.create_league(organiser=orga, name="Race league", tiles_per_round=2, round_hours=24,
                                   season_games=2, entry=League.Entry.OPEN, schedule=League.Schedule.PARALLEL,
                                   starts_at=timezone.now() + timedelta(days=1))
    people = [make_user() for _ in range(players)]
    for person in people:
        leagues.enter_league(league_id=league.pk, user=person)
    leagues.start_season(league_id=league.pk, by_user=orga)
    return league, orga, people


@pytest.mark.django_db
def test_every_league_write_locks_league_then_games_then_seats(make_user):
    league, orga, people = running_league(make_user)
    game = league.games.order_by("pk").first()
    replacement = make_user()
    # A replacement is someone who asked to join (here one the organiser declined): rows of their own.
    LeagueEntry.objects.create(league=league, user=replacement, status=LeagueEntry.Status.DECLINED)
    steps = [
        lambda: leagues.extend_deadline(game_id=game.pk, by_user=orga, hours=5),
        lambda: leagues.set_paused(league_id=league.pk, by_user=orga, paused=True),
        lambda: leagues.set_paused(league_id=league.pk, by_user=orga, paused=False),
        lambda: leagues.replace_player(league_id=league.pk, by_user=orga, old_user=people[0], new_user=replacement),
        lambda: leagues.replace_player(league_id=league.pk, by_user=orga, old_user=people[1]),
    ]
    for step in steps:
        with CaptureQueriesContext(connection) as captured:
            step()
        tables = locked_tables(captured.captured_queries)
        assert tables, "each organiser tool locks what it changes"
        assert_in_lock_order(tables)


@pytest.mark.django_db(transaction=True)
def test_extending_a_deadline_while_the_league_is_paused_never_deadlocks(make_user):
    league, orga, _ = running_league(make_user)
    game = league.games.order_by("pk").first()
    for _ in range(8):  # each round races the two writes on two real connections
        outcomes = run_together(
            lambda: leagues.extend_deadline(game_id=game.pk, by_user=orga, hours=1),
            lambda: leagues.set_paused(league_id=league.pk, by_user=orga,
                                       paused=League.objects.get(pk=league.pk).status == League.Status.RUNNING),
        )
        for outcome in outcomes:
            # A refusal a person can read is fine (extending a paused game's deadline);
            # a database error (deadlock) is not.
            assert not isinstance(outcome, Exception) or outcome.__class__.__module__.startswith("games."), outcome
    game.refresh_from_db()
    assert game.status in (Game.Status.ACTIVE, Game.Status.PAUSED)
