"""Automatic flags: a run of games left, and Hextension placements that match too often."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, state_store
from games.hextension import engine as hextension
from games.services import adjudication
from moderation import flags
from moderation.models import Flag
from tests.support.factories import toy_game

pytestmark = pytest.mark.django_db


def race_left_by_the_first_seat(ana, bo):
    game = toy_game(ana, bo, target=3, turn_seconds=60)
    services.apply_timeouts(game_id=game.pk, now=timezone.now() + timedelta(minutes=2))  # Ana's turn runs out
    game.refresh_from_db()
    services.submit_move(game_id=game.pk, user=bo, move={"type": "add", "n": 2}, expected_version=game.version)


def test_a_player_who_left_their_last_games_in_a_row_is_flagged_with_the_games(make_user):
    ana, bo = make_user(), make_user()
    for _ in range(flags.STREAK):
        race_left_by_the_first_seat(ana, bo)
    assert flags.compute_flags() == 1
    flag = Flag.objects.get()
    assert (flag.user, flag.kind, len(flag.evidence["games"])) == (ana, Flag.Kind.LEAVING_STREAK, flags.STREAK)
    assert flags.compute_flags() == 1 and Flag.objects.count() == 1  # refreshed, not repeated
    # A game played to the end breaks the run.
    game = toy_game(ana, bo, target=3)
    services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 3}, expected_version=game.version)
    assert flags.leaving_streak(ana.pk) == []


def one_round(ana, bo, staff, *, copy: bool):
    game = services.create_game(kind="hextension", config={"players": 2, "tiles_per_round": 2}, created_by=ana)
    services.join_game(game_id=game.pk, user=bo)
    game.refresh_from_db()
    for seat, user in enumerate((ana, bo)):
        drawn = hextension.view(state_store.load(game), seat)["drawn"]
        cells = hextension.CELLS if copy or seat == 0 else hextension.CELLS[5:]
        services.submit_move(game_id=game.pk, user=user, move={"type": "place", "placements": dict(zip(drawn, cells))},
                             expected_version=game.version)
        game.refresh_from_db()
    adjudication.end_game(game_id=game.pk, by_user=staff, reason="test", scores=[1, 1])


def test_accounts_whose_placements_match_move_by_move_are_flagged_both_ways(make_user, monkeypatch):
    ana, bo, carl, dan = make_user(), make_user(), make_user(), make_user()
    staff = make_user(is_staff=True)
    for _ in range(2):
        one_round(ana, bo, staff, copy=True)
        one_round(carl, dan, staff, copy=False)
    monkeypatch.setattr(flags, "MATCH_MIN_PLACEMENTS", 4)
    flags.compute_flags()
    flagged = {(f.user, f.other_user): f.evidence for f in Flag.objects.filter(kind=Flag.Kind.PLACEMENT_MATCH)}
    assert set(flagged) == {(ana, bo), (bo, ana)}
    assert flagged[ana, bo]["summary"] == "4 of 4 placements identical over 2 games"
    monkeypatch.setattr(flags, "MATCH_MIN_PLACEMENTS", 5)  # too little evidence: no new flag
    Flag.objects.all().delete()
    flags.compute_flags()
    assert not Flag.objects.filter(kind=Flag.Kind.PLACEMENT_MATCH).exists()
