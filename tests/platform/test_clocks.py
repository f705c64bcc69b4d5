"""Clocks per phase, on a real Hexland game played through the services with a frozen clock.

The "fast" preset: 30 s per setup placement, 60 s per turn, 20 s to discard. A discard stops
the mover's clock, which resumes with the time it had left once the discards are done; a trade
offer and its answers run on the mover's clock and never restart it.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone as tz

import pytest
from django.utils import timezone

from games import services, state_store
from games.hexland import engine as hexland
from games.hexland.engine.state import PHASES, TIMER_PRESETS

pytestmark = pytest.mark.django_db

CONFIG = {"players": 2, "timers": "fast", "layout": "fixed"}
SETUP, TURN, DISCARD = (timedelta(seconds=s) for s in TIMER_PRESETS["fast"])
THINK = timedelta(seconds=3)  # how long each move takes on the frozen clock


class FrozenClock:
    def __init__(self):
        self.now = datetime(2030, 1, 7, 12, 0, tzinfo=tz.utc)

    def advance(self, delta: timedelta = THINK) -> datetime:
        self.now += delta
        return self.now


@pytest.fixture
def clock(monkeypatch) -> FrozenClock:
    frozen = FrozenClock()
    monkeypatch.setattr(timezone, "now", lambda: frozen.now)
    return frozen


def scripted_move(state, traded: bool) -> tuple[int, dict]:
    """A fixed way to play: the first legal move, except that turns end at once, the first
    possible trade offer is made (once) and declined."""
    phase = PHASES[state.phase]
    if phase == "trade":
        return next(q for q in sorted(hexland.actors(state)) if q != state.cur), {"type": "decline"}
    if phase == "main":
        offers = [m for m in hexland.legal_moves(state, state.cur) if m["type"] == "offer"]
        return state.cur, offers[0] if offers and not traded else {"type": "end_turn"}
    seat = min(hexland.actors(state))
    return seat, hexland.legal_moves(state, seat)[0]


def seed_with_two_discarders() -> int:
    """A seed whose scripted game, after its trade, rolls a 7 that makes both players discard
    (so the first discard alone must not resume the mover's clock)."""
    for seed in range(200):
        state, traded = hexland.new_state(CONFIG, seed), False
        for _ in range(300):
            seat, move = scripted_move(state, traded)
            traded = traded or move["type"] == "offer"
            state = hexland.apply(state, seat, move)
            if PHASES[state.phase] == "discard":
                if traded and all(state.need):
                    return seed
                break
    raise AssertionError("no seed gives the scenario; the script needs another look")


class Table:
    """A Hexland game of Ana (seat 0) and Bo (seat 1), created and started through services."""

    def __init__(self, ana, bo, seed: int):
        self.users = {0: ana, 1: bo}
        self.game = services.create_game(kind="hexland", config=CONFIG, created_by=ana, players=[ana, bo],
                                         join=False, seed=seed)
        services.start_game(game_id=self.game.pk)
        self.game.refresh_from_db()
        self.traded = False

    @property
    def state(self):
        return state_store.load(self.game)

    @property
    def deadline(self) -> datetime:
        return self.game.deadline_at

    def play_next(self) -> dict:
        seat, move = scripted_move(self.state, self.traded)
        self.traded = self.traded or move["type"] == "offer"
        services.submit_move(game_id=self.game.pk, user=self.users[seat], move=move,
                             expected_version=self.game.version)
        self.game.refresh_from_db()
        return move

    def phase(self) -> str:
        return PHASES[self.state.phase]


def play_until_the_discard(table: Table, clock: FrozenClock) -> datetime:
    """Play the script, checking every clock on the way, up to the roll of 7 that makes both
    players discard. Returns the deadline the mover's turn had when the 7 was rolled."""
    assert table.deadline == clock.now + SETUP
    seen = set()
    while True:
        before = table.deadline
        phase = table.phase()
        now = clock.advance()
        move = table.play_next()
        kind = move["type"]
        if kind == "place_settlement":  # the road of the same placement is still to come
            assert table.deadline == before
        elif kind == "place_road":
            assert table.deadline == now + (SETUP if table.phase().startswith("setup") else TURN)
        elif kind == "end_turn":
            assert table.deadline == now + TURN
        elif kind == "offer":
            assert table.deadline == before and table.game.awaiting == [0, 1]  # the answer is awaited too
        elif kind == "decline":
            assert table.phase() == "main" and table.deadline == before  # no fresh clock for the mover
        elif kind == "roll" and table.phase() == "discard":
            assert table.deadline == now + DISCARD
            assert table.game.clock["suspended"]["remaining"] == (before - now).total_seconds()
            assert table.game.awaiting == [0, 1]
            assert {"setup", "trade", "turn"} <= seen
            return before
        else:
            assert phase in ("roll", "robber") and table.deadline == before, (kind, phase)
        seen.add("setup" if phase.startswith("setup") else "trade" if kind in ("offer", "decline") else "turn")


def test_after_the_discards_the_mover_resumes_with_the_time_it_had_left(make_user, clock):
    table = Table(make_user("ana"), make_user("bo"), seed_with_two_discarders())
    turn_deadline = play_until_the_discard(table, clock)
    rolled_at = clock.now
    discard_deadline = table.deadline
    while table.phase() == "discard":
        clock.advance()
        before = table.deadline
        table.play_next()
        if table.phase() == "discard":
            assert table.deadline == before == discard_deadline  # one discarder is done, not both
    # Back on the mover's clock: the time it had left, from now (not a fresh 60 s).
    assert table.phase() == "robber"
    assert table.deadline == clock.now + (turn_deadline - rolled_at)
    assert table.deadline == turn_deadline + (clock.now - rolled_at)
    assert table.deadline < clock.now + TURN
    assert table.game.clock["suspended"] is None


def test_discards_that_time_out_give_the_mover_back_the_time_it_had_left(make_user, clock):
    table = Table(make_user("ana"), make_user("bo"), seed_with_two_discarders())
    turn_deadline = play_until_the_discard(table, clock)
    rolled_at = clock.now
    late = table.deadline + timedelta(seconds=1)
    assert services.apply_timeouts(game_id=table.game.pk, now=late) == 2  # both discards, by the rules
    table.game.refresh_from_db()
    assert table.phase() == "robber"
    assert table.deadline == late + (turn_deadline - rolled_at)
    assert services.apply_timeouts(game_id=table.game.pk, now=late) == 0  # not due again
