"""The engine protocol: what every game's ``engine`` package offers, and the defaults of its
optional hooks, in one place. Pure Python: engines import ``IllegalMove`` from here, so this
module must never import Django.

Required, module-level in ``games/<game>/engine/__init__.py`` (names fixed; see
ARCHITECTURE.md, "The engine protocol")::

    KIND, TITLE                                 registry key, human name
    seat_count(config) -> int
    new_state(config, seed) -> State            all chance from ``seed``, carried in the state
    actors(state) -> set[int]                   who may act now
    legal_moves(state, seat) -> list[dict]
    apply(state, seat, move) -> State           never mutates ``state``; IllegalMove if refused
    timeout_move(state, seat) -> State          what the rules do when the seat's time runs out
    view(state, seat | None) -> dict            JSON-serialisable; None is a spectator
    is_over(state) -> bool
    result(state) -> dict | None                at least ``scores`` and ``ranks`` (by seat)

and ``engine/ai.py`` with ``choose_move(view, level) -> move`` (``AI_LEVELS`` lists the levels),
and optionally ``warm_up()``: load or compile what the bots need (a JIT), run once when a Celery
worker process starts, so the first move or timeout in that process is not the one that pays.

Optional hooks, with the defaults ``Engine`` below supplies when an engine leaves them out:

    ENGINE_VERSION = "1"                        part of the state cache's key
    SIMULTANEOUS_TURNS = False                  every seat acts at once (a round)
    MOVE_SCHEMA = None                          the shape a move must have: a JSON Schema dict
                                                (``engine/schema.py``), checked at the edge and in
                                                ``submit_move`` (games.move_input); with None the
                                                platform refuses nothing game-specific, only what
                                                is not plain storable JSON (size, depth, NaN, NUL)
    VIEW_SCHEMA = None                          the shape of ``view(state, seat)`` for a seat or a
                                                spectator: a JSON Schema dict (``engine/schema.py``)
                                                that the API's OpenAPI document gives for a game's
                                                view; with None the document says only "an object"
    turn_key(state)                             changes exactly when a new turn or round begins;
                                                default: the set of actors
    waiting_for(state) -> set[int]              seats awaited (and timed out); default: actors
    clock_key(state)                            what the running clock belongs to; a change of
                                                key starts a new clock, and coming back to a key
                                                that was interrupted resumes its time (a discard
                                                inside a turn); default: turn_key
    seconds_for(state, config, default) -> int | None
                                                how long the current phase may last; default:
                                                the game's own ``default`` (its turn seconds)
    resolve_timeout(state, seat) -> dict        the decision a timeout makes, as JSON, stored in
                                                the timeout event so replay never runs a bot;
                                                default: {} (the engine's timeout is plain rules)
    apply_timeout(state, seat, resolution) -> State
                                                replay of a stored timeout; an empty resolution
                                                (old events, or the default) calls
                                                legacy_timeout_move, else timeout_move
    legacy_timeout_move(state, seat) -> State   what timeout_move did when timeout events were
                                                stored empty, for an engine whose timeout rule
                                                has changed since (a stronger bot): old games
                                                replay unchanged; default: timeout_move
    move_context(state, seat, move) -> JSON     what the move means at this position (the turn,
                                                the phase, the offer it answers): a move chosen
                                                at an older version is still played when its
                                                context there equals its context now, and then
                                                only if it is legal; default: none, so a move
                                                from an older version is refused as stale
    stale_message(old, new, seat, move) -> str | None
                                                the sentence a player reads when their move's
                                                context changed ("That offer has changed…");
                                                default: None (the platform's generic sentence)
"""
from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any

__all__ = ["IllegalMove", "Engine", "REQUIRED", "jsonable_key"]


class IllegalMove(ValueError):
    """A move the rules refuse. ``str(exc)`` is a sentence a player can read."""


REQUIRED = ("KIND", "TITLE", "seat_count", "new_state", "actors", "legal_moves", "apply",
            "timeout_move", "view", "is_over", "result")


def jsonable_key(key: Any) -> Any:
    """A turn or clock key as plain JSON, so it can be stored and compared after a reload."""
    if isinstance(key, (set, frozenset)):
        return sorted(jsonable_key(k) for k in key)
    if isinstance(key, (list, tuple)):
        return [jsonable_key(k) for k in key]
    return key


def _plain_json(value: Any) -> str:
    """A move context as canonical JSON text, so contexts compare the same however they were
    built (a tuple or a list, keys in any order); a context that is not JSON raises."""
    return json.dumps(value, sort_keys=True, allow_nan=False, separators=(",", ":"))


class Engine:
    """An engine package seen through the protocol: its required functions as they are, and
    every optional hook with its default. The platform calls only this, never ``getattr``."""

    def __init__(self, module: ModuleType):
        missing = [name for name in REQUIRED if not hasattr(module, name)]
        if missing:
            raise TypeError(f"{module.__name__} lacks {', '.join(missing)} of the engine protocol")
        self.module = module
        self.name = module.__name__
        for name in REQUIRED:
            setattr(self, name, getattr(module, name))
        self.ENGINE_VERSION = str(getattr(module, "ENGINE_VERSION", "1"))
        self.SIMULTANEOUS_TURNS = bool(getattr(module, "SIMULTANEOUS_TURNS", False))
        self.MOVE_SCHEMA = getattr(module, "MOVE_SCHEMA", None)
        self.VIEW_SCHEMA = getattr(module, "VIEW_SCHEMA", None)
        self._ai: ModuleType | None = None

    def __repr__(self) -> str:
        return f"<Engine {self.KIND} ({self.name})>"

    # --- optional hooks with their defaults ---------------------------------------------------

    def turn_key(self, state) -> Any:
        hook = getattr(self.module, "turn_key", None)
        return jsonable_key(hook(state) if hook else frozenset(self.actors(state)))

    def waiting_for(self, state) -> list[int]:
        hook = getattr(self.module, "waiting_for", None)
        return sorted(hook(state) if hook else self.actors(state))

    def clock_key(self, state) -> Any:
        hook = getattr(self.module, "clock_key", None)
        return jsonable_key(hook(state)) if hook else self.turn_key(state)

    def seconds_for(self, state, config: dict, default: int | None) -> int | None:
        hook = getattr(self.module, "seconds_for", None)
        return hook(state, config, default) if hook else default

    def resolve_timeout(self, state, seat: int) -> dict:
        hook = getattr(self.module, "resolve_timeout", None)
        return hook(state, seat) if hook else {}

    def apply_timeout(self, state, seat: int, resolution: dict | None):
        hook = getattr(self.module, "apply_timeout", None)
        if hook and resolution:
            return hook(state, seat, resolution)
        legacy = getattr(self.module, "legacy_timeout_move", None)
        return legacy(state, seat) if legacy else self.timeout_move(state, seat)

    @property
    def has_move_context(self) -> bool:
        """Does the engine say what a move means (``move_context``)? Else no stale move is played."""
        return hasattr(self.module, "move_context")

    def still_meant(self, old_state, new_state, seat: int, move: dict) -> bool:
        """Does ``move``, chosen by ``seat`` at ``old_state`` (the position its page showed),
        mean at ``new_state`` what it meant there? Only an engine that says what a move means
        (``move_context``) lets a move from an older position through; without it: False, so a
        move chosen at another version is refused as stale. (Legality is checked after this.)"""
        hook = getattr(self.module, "move_context", None)
        if hook is None:
            return False
        return _plain_json(hook(old_state, seat, move)) == _plain_json(hook(new_state, seat, move))

    def move_context(self, state, seat: int, move: dict) -> Any:
        """The engine's ``move_context`` as plain JSON (tuples as lists); None without the hook."""
        hook = getattr(self.module, "move_context", None)
        return json.loads(_plain_json(hook(state, seat, move))) if hook else None

    def stale_message(self, old_state, new_state, seat: int, move: dict) -> str | None:
        """The engine's own words for a move whose meaning changed, or None (the platform's)."""
        hook = getattr(self.module, "stale_message", None)
        return hook(old_state, new_state, seat, move) if hook else None

    # --- the bots beside the engine -------------------------------------------------------------

    @property
    def ai(self) -> ModuleType:
        if self._ai is None:
            self._ai = importlib.import_module(f"{self.name}.ai")
        return self._ai

    def choose_move(self, view: dict, level: str) -> dict:
        return self.ai.choose_move(view, level)

    def ai_levels(self) -> tuple[str, ...]:
        return tuple(getattr(self.ai, "AI_LEVELS", ()))

    def warm_up(self) -> None:
        hook = getattr(self.ai, "warm_up", None)
        if hook:
            hook()


def load_engine(module_path: str) -> Engine:
    return Engine(importlib.import_module(module_path))
