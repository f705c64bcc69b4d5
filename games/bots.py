"""Choosing an AI seat's move from that seat's view only (never the state)."""
from __future__ import annotations

import importlib
from typing import Any, Callable

from games.engines import get_engine


def _ai_module(kind: str):
    engine = get_engine(kind)
    return importlib.import_module(f"{engine.__name__}.ai")


def _hextension_move(view: dict, level: str) -> dict[str, Any]:
    from games.engines.hextension import ai

    board = view["seats"][view["seat"]]["board"]
    placements = ai.place(board, view["drawn"], level, seen=view["earlier"])
    return {"type": "place", "placements": placements}


# Engines whose AI has its own entry point; every other engine's ``ai.choose_move(view, level)``.
_ADAPTERS: dict[str, Callable[[dict, str], dict]] = {"hextension": _hextension_move}


def choose_move(kind: str, view: dict, level: str) -> dict[str, Any]:
    adapter = _ADAPTERS.get(kind)
    if adapter is not None:
        return adapter(view, level)
    return _ai_module(kind).choose_move(view, level)
