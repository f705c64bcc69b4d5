"""A seat taken in a waiting room is announced, as every other change of its seats is: open pages
of the room show the new player (found by the reload walk, tests/e2e/test_reload_walk.py)."""
import pytest

from games import realtime, services
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def announced(monkeypatch):
    versions = []
    monkeypatch.setattr(realtime, "announce_version", lambda game_id, version: versions.append(game_id))
    return versions


def test_a_player_taking_a_seat_of_an_open_game_is_announced(make_user, announced, django_capture_on_commit_callbacks):
    ana, bo = make_user("ana"), make_user("bo")
    game = services.create_game(kind="toy", config={"players": 3, "target": 15}, created_by=ana)
    with django_capture_on_commit_callbacks(execute=True):
        services.join_game(game_id=game.pk, user=bo)
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    assert announced == [game.pk]


def test_a_player_joining_a_rematch_that_still_waits_is_announced_on_the_rematch(
        make_user, announced, django_capture_on_commit_callbacks):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    old = services.create_game(kind="toy", config={"players": 3, "target": 1}, created_by=ana, players=[ana, bo, cy],
                               join=False)
    services.start_game(game_id=old.pk)
    while (game := Game.objects.get(pk=old.pk)).status == Game.Status.ACTIVE:
        seat = game.awaiting[0]
        services.submit_move(game_id=old.pk, user=[ana, bo, cy][seat], move={"type": "add", "n": 1},
                             expected_version=game.version)
    rematch = services.rematch(game_id=old.pk, user=ana)
    announced.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.rematch(game_id=old.pk, user=bo)  # cy's seat is still free
    assert Game.objects.get(pk=rematch.pk).status == Game.Status.OPEN
    assert rematch.pk in announced
