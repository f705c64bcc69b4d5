"""Standard competition ranking ("1224"), shared by every table of the site."""
from __future__ import annotations

from typing import Hashable, Sequence


def competition_ranks(keys: Sequence[Hashable]) -> list[int]:
    """Ranks for rows already sorted best first: equal keys share the better rank."""
    ranks: list[int] = []
    for position, key in enumerate(keys, start=1):
        ranks.append(ranks[-1] if ranks and key == keys[position - 2] else position)
    return ranks
