"""Rebuilding a game's state: replay of its events through the engine, with a cache.

States are cached by (game, version) in a small process-local LRU in front of the shared
Django cache (Redis). Engines never mutate a state they are given, so a cached object may be
handed out as is. Only committed states are cached (the writer stores them on commit).

Cached states are pickles, so the key carries the engine's module and ``ENGINE_VERSION``: a new
engine version never reads an old state, and a pickle that no longer loads (a renamed class) is
a cache miss, replayed from the events.
"""
from __future__ import annotations

import json
import logging
import math
import pickle
from collections import OrderedDict
from threading import Lock
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext as _
from redis.exceptions import RedisError

from games.errors import BadMove
from games.models import Game, MoveEvent
from games.protocol import Engine
from games.sites import get_engine, get_site

logger = logging.getLogger(__name__)

_local: OrderedDict[str, Any] = OrderedDict()
_local_lock = Lock()
SHARED_TTL_SECONDS = 6 * 3600


def _key(game: Game, version: int) -> str:
    # The creation time makes the key unique even if a database is recreated and ids repeat.
    engine = get_engine(game.kind)
    created = int(game.created_at.timestamp() * 1_000_000)
    return f"game-state:{engine.name}:{engine.ENGINE_VERSION}:{game.pk}:{created}:{version}"


def _remember_locally(key: str, state: Any) -> None:
    with _local_lock:
        _local[key] = state
        _local.move_to_end(key)
        while len(_local) > settings.GAME_STATE_LOCAL_CACHE_SIZE:
            _local.popitem(last=False)


def remember(game: Game, version: int, state: Any) -> None:
    """Cache a committed state in both layers."""
    key = _key(game, version)
    _remember_locally(key, state)
    try:
        cache.set(key, pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL), SHARED_TTL_SECONDS)
    except RedisError as error:  # Redis away: the state is replayed from the events when needed
        logger.warning("state cache unavailable (%s); %s not shared", error, key)


def cached(game: Game, version: int) -> Any | None:
    key = _key(game, version)
    with _local_lock:
        state = _local.get(key)
    if state is not None:
        return state
    try:
        blob = cache.get(key)
    except RedisError as error:  # Redis away: a miss, replayed from the events
        logger.warning("state cache unavailable (%s); replaying %s", error, key)
        return None
    if blob is None:
        return None
    try:
        state = pickle.loads(blob)
    except Exception:  # an engine class renamed or moved since: replay instead
        logger.warning("cached state %s no longer loads; replaying", key)
        return None
    _remember_locally(key, state)
    return state


def forget_local() -> None:
    """Drop the process-local layer (tests and benchmarks)."""
    with _local_lock:
        _local.clear()


def apply_event(engine: Engine, state: Any, seat: int | None, kind: str, payload: dict) -> Any:
    """One stored event through the engine. A timeout replays the decision it stored (old
    timeout events, stored empty, replay the engine's timeout rule)."""
    if kind == MoveEvent.Kind.STAFF:  # a staff decision ends a game; it moves nothing
        return state
    if kind == MoveEvent.Kind.TIMEOUT:
        return engine.apply_timeout(state, seat, payload)
    return engine.apply(state, seat, payload)


def effective_events(game: Game, upto: int | None = None) -> list[tuple[int | None, str, dict]]:
    """The events that make the position: an ``undo`` event takes back the latest of them."""
    events = MoveEvent.objects.filter(game_id=game.pk).order_by("seq")
    if upto is not None:
        events = events.filter(seq__lte=upto)
    effective: list[tuple[int | None, str, dict]] = []
    for seat, kind, payload in events.values_list("seat", "kind", "payload").iterator():
        if kind == MoveEvent.Kind.STAFF:  # a staff decision ends a game; it moves nothing
            continue
        if kind == MoveEvent.Kind.UNDO:
            effective.pop()
        else:
            effective.append((seat, kind, payload))
    return effective


def replay_events(game: Game, events: list[tuple[int | None, str, dict]]) -> Any:
    engine = get_engine(game.kind)
    state = engine.new_state(game.config, game.seed)
    for seat, kind, payload in events:
        state = apply_event(engine, state, seat, kind, payload)
    return state


def state_before_last_move(game: Game, pending: list[MoveEvent] = ()) -> Any:
    """The position without the latest effective move (what an undo event leads to);
    ``pending`` are events of the same write, not yet stored."""
    effective = effective_events(game)
    for row in pending:
        if row.kind == MoveEvent.Kind.UNDO:
            effective.pop()
        else:
            effective.append((row.seat, row.kind, row.payload))
    if not effective:
        raise BadMove(_("There is no move to undo."))
    return replay_events(game, effective[:-1])


def check_storable(game: Game, engine: Engine, state: Any, seats: set[int | None]) -> None:
    """Refuse a state whose views cannot be shown: a spectator's view and those of the seats
    that acted must be strict JSON, and the game's site may check more (its board must draw).
    A move that would poison a game is refused before its event is stored: events cannot be
    repaired. (What the seats that did not act see changed only as the spectator's did.)"""
    check = get_site(game.kind).check_view
    try:
        public = engine.view(state, None)
        # Without the encoder's check for cycles (a dict of every container's id): a cycle still
        # fails, as a RecursionError. A sixth less time at 100 seats, under the game's lock.
        json.dumps(public, allow_nan=False, check_circular=False)
        for seat in [None, *sorted(seats - {None})]:
            view = public if seat is None else engine.view(state, seat)
            if seat is not None:
                check_strict_json(view, checked=public)
            if check is not None:
                check(view)
    except Exception as exc:
        logger.warning("refused a state of game %s whose views cannot be shown: %r", game.pk, exc)
        raise BadMove(_("That move cannot be shown on the board, so it was not played.")) from None


_PLAIN = (str, int, bool, type(None))


def check_strict_json(value: Any, checked: Any = None) -> None:
    """Raise as ``json.dumps(value, allow_nan=False)`` would, but skip the parts of ``value`` that
    are the very objects at the same place in ``checked``, a value that passed already: a seat's
    view shares most of its parts with the spectator's, and at 100 seats each is 200 KB of JSON,
    checked under the game's lock on every move."""
    kind = type(value)
    if kind in _PLAIN:
        return
    if kind is float:
        if not math.isfinite(value):
            raise ValueError(f"{value!r} is not strict JSON")
        return
    if kind is dict and type(checked) is dict:
        for key in value:  # a key that is not a plain str is checked as the encoder would
            if type(key) is not str:
                json.dumps({key: None}, allow_nan=False)
        missing = object()
        for key, item in value.items():
            same_place = checked.get(key, missing)
            if item is not same_place:
                check_strict_json(item, None if same_place is missing else same_place)
        return
    if kind in (list, tuple) and type(checked) in (list, tuple) and len(checked) == len(value):
        for item, same_place in zip(value, checked):
            if item is not same_place:
                check_strict_json(item, same_place)
        return
    json.dumps(value, allow_nan=False)


def replay(game: Game, upto: int | None = None) -> Any:
    """The state after the first ``upto`` events (all of them by default), from scratch."""
    return replay_events(game, effective_events(game, upto))


def load(game: Game) -> Any:
    """The state at ``game.version``: from the cache, else replayed (and then cached)."""
    if game.status == Game.Status.OPEN:
        return get_engine(game.kind).new_state(game.config, game.seed)
    state = cached(game, game.version)
    if state is None:
        state = replay(game)
        remember(game, game.version, state)
    return state
