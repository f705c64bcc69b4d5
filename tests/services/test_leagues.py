"""Leagues: entries, the season's games, organiser tools, standings and ratings."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from games import services
from games.leagues import services as leagues
from games.leagues import standings
from games.services import ratings
from games.templatetags.ratings import rating_chart
from games import selectors
from games.errors import GameError, GameNotActive, NotYourSeat
from games.leagues.models import League, LeagueEntry
from games.models import Game, Rating

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(make_user):
    user = make_user("orga")
    user.user_permissions.add(Permission.objects.get(codename="organise_leagues"))
    return type(user).objects.get(pk=user.pk)  # fresh permission cache


def new_league(organiser, **fields):
    defaults = dict(name="Autumn league", tiles_per_round=3, round_hours=48, season_games=2,
                    entry=League.Entry.OPEN, schedule=League.Schedule.SEQUENTIAL, starts_at=timezone.now() + timedelta(days=1))
    return leagues.create_league(organiser=organiser, **{**defaults, **fields})


def finish_game(game, placements_by_seat):
    """Play a league game to its end: each seat puts each round's tiles on its next cells."""
    from games import state_store
    from games.hextension import engine as hextension

    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return game
        view = hextension.view(state_store.load(game), None)
        for seat in list(game.awaiting):
            order = placements_by_seat[seat]
            board = view["seats"][seat]["board"]
            empty = [c for c in order if c not in board]
            user = game.seats.get(index=seat).user
            services.submit_move(game_id=game.pk, user=user, expected_version=Game.objects.get(pk=game.pk).version,
                                 move={"type": "place", "placements": dict(zip(view["drawn"], empty))})


def test_only_organisers_create_leagues_and_entries_follow_the_entry_rule(make_user, organiser):
    with pytest.raises(NotYourSeat, match="Only organisers"):
        new_league(make_user())
    approval = new_league(organiser, entry=League.Entry.APPROVAL)
    invitation = new_league(organiser, entry=League.Entry.INVITATION)
    ana, bo = make_user(), make_user()
    entry = leagues.enter_league(league_id=approval.pk, user=ana)
    assert entry.status == LeagueEntry.Status.PENDING and leagues.players(approval) == []
    with pytest.raises(NotYourSeat):
        leagues.decide_entry(league_id=approval.pk, entry_id=entry.pk, by_user=bo, approve=True)
    leagues.decide_entry(league_id=approval.pk, entry_id=entry.pk, by_user=organiser, approve=True)
    with pytest.raises(GameNotActive, match="waiting for approval"):  # decided once
        leagues.decide_entry(league_id=approval.pk, entry_id=entry.pk, by_user=organiser, approve=False)
    assert leagues.players(approval) == [ana]
    with pytest.raises(GameNotActive, match="already entered"):
        leagues.enter_league(league_id=approval.pk, user=ana)
    with pytest.raises(NotYourSeat, match="invitation"):
        leagues.enter_league(league_id=invitation.pk, user=bo, token="guess")
    assert leagues.enter_league(league_id=invitation.pk, user=bo, token=invitation.invite_token).status == "approved"


def test_a_sequential_season_standings_and_ratings(make_user, organiser):
    league = new_league(organiser)
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    for user in (ana, bo, cy):
        leagues.enter_league(league_id=league.pk, user=user)
    with pytest.raises(NotYourSeat):
        leagues.start_season(league_id=league.pk, by_user=ana)
    (first,) = leagues.start_season(league_id=league.pk, by_user=organiser)
    assert first.league_id == league.pk and first.turn_seconds == 48 * 3600 and first.status == Game.Status.ACTIVE
    from games.hextension.engine import CELLS

    # Ana and Bo place identically (a tie), Cy differently.
    same, other = list(CELLS), list(reversed(CELLS))
    finish_game(first, {0: same, 1: same, 2: other})
    services.game_finished(game_id=first.pk)
    second = league.games.get(season_index=2)  # the next game opened by itself
    finish_game(second, {0: other, 1: same, 2: same})
    services.game_finished(game_id=second.pk)
    league.refresh_from_db()
    assert league.status == League.Status.FINISHED

    table = standings.league_standings(league)
    results = [g.result["scores"] for g in league.games.order_by("season_index")]
    by_name = {row.name: row for row in table.rows}
    for row in table.rows:
        assert row.games == 2 and row.possible == 4
        assert row.total_score == sum(r[["ana", "bo", "cy"].index(row.name)] for r in results)
    expected = {name: 0.0 for name in ("ana", "bo", "cy")}
    for scores in results:
        for i, name in enumerate(("ana", "bo", "cy")):
            expected[name] += sum(1 if scores[i] > s else 0.5 if scores[i] == s else 0 for j, s in enumerate(scores) if j != i)
    assert {n: r.match_points for n, r in by_name.items()} == expected
    keys = [(-r.match_points, -r.total_score, -r.best_game) for r in table.rows]
    assert keys == sorted(keys) and table.rows[0].rank == 1
    csv_text = standings.standings_csv(table)
    assert csv_text.splitlines()[0].startswith("rank,player,game 1,game 2,match points")
    assert len(standings.boards_csv(league).splitlines()) == 1 + 2 * 3 * 19

    assert Rating.objects.filter(user__in=[ana, bo, cy], kind="hextension", games=2).count() == 3
    assert not ratings.rate_game(first)  # once per game
    stats = selectors.player_stats(ana, "hextension")
    assert stats.games == 2 and stats.best_score == max(r[0] for r in results)
    assert "<polyline" in rating_chart(selectors.game_rating(ana, "hextension").history)


def test_match_points_put_players_out_below_finishers():
    assert standings.game_match_points([100, 80, 80, 150], out=set()) == [2, 0.5, 0.5, 3]
    # Seat 3 is out: it ranks below the finishers whatever its score.
    assert standings.game_match_points([100, 80, 80, 150], out={3}) == [3, 1.5, 1.5, 0]


def test_pause_resume_extend_and_replace(make_user, organiser):
    league = new_league(organiser, schedule=League.Schedule.PARALLEL, season_games=2, entry=League.Entry.APPROVAL)
    ana, bo, cy = make_user(), make_user(), make_user()
    for user in (ana, bo):
        entry = leagues.enter_league(league_id=league.pk, user=user)
        leagues.decide_entry(league_id=league.pk, entry_id=entry.pk, by_user=organiser, approve=True)
    leagues.enter_league(league_id=league.pk, user=cy)  # waiting: a replacement must have asked to join
    games = leagues.start_season(league_id=league.pk, by_user=organiser)
    assert len(games) == 2
    game = games[0]
    before = game.deadline_at
    leagues.extend_deadline(game_id=game.pk, by_user=organiser, hours=24)
    game.refresh_from_db()
    assert abs((game.deadline_at - before) - timedelta(hours=24)) < timedelta(seconds=5)
    with pytest.raises(GameError, match="1 hour to 14 days"):
        leagues.extend_deadline(game_id=game.pk, by_user=organiser, hours=0)
    leagues.set_paused(league_id=league.pk, by_user=organiser, paused=True)
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED and game.deadline_at is None and game.paused_remaining > timedelta(hours=60)
    with pytest.raises(GameNotActive, match="paused"):
        services.submit_move(game_id=game.pk, user=ana, move={"type": "place", "placements": {"174": "C3"}}, expected_version=0)
    assert services.sweep_deadlines(now=timezone.now() + timedelta(days=30)) == 0
    leagues.set_paused(league_id=league.pk, by_user=organiser, paused=False)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.deadline_at > timezone.now() + timedelta(hours=60)
    assert leagues.replace_player(league_id=league.pk, by_user=organiser, old_user=bo, new_user=cy) == 2
    assert game.seats.get(index=1).user == cy
    assert leagues.replace_player(league_id=league.pk, by_user=organiser, old_user=cy) == 2
    assert game.seats.get(index=1).ai_level == leagues.AI_STAND_IN
    with pytest.raises(NotYourSeat):
        leagues.announce(league_id=league.pk, by_user=ana, text="hello")
    assert leagues.announce(league_id=league.pk, by_user=organiser, text="Round two starts soon").league == league


def test_a_game_paused_after_its_deadline_passed_resumes_with_a_clock(make_user, organiser):
    league = new_league(organiser, schedule=League.Schedule.PARALLEL, season_games=1)
    for user in (make_user(), make_user()):
        leagues.enter_league(league_id=league.pk, user=user)
    (game,) = leagues.start_season(league_id=league.pk, by_user=organiser)
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=5))
    leagues.set_paused(league_id=league.pk, by_user=organiser, paused=True)
    leagues.set_paused(league_id=league.pk, by_user=organiser, paused=False)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.deadline_at is not None
    assert services.sweep_deadlines(now=timezone.now() + timedelta(seconds=1)) == 2  # both seats time out


def test_csv_cells_cannot_run_as_formulas(make_user, organiser):
    table = standings.Standings(league=None, game_numbers=[1], rows=[
        standings.StandingRow(user_id=1, name="=HYPERLINK(\"http://x\")", per_game=[100], rank=1)])
    assert '1,"\'=HYPERLINK' in standings.standings_csv(table)


@given(st.lists(st.integers(0, 5), max_size=30))
def test_competition_ranks_share_ties_and_skip_after_them(values):
    from games.ranking import competition_ranks

    keys = sorted(values, reverse=True)
    ranks = competition_ranks(keys)
    for i, key in enumerate(keys):
        assert ranks[i] == 1 + sum(1 for other in keys if other > key)  # 1 + how many are better
