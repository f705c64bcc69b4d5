"""Standard competition ranking ("1224"), shared by every table of the site."""
from __future__ import annotations

from typing import Hashable, Sequence


def competition_ranks(keys: Sequence[Hashable]) -> list[int]:
    """Ranks for rows already sorted best first: equal keys share the better rank."""
    ranks: list[int] = []
    for position, key in enumerate(keys, start=1):
        ranks.append(ranks[-1] if ranks and key == keys[position - 2] else position)
    return ranks


def resigned_rank_last(result: dict, resigned: Sequence[Sequence[int]]) -> dict:
    """The game's result with resignations counted (docs/architecture.md, "Seats, leaving").

    ``result``: the engine's, at least ``ranks`` by seat; ``resigned``: the seats that resigned
    in the order they did, seats that resigned at the same moment together (``[[2], [0]]``: 2
    first, then 0). Players who did not resign keep their order among themselves, above every
    player who resigned; those rank among themselves by when they resigned, the last to resign
    highest: after a resignation the AI plays the seat, so its points are the AI's, and how long
    the player stayed is all that was theirs. ``winner`` (a seat or None) and ``winners`` (a list),
    where the engine gives them, name the seats ranked first that did not resign: nobody when
    every seat resigned or when several share the first place (``winner``). ``resigned`` lists
    the seats that resigned."""
    old = list(result["ranks"])
    gone = {seat for group in resigned for seat in group}
    stayed = [seat for seat in range(len(old)) if seat not in gone]
    later = {seat: sum(len(group) for group in resigned[position + 1:])
             for position, group in enumerate(resigned) for seat in group}
    ranks = [1 + sum(old[other] < old[seat] for other in stayed) if seat not in gone
             else len(stayed) + 1 + later[seat] for seat in range(len(old))]
    first = [seat for seat in stayed if ranks[seat] == 1]
    ranked = {**result, "ranks": ranks, "resigned": sorted(gone)}
    if "winner" in result:
        ranked["winner"] = first[0] if len(first) == 1 else None
    if "winners" in result:
        ranked["winners"] = first
    return ranked
