"""The map: placed tiles and their terrains, kept by an incremental union-find.

Every placed tile takes a *slot*; its six spaces are the nodes ``slot * 6 + i``. Placing a tile
adds six nodes and joins them to the touching spaces of the same kind (within the tile and
across its sides), so a placement costs a few dozen operations. Removing tiles rebuilds the
structure from the tiles that stay (at most 18 tiles, about a hundred nodes), because a
union-find cannot split a terrain.

Besides parent pointers the structure keeps, per root, the terrain's size and packed icon
counts (``tiles.ICON_UNIT``), and the list of touching node pairs of different kinds, from which
terrain adjacency is read.
"""
from __future__ import annotations

from typing import NamedTuple

from .geometry import DIRECTIONS, Cell
from .tiles import (
    ACORN,
    BACK,
    CROPS,
    FOREST,
    FRONT,
    MONUMENT,
    STORK,
    TILES,
    WATER,
    Objective,
    Oriented,
    icon_count,
    icon_mask,
)


class Placed(NamedTuple):
    tile: str
    q: int
    r: int
    rotation: int
    face: str
    seq: int  # placement number in the game (0-based), orders simultaneous removals
    oriented: Oriented

    @property
    def cell(self) -> Cell:
        return (self.q, self.r)


def placed(tile: str, cell: Cell, rotation: int, face: str, seq: int) -> Placed:
    return Placed(tile, cell[0], cell[1], rotation, face, seq, TILES[tile].faces[face].oriented[rotation])


class Board:
    __slots__ = ("cells", "slots", "parent", "kind", "size", "icons", "edges", "icon_nodes")

    def __init__(self) -> None:
        self.cells: dict[Cell, int] = {}
        self.slots: list[Placed] = []
        self.parent: list[int] = []
        self.kind: list[int] = []
        self.size: list[int] = []  # meaningful at roots
        self.icons: list[int] = []  # packed icon counts, meaningful at roots
        self.edges: list[tuple[int, int]] = []  # touching nodes of different kinds
        self.icon_nodes: list[int] = []  # spaces that carry an icon

    # -- copying ----------------------------------------------------------------------------
    def copy(self) -> "Board":
        b = Board.__new__(Board)
        b.cells = self.cells.copy()
        b.slots = self.slots.copy()
        b.parent = self.parent.copy()
        b.kind = self.kind.copy()
        b.size = self.size.copy()
        b.icons = self.icons.copy()
        b.edges = self.edges.copy()
        b.icon_nodes = self.icon_nodes.copy()
        return b

    # -- union-find -------------------------------------------------------------------------
    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def _union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        if self.size[ra] < self.size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.size[ra] += self.size[rb]
        self.icons[ra] += self.icons[rb]

    # -- placing and removing ---------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.cells)

    def is_empty(self) -> bool:
        return not self.cells

    def place(self, p: Placed) -> None:
        cell = (p.q, p.r)
        slot = len(self.slots)
        self.slots.append(p)
        self.cells[cell] = slot
        base = slot * 6
        spaces = p.oriented.spaces
        self.parent.extend(range(base, base + 6))
        self.kind.extend(spaces)
        self.size.extend((1, 1, 1, 1, 1, 1))
        self.icons.extend(p.oriented.icons)
        if p.face == BACK:
            self.icon_nodes.extend(base + i for i in range(6) if p.oriented.icons[i])
        edges = self.edges
        for i in range(6):
            j = (i + 1) % 6
            if spaces[i] == spaces[j]:
                self._union(base + i, base + j)
            else:
                edges.append((base + i, base + j))
        q, r = cell
        cells, kind = self.cells, self.kind
        for i in range(6):
            dq, dr = DIRECTIONS[i]
            other_slot = cells.get((q + dq, r + dr))
            if other_slot is None:
                continue
            other = other_slot * 6 + (i + 3) % 6
            if kind[other] == spaces[i]:
                self._union(base + i, other)
            else:
                edges.append((base + i, other))

    def remove(self, cells: list[Cell]) -> None:
        """Take the tiles on ``cells`` off the map, and rebuild the terrains."""
        gone = set(cells)
        keep = [p for p in self.slots if (p.q, p.r) not in gone]
        self.__init__()
        for p in keep:
            self.place(p)

    def frontier(self) -> list[Cell]:
        """Empty cells touching the map, in a stable order."""
        cells = self.cells
        out: set[Cell] = set()
        for q, r in cells:
            for dq, dr in DIRECTIONS:
                c = (q + dq, r + dr)
                if c not in cells:
                    out.add(c)
        return sorted(out)

    # -- requirements -----------------------------------------------------------------------
    def requirement_met(self, slot: int, kind: int, n: int, side: int) -> bool:
        node = slot * 6 + side
        if self.kind[node] == kind and self.size[self.find(node)] >= n:
            return True
        p = self.slots[slot]
        dq, dr = DIRECTIONS[side]
        other_slot = self.cells.get((p.q + dq, p.r + dr))
        if other_slot is None:
            return False
        other = other_slot * 6 + (side + 3) % 6
        return self.kind[other] == kind and self.size[self.find(other)] >= n

    def requirement_reach(self, slot: int, kind: int, side: int) -> tuple[int, bool]:
        """(size of the largest terrain of ``kind`` touching ``side``, whether the side is open)."""
        best = 0
        node = slot * 6 + side
        if self.kind[node] == kind:
            best = self.size[self.find(node)]
        p = self.slots[slot]
        dq, dr = DIRECTIONS[side]
        other_slot = self.cells.get((p.q + dq, p.r + dr))
        if other_slot is None:
            return best, True
        other = other_slot * 6 + (side + 3) % 6
        if self.kind[other] == kind:
            best = max(best, self.size[self.find(other)])
        return best, False

    def completed_fronts(self) -> list[int]:
        """Slots of front-up terrain tiles whose two requirements are both met."""
        out = []
        for slot, p in enumerate(self.slots):
            if p.face != FRONT:
                continue
            for req in p.oriented.requirements:
                if not self.requirement_met(slot, req.kind, req.n, req.side):
                    break
            else:
                out.append(slot)
        return out

    # -- terrains ---------------------------------------------------------------------------
    def roots(self) -> list[int]:
        """The terrain (root) of every node."""
        find = self.find
        return [find(x) for x in range(len(self.parent))]

    def node_neighbours(self, node: int) -> list[int]:
        slot, i = divmod(node, 6)
        base = slot * 6
        out = [base + (i + 5) % 6, base + (i + 1) % 6]
        p = self.slots[slot]
        dq, dr = DIRECTIONS[i]
        other_slot = self.cells.get((p.q + dq, p.r + dr))
        if other_slot is not None:
            out.append(other_slot * 6 + (i + 3) % 6)
        return out

    def adjacent_roots(self) -> set[tuple[int, int]]:
        find = self.find
        out = set()
        for a, b in self.edges:
            ra, rb = find(a), find(b)
            out.add((ra, rb) if ra < rb else (rb, ra))
        return out

    def analysis(self, roots: list[int] | None = None) -> "Analysis":
        return Analysis(self, roots)


class Analysis:
    """Terrain facts read once from a board, for objectives, quests and the view."""

    __slots__ = ("board", "holders", "mask", "icon_adj", "_adj", "_roots")

    def __init__(self, board: Board, roots: list[int] | None = None) -> None:
        self.board = board
        self._roots = roots
        find = board.find
        icons = board.icons
        kind = board.kind
        mask: dict[int, int] = {}
        for x in board.icon_nodes:
            r = find(x)
            if r not in mask:
                mask[r] = icon_mask(icons[r])
        self.mask = mask
        # holders[kind][icon] -> roots of that kind holding the icon
        holders: list[list[list[int]]] = [[[], [], []] for _ in range(3)]
        for root, m in mask.items():
            h = holders[kind[root]]
            if m & 1:
                h[ACORN].append(root)
            if m & 2:
                h[STORK].append(root)
            if m & 4:
                h[MONUMENT].append(root)
        self.holders = holders
        adj: set[tuple[int, int]] = set()
        if len(mask) > 1:
            if roots is None:
                roots = self._roots = board.roots()
            for a, b in board.edges:
                ra, rb = roots[a], roots[b]
                if ra in mask and rb in mask:
                    adj.add((ra, rb) if ra < rb else (rb, ra))
        self.icon_adj = adj  # adjacency among icon-holding terrains
        self._adj = None

    # -- the four objective families --------------------------------------------------------
    def objective_met(self, obj: Objective) -> bool:
        fam = obj.family
        if fam == "trio":
            k = obj.kind
            return any(self.mask[r] == 7 for r in self.holders[k][ACORN] if self.board.kind[r] == k)
        if fam == "scatter":
            return len(self.holders[obj.kind][obj.icons[0]]) >= 3
        if fam == "triad":
            i = obj.icons[0]
            fs, ws, cs = self.holders[FOREST][i], self.holders[WATER][i], self.holders[CROPS][i]
            if not (fs and ws and cs):
                return False
            adj = self.icon_adj
            for w in ws:
                fa = [f for f in fs if ((f, w) if f < w else (w, f)) in adj]
                if not fa:
                    continue
                ca = [c for c in cs if ((c, w) if c < w else (w, c)) in adj]
                for f in fa:
                    for c in ca:
                        if ((f, c) if f < c else (c, f)) in adj:
                            return True
            return False
        if fam == "pair":
            i, j = obj.icons
            mask = self.mask
            bi, bj = 1 << i, 1 << j
            for a, b in self.icon_adj:
                ma, mb = mask[a], mask[b]
                if (ma & bi and mb & bj) or (ma & bj and mb & bi):
                    return True
            return False
        raise ValueError(fam)

    # -- the discover quests ----------------------------------------------------------------
    def _all_adjacent_roots(self) -> dict[int, set[int]]:
        if self._adj is None:
            adj: dict[int, set[int]] = {}
            for a, b in self.board.adjacent_roots():
                adj.setdefault(a, set()).add(b)
                adj.setdefault(b, set()).add(a)
            self._adj = adj
        return self._adj

    def _members(self) -> dict[int, list[int]]:
        find = self.board.find
        members: dict[int, list[int]] = {}
        for x in range(len(self.board.parent)):
            members.setdefault(find(x), []).append(x)
        return members

    def monfrague_terrain(self) -> bool:
        """A water terrain at most one space wide holding 2+ storks and 2+ acorns, whose
        adjacent terrains hold 3+ storks and 2+ acorns between them."""
        b = self.board
        candidates = [
            r for r in self.holders[WATER][STORK]
            if icon_count(b.icons[r], STORK) >= 2 and icon_count(b.icons[r], ACORN) >= 2
        ]
        if not candidates:
            return False
        members = self._members()
        adj = self._all_adjacent_roots()
        find = b.find
        for root in candidates:
            thin = all(
                sum(1 for y in b.node_neighbours(x) if find(y) == root) <= 2 for x in members[root]
            )
            if not thin:
                continue
            around = adj.get(root, ())
            storks = sum(icon_count(b.icons[a], STORK) for a in around)
            acorns = sum(icon_count(b.icons[a], ACORN) for a in around)
            if storks >= 3 and acorns >= 2:
                return True
        return False

    def garganta_terrain(self) -> bool:
        """A water terrain of at least 28 spaces."""
        b = self.board
        return any(
            b.parent[x] == x and b.kind[x] == WATER and b.size[x] >= 28 for x in range(len(b.parent))
        )

    def barruecos_terrain(self) -> bool:
        """A forest terrain holding all three icons, away from the map's edge, whose every
        touching outside space lies in one water terrain holding all three icons."""
        b = self.board
        forests = [r for r in self.holders[FOREST][ACORN] if self.mask[r] == 7]
        if not forests:
            return False
        members = self._members()
        find = b.find
        for root in forests:
            ok = True
            water_root = None
            for x in members[root]:
                slot, i = divmod(x, 6)
                p = b.slots[slot]
                dq, dr = DIRECTIONS[i]
                if (p.q + dq, p.r + dr) not in b.cells:
                    ok = False  # a space at the map's edge
                    break
                for y in b.node_neighbours(x):
                    ry = find(y)
                    if ry == root:
                        continue
                    if b.kind[y] != WATER or (water_root is not None and ry != water_root):
                        ok = False
                        break
                    water_root = ry
                if not ok:
                    break
            if ok and water_root is not None and self.mask.get(water_root) == 7:
                return True
        return False


def scored_objectives(board: Board, analysis: Analysis | None = None) -> list[tuple[Placed, bool]]:
    """Every back-up tile on the map with whether its objective is met now."""
    a = analysis or board.analysis()
    out = []
    for p in board.slots:
        if p.face == BACK:
            out.append((p, a.objective_met(TILES[p.tile].faces[BACK].objective)))
    return out
