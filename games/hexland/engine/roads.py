"""Longest Road: the longest trail of one player's roads.

A trail uses each road segment at most once (corners may repeat, so a closed loop counts in
full, as in the base game) and never passes *through* a corner that holds an opponent's
building: it may end there.  Only the players a move touches are recomputed (see
``rules._put_road`` / ``rules._put_settlement``).
"""
from __future__ import annotations

from games.hexland.engine.board import EDGE_BIT, EDGE_NODES, NUM_EDGES


def longest_road(road: list, bld: list, p: int, within: int = -1) -> int:
    """Length of player ``p``'s longest trail given the road owners and buildings; with
    ``within`` (an edge of p's), only in the network holding that edge."""
    edges = [e for e in range(NUM_EDGES) if road[e] == p]
    count = len(edges)
    if count <= 1:
        return count
    adj: dict[int, list] = {}
    for e in edges:
        a, b = EDGE_NODES[e]
        bit = EDGE_BIT[e]
        adj.setdefault(a, []).append((bit, b))
        adj.setdefault(b, []).append((bit, a))
    # corners a trail may end at but not pass through
    stop = {x for x in adj if bld[x] != -1 and bld[x] & 3 != p}

    def walk(x: int, used: int) -> int:
        """The longest trail from corner x on, using none of the ``used`` edges."""
        best = 0
        for bit, y in adj[x]:
            if not used & bit:
                n = 1 if y in stop else 1 + walk(y, used | bit)
                if n > best:
                    best = n
        return best

    best = 0
    seen: set[int] = set()
    for root in ((EDGE_NODES[within][0],) if within != -1 else adj):
        if root in seen:
            continue
        comp, todo = [], [root]
        seen.add(root)
        while todo:
            x = todo.pop()
            comp.append(x)
            for _, y in adj[x]:
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        size = sum(len(adj[x]) for x in comp) // 2
        # A longest trail starts at a dead end, a corner of odd degree or a blocked corner;
        # a network with none of those is a plain loop, where any corner will do.
        for x in [x for x in comp if len(adj[x]) != 2 or x in stop] or comp[:1]:
            n = walk(x, 0)
            if n > best:
                best = n
            if n == size:       # the whole network in one trail: nothing longer here
                break
    return best
