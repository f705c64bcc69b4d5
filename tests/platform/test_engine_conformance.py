"""Every registered engine, played to the end through the protocol (the ``Engine`` wrapper the
platform uses), with hypothesis choosing the seed, the config and every choice.

At every position: each seat's view and a spectator's are strict JSON; the turn and clock
keys are JSON; ``seconds_for`` is None or a positive whole number; a game not over awaits
someone, and each awaited seat may time out, the same way through ``timeout_move`` as through
a stored resolution (``resolve_timeout`` + ``apply_timeout``) that went through JSON; moves
from ``legal_moves`` apply after a trip through JSON, and what they mean (``move_context``)
is JSON; nonsense is refused with IllegalMove;
nothing mutates the state it was given. At some positions every AI level is asked for a move
from a view, and it must be legal. At the end: ``result`` has a score and a rank per seat.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.protocol import Engine, IllegalMove
from games.sites import get_engine, site_kinds

ANY_SEAT = None  # a spectator


@dataclass(frozen=True)
class Plan:
    """How to play one game in bounded time."""

    configs: st.SearchStrategy = st.just({})
    examples: int = 5
    max_steps: int = 400  # a game still running after this many moves fails: it must end
    checked_steps: int | None = None  # positions checked (None: all); long games play on unchecked
    ai_positions: int = 3  # positions per game where every AI level is asked
    typical_steps: int = 20  # about how long a game is: bots are asked within it
    timeout_share: float = 0.15  # steps played by a timeout instead of a move
    # Awaited seats whose timeout is checked at each position (None: all of them). One, drawn
    # afresh each time, still reaches every seat of a round where a timeout runs a bot.
    timeouts_checked: int | None = None
    # Picks the move of a seat (None: a random legal move). Long games use a quick bot.
    mover: Callable[[Engine, Any, int, random.Random], dict] | None = None


def _hexland_mover(engine: Engine, state, seat: int, rng: random.Random) -> dict:
    # Mostly the quick weighted bot (it builds, so games end); now and then any legal move,
    # trade offers included, so trades and their answers are played too.
    view = engine.module.view(state, seat, log_tail=0)  # the bot reads no log
    if rng.random() < 0.15 or not any(m["type"] != "offer" for m in view["legal_moves"]):
        return rng.choice(engine.legal_moves(state, seat))
    return engine.ai.decide(view, "weighted", rng)


PLANS = {
    "hextension": Plan(
        configs=st.fixed_dictionaries({"players": st.integers(2, 3), "tiles_per_round": st.integers(1, 3)}),
        examples=5, max_steps=300, ai_positions=2, typical_steps=30, timeouts_checked=1,
    ),
    "hexland": Plan(
        # A low target and discard limit keep games short and make discards common.
        configs=st.fixed_dictionaries({
            "players": st.integers(2, 4),
            "layout": st.sampled_from(["random", "spiral", "fixed"]),
            "timers": st.sampled_from(["fast", "normal", "correspondence"]),
            "vp_to_win": st.integers(3, 5),
            "discard_limit": st.integers(0, 7),
        }),
        # Views render the whole log, so late positions cost more: check the first 150.
        examples=6, max_steps=4000, checked_steps=150, ai_positions=6, typical_steps=150, timeout_share=0.08,
        mover=_hexland_mover,
    ),
    # The hint bot thinks for up to a second: ask it at one position per game.
    "hextremadura": Plan(examples=4, max_steps=60, ai_positions=1, typical_steps=19),
    "toy": Plan(
        configs=st.fixed_dictionaries({"players": st.integers(2, 4), "target": st.integers(1, 20)}),
        examples=20, max_steps=60, ai_positions=1, typical_steps=5,
    ),
}
KINDS = [*site_kinds(), "toy"]  # every game on the site, and the platform tests' toy


def strict_json(value: Any) -> Any:
    """``value`` after a trip through strict JSON; it must come back equal."""
    back = json.loads(json.dumps(value, allow_nan=False))
    assert back == value, f"{difference(value, back)} does not survive JSON (a tuple, a non-string key?)"
    return back


def difference(value: Any, back: Any, path: str = "") -> str:
    """Where ``value`` and its JSON copy first differ, e.g. ``["dice"]: (4, 5)``."""
    if isinstance(value, dict) and isinstance(back, dict) and len(value) == len(back):
        for (key, item), (_, other) in zip(value.items(), back.items()):
            if item != other or key != _:
                return difference(item, other, f"{path}[{key!r}]")
    if isinstance(value, list) and isinstance(back, list) and len(value) == len(back):
        for index, (item, other) in enumerate(zip(value, back)):
            if item != other:
                return difference(item, other, f"{path}[{index}]")
    return f"{path or 'the value'}: {value!r}"[:300]


def all_views(engine: Engine, state, seats: int) -> list[dict]:
    return [engine.view(state, seat) for seat in [*range(seats), ANY_SEAT]]


def check_keys_and_clock(engine: Engine, state, config: dict) -> None:
    strict_json(engine.turn_key(state))
    strict_json(engine.clock_key(state))
    for default in (60, None):
        seconds = engine.seconds_for(state, config, default)
        assert seconds is None or (type(seconds) is int and seconds > 0), seconds


def check_timeout(engine: Engine, state, seat: int, seats: int) -> None:
    """A timeout is legal, and replaying its stored resolution gives the same position."""
    direct = engine.timeout_move(state, seat)
    resolution = engine.resolve_timeout(state, seat)
    assert isinstance(resolution, dict)
    stored = strict_json(resolution)
    replayed = engine.apply_timeout(state, seat, stored)
    assert all_views(engine, direct, seats) == all_views(engine, replayed, seats)


def check_moves(engine: Engine, state, seat: int, rng: random.Random) -> None:
    legal = engine.legal_moves(state, seat)
    assert legal, f"seat {seat} may act but has no legal move"
    strict_json(legal)
    for move in rng.sample(legal, min(3, len(legal))):
        assert isinstance(move, dict) and isinstance(move.get("type"), str)
        engine.apply(state, seat, json.loads(json.dumps(move)))
        # What a move means (for a move chosen at an older version) is JSON, and at the same
        # position the same: an engine with ``move_context`` plays such a move, others do not.
        strict_json(engine.move_context(state, seat, move))
        assert engine.still_meant(state, state, seat, move) == engine.has_move_context
    with pytest.raises(IllegalMove):
        engine.apply(state, seat, {"type": "no-such-move"})


def check_bots(engine: Engine, state, seat: int) -> None:
    for level in engine.ai_levels():
        move = engine.choose_move(engine.view(state, seat), level)
        engine.apply(state, seat, strict_json(move))


def check_position(engine: Engine, plan: Plan, state, config: dict, seats: int, rng: random.Random,
                   ask_bots: bool) -> None:
    views = all_views(engine, state, seats)
    for view in views:
        strict_json(view)
    check_keys_and_clock(engine, state, config)
    actors = engine.actors(state)
    awaited = engine.waiting_for(state)
    assert set(awaited) <= set(actors) <= set(range(seats))
    for seat in set(range(seats)) - set(actors):
        assert engine.legal_moves(state, seat) == []
    if engine.is_over(state):
        assert not actors
        return
    assert awaited, "a game that is not over must wait for someone, or its clock never runs out"
    assert engine.result(state) is None
    for seat in rng.sample(awaited, min(len(awaited), plan.timeouts_checked or len(awaited))):
        check_timeout(engine, state, seat, seats)
    for seat in sorted(actors):
        check_moves(engine, state, seat, rng)
    if ask_bots:
        check_bots(engine, state, rng.choice(awaited))
    assert all_views(engine, state, seats) == views, "something mutated the state it was given"


def next_state(engine: Engine, plan: Plan, state, rng: random.Random):
    if rng.random() < plan.timeout_share:
        return engine.timeout_move(state, rng.choice(engine.waiting_for(state)))
    seat = rng.choice(sorted(engine.actors(state)))
    if plan.mover is not None:
        move = plan.mover(engine, state, seat, rng)
    else:
        move = rng.choice(engine.legal_moves(state, seat))
    return engine.apply(state, seat, json.loads(json.dumps(move)))


def play_to_the_end(engine: Engine, plan: Plan, config: dict, seed: int, rng: random.Random) -> None:
    seats = engine.seat_count(config)
    state = engine.new_state(config, seed)
    bot_steps = set(rng.sample(range(plan.typical_steps), plan.ai_positions))
    checked = plan.max_steps if plan.checked_steps is None else plan.checked_steps
    for step in range(plan.max_steps):
        if step < checked or engine.is_over(state):
            check_position(engine, plan, state, config, seats, rng, ask_bots=step in bot_steps)
        if engine.is_over(state):
            break
        state = next_state(engine, plan, state, rng)
    else:
        pytest.fail(f"{engine.KIND} did not end within {plan.max_steps} moves")
    result = strict_json(engine.result(state))
    assert len(result["scores"]) == seats and len(result["ranks"]) == seats
    assert min(result["ranks"]) == 1 and all(1 <= rank <= seats for rank in result["ranks"])
    for seat in range(seats):
        with pytest.raises(IllegalMove):
            engine.apply(state, seat, {"type": "no-such-move"})


@pytest.mark.parametrize("kind", KINDS)
def test_every_engine_plays_to_the_end_through_the_protocol(kind):
    plan = PLANS.get(kind, Plan())  # a new game gets the default plan: its default config
    engine = get_engine(kind)

    @settings(max_examples=plan.examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(config=plan.configs, seed=st.integers(0, 2**63 - 1), choices=st.integers(0, 2**32))
    def play(config, seed, choices):
        # Every choice of the playout comes from ``choices``: one number replays the game.
        play_to_the_end(engine, plan, config, seed, random.Random(choices))

    play()


def test_a_game_still_awaits_someone_after_a_seven_that_leaves_nothing_to_discard():
    """Found by the playouts above: with a discard limit of 0, a 7 rolled while every hand
    held one card (half of which is none) left Hexland discarding with nobody to wait for."""
    from tests.engines.hexland.helpers import next_roll, position

    engine = get_engine("hexland")
    state = position(players=2, settlements={0: [10], 1: [40]}, hands={0: {"wood": 1}, 1: {"ore": 1}},
                     rolled=False, discard_limit=0)
    state = engine.apply(next_roll(state, 7), 0, {"type": "roll"})
    assert engine.view(state, 0)["phase"] == "robber"
    assert engine.waiting_for(state) == [0]
