"""Pieces of HTML drawn once and reused: a bounded, thread-safe map from a piece's key to its
HTML, for parts of pages and pushes that many viewers see alike (a game's site keeps its own,
such as its boards' repeated parts).

A piece's key must hold all of what the piece shows, so the same key gives the same HTML
whoever asks: a piece can then never carry one viewer's private data to another.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable

from django.utils import translation


class Pieces:
    """A bounded, thread-safe map from a piece's key to its HTML (Daphne draws in threads)."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[Any, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key, draw: Callable[[], str]) -> str:
        key = (translation.get_language(), key)  # a piece's words are those of the active language
        with self._lock:
            html = self._items.get(key)
            if html is not None:
                self._items.move_to_end(key)
                return html
        html = draw()  # outside the lock: two threads may draw the same piece, never a wrong one
        with self._lock:
            self._items[key] = html
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return html

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
