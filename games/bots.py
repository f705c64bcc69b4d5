"""Choosing an AI seat's move from that seat's view only (never the state)."""
from __future__ import annotations

import importlib
from typing import Any

from games.engines import get_engine


def _ai_module(kind: str):
    engine = get_engine(kind)
    return importlib.import_module(f"{engine.__name__}.ai")


def choose_move(kind: str, view: dict, level: str) -> dict[str, Any]:
    """Every engine's ``ai`` module offers ``choose_move(view, level) -> move``."""
    return _ai_module(kind).choose_move(view, level)
