"""The island: fixed topology (computed once at import) and per-game boards.

Topology
--------
19 pointy-topped land hexes in rows of 3, 4, 5, 4, 3, in cube coordinates (x, y, z) with
x + y + z = 0 and every coordinate in -2..2; z is the row (-2 at the top).  Every number
below is an index into the module-level tuples, identical for every game:

* hexes 0..18, row by row from the top, left to right;
* nodes (corners) 0..53, row by row from the top (by lattice y, then x);
* edges 0..71, sorted by their two node ids.

Lattice coordinates of a corner: ``(u, v)`` with ``x_px = u * sqrt(3)/2 * size`` and
``y_px = v * size / 2`` for a hex of circumradius ``size``; a hex centre sits at
``(x - y, 3 * z)``.  Renderers get these through ``TOPOLOGY``.

The nine harbours sit at the base game's fixed coastal places (the water hexes of the outer
frame, every second one, facing the land); each touches two coastal corners.

A :class:`Board` is one game's assignment of terrain, number tokens and harbour types to
that topology, plus tables derived from it for fast production.  Boards are immutable and
shared by every state of a game.
"""
from __future__ import annotations

import math
from typing import Callable

# -- resources ------------------------------------------------------------------------------
WOOD, BRICK, SHEEP, WHEAT, ORE = range(5)
RESOURCES = ("wood", "brick", "sheep", "wheat", "ore")
RES_INDEX = {name: i for i, name in enumerate(RESOURCES)}
TERRAIN = {"forest": WOOD, "hills": BRICK, "pasture": SHEEP, "fields": WHEAT,
           "mountains": ORE, "desert": None}
TERRAIN_OF = {WOOD: "forest", BRICK: "hills", SHEEP: "pasture", WHEAT: "fields",
              ORE: "mountains", None: "desert"}

TILE_SET = (WOOD,) * 4 + (SHEEP,) * 4 + (WHEAT,) * 4 + (BRICK,) * 3 + (ORE,) * 3 + (None,)
TOKEN_SET = (2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12)
SPIRAL_TOKENS = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)
# harbour kinds: a resource index (2:1) or None (generic 3:1)
HARBOUR_SET = (WOOD, BRICK, SHEEP, WHEAT, ORE, None, None, None, None)
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}

# -- topology -------------------------------------------------------------------------------
_CORNER_OFFSETS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))  # N NE SE S SW NW
_CUBE_DIRS = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))


def _centre(cube):
    x, y, z = cube
    return (x - y, 3 * z)


def _corners(cube):
    cx, cy = _centre(cube)
    return [(cx + dx, cy + dy) for dx, dy in _CORNER_OFFSETS]


HEX_CUBES = tuple(sorted(
    ((x, y, -x - y) for x in range(-2, 3) for y in range(-2, 3) if abs(x + y) <= 2),
    key=lambda c: (c[2], c[0] - c[1])))
_hex_corner_pts = [_corners(c) for c in HEX_CUBES]
NODE_POINTS = tuple(sorted({p for pts in _hex_corner_pts for p in pts},
                           key=lambda p: (p[1], p[0])))
_node_of = {p: i for i, p in enumerate(NODE_POINTS)}
HEX_NODES = tuple(tuple(_node_of[p] for p in pts) for pts in _hex_corner_pts)
EDGE_NODES = tuple(sorted({tuple(sorted((h[i], h[(i + 1) % 6])))
                           for h in HEX_NODES for i in range(6)}))
_edge_of = {e: i for i, e in enumerate(EDGE_NODES)}
NUM_HEXES, NUM_NODES, NUM_EDGES = len(HEX_CUBES), len(NODE_POINTS), len(EDGE_NODES)
assert (NUM_HEXES, NUM_NODES, NUM_EDGES) == (19, 54, 72)

HEX_EDGES = tuple(tuple(_edge_of[tuple(sorted((h[i], h[(i + 1) % 6])))] for i in range(6))
                  for h in HEX_NODES)
NODE_HEXES = tuple(tuple(h for h in range(NUM_HEXES) if n in HEX_NODES[h])
                   for n in range(NUM_NODES))
NODE_EDGES = tuple(tuple(e for e in range(NUM_EDGES) if n in EDGE_NODES[e])
                   for n in range(NUM_NODES))
NODE_NEIGHBOURS = tuple(tuple(EDGE_NODES[e][0] + EDGE_NODES[e][1] - n for e in NODE_EDGES[n])
                        for n in range(NUM_NODES))
# (edge, other node) pairs per node, for road walks
NODE_LINKS = tuple(tuple((e, EDGE_NODES[e][0] + EDGE_NODES[e][1] - n) for e in NODE_EDGES[n])
                   for n in range(NUM_NODES))
_cube_index = {c: i for i, c in enumerate(HEX_CUBES)}
HEX_NEIGHBOURS = tuple(
    tuple(_cube_index[(c[0] + d[0], c[1] + d[1], c[2] + d[2])] for d in _CUBE_DIRS
          if (c[0] + d[0], c[1] + d[1], c[2] + d[2]) in _cube_index)
    for c in HEX_CUBES)

# bit masks: a node's own bit, the node plus its neighbours (the distance rule), its edges
NODE_BIT = tuple(1 << n for n in range(NUM_NODES))
EDGE_BIT = tuple(1 << e for e in range(NUM_EDGES))
NODE_CLOSE_MASK = tuple(NODE_BIT[n] | sum(NODE_BIT[m] for m in NODE_NEIGHBOURS[n])
                        for n in range(NUM_NODES))
NODE_EDGE_MASK = tuple(sum(EDGE_BIT[e] for e in NODE_EDGES[n]) for n in range(NUM_NODES))
ALL_NODES_MASK = (1 << NUM_NODES) - 1

# The base game's harbour places: a frame (water) hex and the land hex it faces.
_HARBOUR_FRAME = (((3, -3, 0), (2, -2, 0)), ((1, -3, 2), (1, -2, 1)), ((-1, -2, 3), (-1, -1, 2)),
                  ((-3, 0, 3), (-2, 0, 2)), ((-3, 2, 1), (-2, 1, 1)), ((-2, 3, -1), (-1, 2, -1)),
                  ((0, 3, -3), (0, 2, -2)), ((2, 1, -3), (1, 1, -2)), ((3, -1, -2), (2, -1, -1)))
HARBOUR_EDGES = tuple(
    _edge_of[tuple(sorted(_node_of[p] for p in set(_corners(w)) & set(_corners(land))))]
    for w, land in _HARBOUR_FRAME)
HARBOUR_NODES = tuple(EDGE_NODES[e] for e in HARBOUR_EDGES)

# Spiral order for the official token placement: start at the top-left hex and walk the outer
# ring anticlockwise (down the left side first), then the inner ring, then the centre.


def _spiral() -> tuple:
    def angle(c):   # on-screen angle of the hex centre; screen y points down
        cx, cy = _centre(c)
        return math.atan2(cy * 0.5, cx * math.sqrt(3) / 2)

    order: list[int] = []
    for radius in (2, 1):
        ring = [c for c in HEX_CUBES if max(map(abs, c)) == radius]
        a0 = angle(min(ring, key=lambda c: (c[2], c[0] - c[1])))   # top row, leftmost
        # with y down, anticlockwise on screen is a decreasing angle
        ring.sort(key=lambda c: (a0 - angle(c)) % (2 * math.pi))
        order.extend(_cube_index[c] for c in ring)
    order.append(_cube_index[(0, 0, 0)])
    return tuple(order)


SPIRAL_ORDER = _spiral()

TOPOLOGY = {
    "hexes": [{"id": h, "cube": list(HEX_CUBES[h]), "centre": list(_centre(HEX_CUBES[h])),
               "nodes": list(HEX_NODES[h]), "edges": list(HEX_EDGES[h])}
              for h in range(NUM_HEXES)],
    "nodes": [{"id": n, "point": list(NODE_POINTS[n]), "hexes": list(NODE_HEXES[n]),
               "edges": list(NODE_EDGES[n])} for n in range(NUM_NODES)],
    "edges": [{"id": e, "nodes": list(EDGE_NODES[e])} for e in range(NUM_EDGES)],
    "lattice": "x = u*sqrt(3)/2*size, y = v*size/2 for a point [u, v]",
}


# -- boards ---------------------------------------------------------------------------------
class Board:
    """One game's island.  Immutable after construction; shared by all states of a game.

    ``resource[h]``: resource index or None (desert); ``number[h]``: token or None;
    ``harbours``: 9 kinds (resource index or None for 3:1) aligned with ``HARBOUR_EDGES``;
    ``node_harbour[n]``: the harbour kind at node ``n`` or -1 for none;
    ``production[roll]``: tuple of (hex, resource, nodes) for that dice sum;
    ``node_pips[n]``: sum of the dots of the tokens around ``n`` (for sensible auto-placement).
    """

    __slots__ = ("resource", "number", "harbours", "node_harbour", "production", "desert",
                 "node_pips", "_public")

    def __init__(self, resource, number, harbours):
        resource, number, harbours = tuple(resource), tuple(number), tuple(harbours)
        if len(resource) != NUM_HEXES or len(number) != NUM_HEXES or len(harbours) != 9:
            raise ValueError("a board has 19 hexes, 19 numbers and 9 harbours")
        if sorted(resource, key=lambda r: -1 if r is None else r) != sorted(
                TILE_SET, key=lambda r: -1 if r is None else r):
            raise ValueError("a board has 4 forest, 4 pasture, 4 fields, 3 hills, 3 mountains"
                             " and 1 desert")
        for r, num in zip(resource, number):
            if (r is None) != (num is None):
                raise ValueError("the desert, and only the desert, has no number")
        if sorted(n for n in number if n is not None) != sorted(TOKEN_SET):
            raise ValueError("the number tokens must be the base game's 18")
        if sorted(harbours, key=lambda r: -1 if r is None else r) != sorted(
                HARBOUR_SET, key=lambda r: -1 if r is None else r):
            raise ValueError("the harbours are 4 generic and one per resource")
        self.resource, self.number, self.harbours = resource, number, harbours
        self.desert = resource.index(None)
        nh = [-1] * NUM_NODES
        for kind, (a, b) in zip(harbours, HARBOUR_NODES):
            nh[a] = nh[b] = 5 if kind is None else kind   # 5 = generic
        self.node_harbour = tuple(nh)
        prod: list[tuple] = [() for _ in range(13)]
        for h in range(NUM_HEXES):
            if number[h] is not None:
                prod[number[h]] = prod[number[h]] + ((h, resource[h], HEX_NODES[h]),)
        self.production = tuple(prod)
        self.node_pips = tuple(sum(PIPS.get(number[h], 0) for h in NODE_HEXES[n])
                               for n in range(NUM_NODES))
        self._public = None

    def public(self) -> dict:
        """The board's JSON description (built once, shared: treat as read-only)."""
        if self._public is None:
            self._public = {
                "hexes": [{"id": h, "terrain": TERRAIN_OF[self.resource[h]],
                           "resource": None if self.resource[h] is None
                           else RESOURCES[self.resource[h]],
                           "number": self.number[h]} for h in range(NUM_HEXES)],
                "harbours": [{"edge": e, "nodes": list(HARBOUR_NODES[i]),
                              "resource": None if k is None else RESOURCES[k],
                              "rate": 3 if k is None else 2}
                             for i, (e, k) in enumerate(zip(HARBOUR_EDGES, self.harbours))],
            }
        return self._public

    def to_config(self) -> dict:
        """A ``config["board"]`` value that rebuilds this board (layout "fixed")."""
        return {"resources": [TERRAIN_OF[r] for r in self.resource],
                "numbers": list(self.number),
                "harbours": ["any" if k is None else RESOURCES[k] for k in self.harbours]}

    @classmethod
    def from_config(cls, spec: dict) -> "Board":
        def terrain(name):
            if name in TERRAIN:
                return TERRAIN[name]
            if name in RES_INDEX:
                return RES_INDEX[name]
            raise ValueError(f"unknown terrain {name!r}")
        return cls([terrain(t) for t in spec["resources"]], spec["numbers"],
                   [None if k in ("any", None, "generic") else RES_INDEX[k]
                    for k in spec["harbours"]])


def _shuffle(seq, randbelow: Callable[[int], int]) -> list:
    out = list(seq)
    for i in range(len(out) - 1, 0, -1):
        j = randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _reds_apart(number) -> bool:
    for h in range(NUM_HEXES):
        if number[h] in (6, 8):
            for g in HEX_NEIGHBOURS[h]:
                if number[g] in (6, 8):
                    return False
    return True


def generate(layout: str, randbelow: Callable[[int], int]) -> Board:
    """A fresh board: ``random`` (no neighbouring 6/8) or ``spiral`` (official token order)."""
    resource = _shuffle(TILE_SET, randbelow)
    harbours = _shuffle(HARBOUR_SET, randbelow)
    if layout == "spiral":
        tokens = iter(SPIRAL_TOKENS)
        number = [None] * NUM_HEXES
        for h in SPIRAL_ORDER:
            if resource[h] is not None:
                number[h] = next(tokens)
        return Board(resource, number, harbours)
    if layout != "random":
        raise ValueError(f"unknown layout {layout!r}")
    while True:
        tokens = iter(_shuffle(TOKEN_SET, randbelow))
        number = [None if r is None else next(tokens) for r in resource]
        if _reds_apart(number):
            return Board(resource, number, harbours)
