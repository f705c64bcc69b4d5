"""State and rules of Hextremadura: setup, a turn, removals, rounds, the end, the score."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.protocol import IllegalMove

from .board import Analysis, Board, placed, scored_objectives
from .geometry import Cell, neighbours
from .tiles import BACK, FRONT, RIVER_FACES, TILE_IDS, TILES

MAX_SCORE = 15
QUESTS = ("monfrague", "garganta", "barruecos")
QUEST_NAMES = {
    "monfrague": "Monfragüe",
    "garganta": "Garganta de los Infiernos",
    "barruecos": "Los Barruecos",
}


@dataclass
class State:
    """A game in progress. ``queue[0]`` is the display, ``queue[1]`` the discovery pile's top
    tile, the rest the pile below it; the two first are the available tiles."""

    seed: object
    board: Board
    queue: list[str]
    faces_up: dict[str, str]  # tile -> face showing now ("front"/"back"; "a"/"b" for rivers)
    explored: list[str] = field(default_factory=list)
    round: int = 1
    turn: int = 0  # placements made
    over: bool = False
    last_move: dict | None = None
    last_removed: list = field(default_factory=list)  # Placed records taken off by the last move

    def copy(self) -> "State":
        return State(
            self.seed,
            self.board.copy(),
            self.queue.copy(),
            self.faces_up.copy(),
            self.explored.copy(),
            self.round,
            self.turn,
            self.over,
            self.last_move,
            self.last_removed,
        )

    @property
    def available(self) -> list[str]:
        return self.queue[:2]

    @property
    def discovery_size(self) -> int:
        """Tiles in the discovery pile, the display not counted."""
        return max(0, len(self.queue) - 1)


def shuffle_order(seed) -> tuple[list[str], dict[str, str]]:
    """The first round's pile for a seed: the order and the face each river tile shows."""
    rng = random.Random(f"hextremadura:{seed}")
    order = list(TILE_IDS)
    rng.shuffle(order)
    faces = {}
    for tid in TILE_IDS:
        faces[tid] = rng.choice(RIVER_FACES) if TILES[tid].river else FRONT
    return order, faces


def new_state(seed, order: list[str] | None = None) -> State:
    shuffled, faces = shuffle_order(seed)
    if order is not None:  # a chosen order, for tests and tools
        if sorted(order) != sorted(TILE_IDS):
            raise ValueError("an order must hold every tile once")
        shuffled = list(order)
    return State(seed=seed, board=Board(), queue=shuffled, faces_up=faces)


def legal_cells(board: Board) -> list[Cell]:
    """Where a tile may go: any empty cell touching the map; on an empty map, the origin
    stands for every cell (the map has no fixed frame)."""
    if board.is_empty():
        return [(0, 0)]
    return board.frontier()


def face_choices(state: State, tile: str) -> tuple[str, ...]:
    t = TILES[tile]
    return RIVER_FACES if t.river else (state.faces_up[tile],)


def _whole(move: dict, key: str, default: int | None = None) -> int:
    value = move.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove(f"{key} must be a whole number")
    return value


def check_move(state: State, move: dict) -> tuple[str, Cell, int, str]:
    """Validate a move; return (tile, cell, rotation, face) or raise IllegalMove."""
    if state.over:
        raise IllegalMove("the game is over")
    if not isinstance(move, dict) or move.get("type") != "place":
        raise IllegalMove('a move is {"type": "place", "tile", "q", "r", "rotation"}')
    tile = move.get("tile")
    if tile not in state.available:
        raise IllegalMove(f"tile {tile!r} is not one of the available tiles {state.available}")
    q, r, rotation = _whole(move, "q"), _whole(move, "r"), _whole(move, "rotation", 0)
    if not 0 <= rotation <= 5:
        raise IllegalMove("rotation must be 0 to 5")
    choices = face_choices(state, tile)
    face = move.get("face")
    if face is None:
        face = state.faces_up[tile]
    if face not in choices:
        if TILES[tile].river:
            raise IllegalMove('a river tile is placed with face "a" or "b"')
        raise IllegalMove(f"tile {tile} shows its {state.faces_up[tile]} now")
    cell = (q, r)
    board = state.board
    if cell in board.cells:
        raise IllegalMove(f"cell ({q}, {r}) already holds a tile")
    if not board.is_empty() and not any(c in board.cells for c in neighbours(cell)):
        raise IllegalMove(f"cell ({q}, {r}) does not touch the map")
    return tile, cell, rotation, face


def step(state: State, tile: str, cell: Cell, rotation: int, face: str) -> None:
    """Play a checked placement on ``state`` in place: place, draw, remove, end the round."""
    queue = state.queue
    queue.remove(tile)  # the display or the pile's top: the next tile moves up either way
    board = state.board
    board.place(placed(tile, cell, rotation, face, state.turn))
    state.turn += 1
    done = board.completed_fronts()
    removed = []
    if done:
        removed = sorted((board.slots[s] for s in done), key=lambda p: p.seq)
        board.remove([(p.q, p.r) for p in removed])
        state.explored.extend(p.tile for p in removed)
    state.last_removed = removed
    if not queue:
        end_round(state)


def end_round(state: State) -> None:
    """Flip the explored pile into a new discovery pile, or end the game."""
    if state.explored:
        state.queue = state.explored  # the first tile explored is on top: it is the display
        for tid in state.explored:
            state.faces_up[tid] = BACK
        state.explored = []
        state.round += 1
    else:
        state.over = True


def play(state: State, move: dict) -> State:
    tile, cell, rotation, face = check_move(state, move)
    new = state.copy()
    step(new, tile, cell, rotation, face)
    new.last_move = {"type": "place", "tile": tile, "q": cell[0], "r": cell[1], "rotation": rotation, "face": face}
    return new


def score(board: Board, analysis: Analysis | None = None) -> int:
    return sum(1 for _, met in scored_objectives(board, analysis) if met)


def quests(board: Board, analysis: Analysis | None = None, points: int | None = None) -> dict[str, bool]:
    a = analysis or board.analysis()
    s = score(board, a) if points is None else points
    return {
        "monfrague": s >= 12 and a.monfrague_terrain(),
        "garganta": s >= 15 and a.garganta_terrain(),
        "barruecos": s >= 15 and a.barruecos_terrain(),
    }


def rating(points: int) -> str:
    if points >= 15:
        return "perfect"
    if points >= 14:
        return "excellent"
    if points >= 12:
        return "very good"
    if points >= 9:
        return "good"
    return "keep exploring"
