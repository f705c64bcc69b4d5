"""Moving models between apps loses nothing: a database filled the way the old layout (one
``games`` app holding leagues and the daily puzzle) stored it migrates to the new layout with
every game replaying to the same state, and leagues, ratings and daily attempts intact."""
from __future__ import annotations

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import state_store
from hexsite import dbroles
from games.sites import get_engine

OLD_LAYOUT = [("games", "0005_daily_puzzle_and_undo"), ("leagues", None), ("hextremadura", None)]


def migrate(targets):
    """As `manage.py migrate` does: as the owner role, then the application's role granted
    its privileges on the tables as they now are (hexsite/dbroles.py)."""
    with dbroles.as_owner(connection) as app_role:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(targets)
        if app_role:
            dbroles.grant_app_privileges(connection, app_role)
    return executor.loader.project_state([target for target in targets if target[1]]).apps


def play(kind: str, config: dict, seed: int, steps: int, timeout_first: bool = False) -> list[tuple[int, str, dict]]:
    """Events as the old code stored them: moves, and a timeout with an empty payload."""
    engine = get_engine(kind)
    state, events = engine.new_state(config, seed), []
    for step in range(steps):
        if engine.is_over(state):
            break
        seat = sorted(engine.waiting_for(state))[0]
        if timeout_first and step == 0:
            state = engine.apply_timeout(state, seat, {})  # what an empty payload stands for
            events.append((seat, "timeout", {}))
            continue
        moves = engine.legal_moves(state, seat)
        move = moves[step % len(moves)]
        state = engine.apply(state, seat, move)
        events.append((seat, "move", move))
    return events


def views_of(game_like, events) -> str:
    engine = get_engine(game_like.kind)
    state = state_store.replay_events(game_like, events)
    seats = engine.seat_count(game_like.config)
    return json.dumps([engine.view(state, seat) for seat in [None, *range(seats)]], sort_keys=True)


@pytest.mark.django_db(transaction=True)
def test_the_old_layout_migrates_without_losing_a_game_or_a_league():
    old = migrate(OLD_LAYOUT)
    User = old.get_model("accounts", "User")
    Game, Seat, MoveEvent = (old.get_model("games", name) for name in ("Game", "Seat", "MoveEvent"))
    League, LeagueEntry, Announcement = (old.get_model("games", name) for name in ("League", "LeagueEntry", "Announcement"))
    Rating, RatingChange, DailyPuzzle = (old.get_model("games", name) for name in ("Rating", "RatingChange", "DailyPuzzle"))
    Permission = old.get_model("auth", "Permission")

    ana = User.objects.create(username="ana", email="ana@example.com")
    bo = User.objects.create(username="bo", email="bo@example.com")
    organise = Permission.objects.get(codename="organise_leagues")
    ana.user_permissions.add(organise)
    league = League.objects.create(name="Old league", organiser=ana, starts_at="2026-11-01T00:00Z", status="running")
    LeagueEntry.objects.create(league=league, user=bo, status="approved")
    Announcement.objects.create(league=league, author=ana, text="Welcome")
    puzzle = DailyPuzzle.objects.create(date="2026-11-30", seed=123456789)

    specs = [
        dict(kind="hextension", config={"players": 2, "tiles_per_round": 2}, seed=77, steps=9, timeout_first=True,
             league=league, season_index=1),
        dict(kind="hextremadura", config={"players": 1}, seed=puzzle.seed, steps=6, daily=puzzle),
        dict(kind="hextremadura", config={"players": 1, "undo": True}, seed=5, steps=4),
        dict(kind="hexland", config={"players": 2, "layout": "fixed"}, seed=3, steps=12),
    ]
    expected = {}
    for spec in specs:
        events = play(spec["kind"], spec["config"], spec["seed"], spec["steps"], spec.get("timeout_first", False))
        game = Game.objects.create(kind=spec["kind"], config=spec["config"], seed=spec["seed"], status="active",
                                   version=len(events), created_by=ana, league=spec.get("league"),
                                   season_index=spec.get("season_index"), daily=spec.get("daily"))
        players = [ana, bo][: get_engine(spec["kind"]).seat_count(spec["config"])]
        for index, user in enumerate(players):
            Seat.objects.create(game=game, index=index, user=user)
        MoveEvent.objects.bulk_create(MoveEvent(game=game, seq=n + 1, seat=seat, kind=kind, payload=payload)
                                      for n, (seat, kind, payload) in enumerate(events))
        expected[game.pk] = views_of(game, events)
        if spec["kind"] == "hextension":
            Rating.objects.create(user=ana, mu=26.0, sigma=7.0, games=1)
            RatingChange.objects.create(user=ana, game=game, mu=26.0, sigma=7.0, ordinal=5.0)
    daily_game_id = Game.objects.get(daily=puzzle).pk

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    from accounts.models import User as NewUser
    from games.hextremadura.models import DailyAttempt
    from games.leagues.models import Announcement as NewAnnouncement
    from games.leagues.models import League as NewLeague
    from games.models import Game as NewGame
    from games.models import RatingChange as NewRatingChange

    state_store.forget_local()
    for game in NewGame.objects.all():
        assert json.dumps([get_engine(game.kind).view(state_store.replay(game), seat)
                           for seat in [None, *range(len(game.seats.all()))]], sort_keys=True) == expected[game.pk]
    moved = NewLeague.objects.get()
    assert moved.name == "Old league" and moved.entries.get().user.username == "bo"
    assert NewAnnouncement.objects.get().league == moved and moved.games.count() == 1
    attempt = DailyAttempt.objects.get()
    assert (attempt.game_id, attempt.user.username, attempt.puzzle.seed) == (daily_game_id, "ana", 123456789)
    assert NewRatingChange.objects.get().game.kind == "hextension"
    assert NewUser.objects.get(username="ana").has_perm("leagues.organise_leagues")
