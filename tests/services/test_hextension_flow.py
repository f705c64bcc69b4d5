"""Hextension by correspondence on the platform: rounds, deadlines, the NMR ladder, e-mail."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import services, state_store
from games.services import notifications
from games.hextension import engine as hextension
from games.models import Game, MoveEvent, PendingNotification
from tests.support.concurrency import run_at_once

pytestmark = pytest.mark.django_db

DAY = 86400


def open_game(*users, tiles_per_round=2, turn_seconds=DAY, ai_seats=None):
    ai_seats = ai_seats or {}
    game = services.create_game(
        kind="hextension",
        config={"players": len(users) + len(ai_seats), "tiles_per_round": tiles_per_round},
        created_by=users[0], turn_seconds=turn_seconds, ai_seats=ai_seats,
    )
    for user in users[1:]:
        services.join_game(game_id=game.pk, user=user)
    game.refresh_from_db()
    if game.status == Game.Status.OPEN:
        services.start_game(game_id=game.pk)
        game.refresh_from_db()
    return game


def view_of(game, seat):
    game.refresh_from_db()
    return hextension.view(state_store.load(game), seat)


def place_first_free(game, user, seat, shift=0):
    """Submit the round's tiles on the first empty cells (shift picks other cells)."""
    view = view_of(game, seat)
    empty = [c for c in hextension.CELLS if c not in view["seats"][seat]["board"]]
    placements = dict(zip(view["drawn"], empty[shift:]))
    return services.submit_move(game_id=game.pk, user=user, move={"type": "place", "placements": placements},
                                expected_version=game.version)


def test_a_round_closes_when_everyone_has_moved_and_a_submission_can_change_until_then(make_user):
    ana, bo, cy = make_user(), make_user(), make_user()
    game = open_game(ana, bo, cy)
    first_deadline = game.deadline_at
    assert game.awaiting == [0, 1, 2] and game.remind_at == first_deadline - timedelta(seconds=DAY / 5)
    place_first_free(game, ana, 0)
    place_first_free(game, ana, 0, shift=3)  # changed her mind: replaces the first submission
    game.refresh_from_db()
    assert game.awaiting == [1, 2] and game.deadline_at == first_deadline
    bo_view = view_of(game, 1)
    assert bo_view["seats"][0]["moved"] and bo_view["seats"][0]["board"] == {}  # moved, but not where
    assert "pending" not in bo_view["seats"][0] and bo_view["pending"] is None
    place_first_free(game, bo, 1)
    place_first_free(game, cy, 2)
    game.refresh_from_db()
    view = view_of(game, 0)
    assert view["round"] == 2 and game.awaiting == [0, 1, 2]
    assert sorted(view["seats"][0]["board"]) == sorted(hextension.CELLS[3:5])  # the replacement counted
    assert game.deadline_at > first_deadline  # a new round, a new deadline


def test_the_nmr_ladder_is_applied_once_per_player_and_round(make_user):
    ana, bo = make_user(), make_user()
    game = open_game(ana, bo, tiles_per_round=1)
    for round_number in (1, 2, 3):
        place_first_free(game, bo, 1)
        game.refresh_from_db()
        late = game.deadline_at + timedelta(hours=5)  # the sweeper runs late
        assert services.sweep_deadlines(now=late) == 1
        assert services.sweep_deadlines(now=late) == 0  # and runs twice
        view = view_of(game, 1)
        assert view["seats"][0]["nmr"] == round_number
        assert view["round"] == round_number + 1
    assert view["seats"][0]["out"] and len(view["seats"][0]["board"]) == 2  # AI once, random once
    assert game.awaiting == [1]
    assert MoveEvent.objects.filter(game=game, kind="timeout").count() == 3
    for _ in range(16):  # Bo finishes alone
        place_first_free(game, bo, 1)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["ranks"][1] == 1 and game.result["ranks"][0] == 2 and game.result["out"] == [0]


@pytest.mark.django_db(transaction=True)
def test_two_sweepers_at_once_apply_one_nmr(make_user):
    ana, bo, cy = make_user(), make_user(), make_user()
    game = open_game(ana, bo, cy)
    place_first_free(game, bo, 1)
    game.refresh_from_db()
    late = game.deadline_at + timedelta(minutes=1)
    written = run_at_once(lambda: services.sweep_deadlines(now=late))
    assert sorted(written) == [0, 2]  # seats 0 and 2 timed out, by one of the two sweepers
    assert sorted(MoveEvent.objects.filter(game=game, kind="timeout").values_list("seat", flat=True)) == [0, 2]
    assert view_of(game, 0)["round"] == 2


def test_e_mails_follow_each_players_preference(make_user):
    ana = make_user(timezone="Europe/Madrid")
    bo = make_user(email_notifications="digest")
    cy = make_user(email_notifications="none")
    game = open_game(ana, bo, cy)
    services.notify_progress(game_id=game.pk, turn_changed=True, timed_out=[])
    assert [m.to for m in mail.outbox] == [[ana.email]]
    assert "Round 1 of 10" in mail.outbox[0].subject
    local_deadline = timezone.localtime(game.deadline_at, __import__("zoneinfo").ZoneInfo("Europe/Madrid"))
    assert local_deadline.strftime("%H:%M") in mail.outbox[0].body and "CET" in mail.outbox[0].body
    assert PendingNotification.objects.filter(user=bo).count() == 1
    mail.outbox.clear()
    place_first_free(game, ana, 0)
    game.refresh_from_db()
    assert services.send_due_reminders(now=game.remind_at - timedelta(minutes=1)) == 0
    assert services.send_due_reminders(now=game.remind_at) == 1
    assert services.send_due_reminders(now=game.remind_at) == 0  # once per round
    assert mail.outbox == []  # reminders go out on commit; this test runs in one transaction


def test_reminder_nmr_and_result_mails(make_user, django_capture_on_commit_callbacks):
    ana, bo = make_user(), make_user()
    game = open_game(ana, bo, tiles_per_round=3)
    place_first_free(game, ana, 0)
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        services.send_due_reminders(now=game.remind_at)
    assert [m.to for m in mail.outbox] == [[bo.email]] and "Reminder" in mail.outbox[0].subject
    mail.outbox.clear()
    notifications.nmr_applied(game, [1])
    assert "no-move rule" in mail.outbox[0].body


def test_daily_digest_gathers_kept_messages(make_user):
    bo = make_user(email_notifications="digest")
    notifications.deliver(bo, "one", "first")
    notifications.deliver(bo, "two", "second")
    assert notifications.send_daily_digests() == 1
    assert len(mail.outbox) == 1 and "first" in mail.outbox[0].body and "second" in mail.outbox[0].body
    assert notifications.send_daily_digests() == 0


def test_ai_seats_play_their_rounds_and_the_game_ends_with_hindsight(make_user):
    ana = make_user()
    game = open_game(ana, ai_seats={1: "greedy", 2: "random"}, tiles_per_round=2)
    for _ in range(10):
        place_first_free(game, ana, 0)
        game.refresh_from_db()
        for seat in list(game.awaiting):  # what the Celery task does for each AI seat
            assert services.play_ai_move(game_id=game.pk, expected_version=game.version, seat=seat)
            game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    services.game_finished(game_id=game.pk)
    game.refresh_from_db()
    assert game.analysis["best_score"] >= max(game.result["scores"])
    assert 0 <= game.analysis["ai_score"] <= game.analysis["best_score"]
    assert not services.play_ai_move(game_id=game.pk, expected_version=game.version, seat=1)


def test_an_ai_seat_still_awaited_at_the_deadline_moves_then_and_is_never_timed_out(make_user):
    """Its move task was lost (a worker killed holding it): the deadline plays the AI's move in
    the same write as the player's timeout, and the late task then finds nothing to do."""
    ana = make_user()
    game = open_game(ana, ai_seats={1: "greedy"}, tiles_per_round=2)
    round_version = game.version
    for round_number in (1, 2, 3):  # three timeouts would put a timed-out seat out of the game
        game.refresh_from_db()
        assert services.sweep_deadlines(now=game.deadline_at + timedelta(seconds=1)) == 2
        assert view_of(game, 0)["round"] == round_number + 1
    kinds = list(MoveEvent.objects.filter(game=game).order_by("seq").values_list("seat", "kind"))
    assert kinds == [(0, "timeout"), (1, "ai")] * 3
    assert not view_of(game, 1)["seats"][1]["out"] and view_of(game, 1)["seats"][1]["nmr"] == 0
    assert not services.play_ai_move(game_id=game.pk, expected_version=round_version, seat=1)  # the lost task
    assert MoveEvent.objects.filter(game=game).count() == 6


def test_the_next_rounds_clock_starts_when_a_late_sweep_writes_not_when_it_began(make_user):
    ana, bo = make_user(), make_user()
    game = open_game(ana, bo)
    began = timezone.now() - timedelta(minutes=10)  # a sweep that waited on the row lock, or a slow bot
    Game.objects.filter(pk=game.pk).update(deadline_at=began - timedelta(seconds=1))
    before = timezone.now()
    assert services.sweep_deadlines(now=began) == 2
    game.refresh_from_db()
    assert view_of(game, 0)["round"] == 2
    assert game.deadline_at >= before + timedelta(seconds=DAY)


def test_the_creator_may_start_before_the_game_is_full(make_user):
    ana, bo = make_user(), make_user()
    game = services.create_game(kind="hextension", config={"players": 5, "tiles_per_round": 2},
                                created_by=ana, turn_seconds=DAY, ai_seats={4: "greedy"})
    services.join_game(game_id=game.pk, user=bo)
    services.start_game(game_id=game.pk, by_user=ana)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.config["players"] == 3
    assert list(game.seats.values_list("index", "user", "ai_level")) == [(0, ana.pk, ""), (1, bo.pk, ""), (2, None, "greedy")]
    assert len(view_of(game, 0)["seats"]) == 3 and game.awaiting == [0, 1, 2]


def test_one_failing_digest_neither_blocks_nor_repeats_the_others(make_user, monkeypatch):
    ana, bo = make_user(email_notifications="digest"), make_user(email_notifications="digest")
    notifications.deliver(ana, "a", "for ana")
    notifications.deliver(bo, "b", "for bo")
    real_send = notifications.send_mail

    def send(subject, body, sender, to):
        if to == [bo.email]:
            raise OSError("mail server said no")
        return real_send(subject, body, sender, to)

    monkeypatch.setattr(notifications, "send_mail", send)
    assert notifications.send_daily_digests() == 1
    assert [m.to for m in mail.outbox] == [[ana.email]]
    assert list(PendingNotification.objects.values_list("user_id", flat=True)) == [bo.pk]  # kept for tomorrow
    assert notifications.send_daily_digests() == 0 and len(mail.outbox) == 1  # ana is not mailed twice
