"""Game engines: pure Python, no Django import, ever.

Every engine is a package ``games.engines.<kind>`` exposing the same module-level
functions (see ARCHITECTURE.md, "The engine protocol"):

    new_state(config, seed) -> State
    actors(state) -> set[int]
    legal_moves(state, seat) -> list[dict]
    apply(state, seat, move) -> State          (never mutates ``state``)
    timeout_move(state, seat) -> State
    view(state, seat | None) -> dict           (JSON-serialisable)
    is_over(state) -> bool
    result(state) -> dict | None

and the names ``IllegalMove`` (the one exception type for a refused move),
``KIND`` (the registry key), ``TITLE`` (a human name) and ``seat_count(config)``.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from games.engines.errors import IllegalMove

__all__ = ["IllegalMove", "get_engine", "register_engine", "site_engines"]

# Engines offered on the site: kind -> module path.
_SITE_ENGINES: dict[str, str] = {
    "hextension": "games.engines.hextension",
    "hextremadura": "games.engines.hextremadura",
    "hexland": "games.engines.hexland",
}
# Engines registered at run time (the test engine lives in tests/ and is never offered).
_EXTRA_ENGINES: dict[str, str] = {}


def register_engine(kind: str, module_path: str) -> None:
    """Make an engine known to the platform without offering it on the site."""
    _EXTRA_ENGINES[kind] = module_path


def get_engine(kind: str) -> ModuleType:
    """Return the engine module for ``kind``; KeyError when unknown."""
    path = _SITE_ENGINES.get(kind) or _EXTRA_ENGINES[kind]
    return importlib.import_module(path)


def site_engines() -> list[str]:
    return list(_SITE_ENGINES)
