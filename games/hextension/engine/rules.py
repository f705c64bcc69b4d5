"""The Hextension engine: state, moves, rounds, NMRs and views (rules: shared/rules/hextension.md).

Seats are 0 … players − 1. Every seat still in the game acts at once in a round: one move
places every tile of the round, a later move of the same seat in the same round replaces
the earlier one, and the round closes when every seat still in has moved (or through
``timeout_move`` when its deadline passes).

The state holds the secret seed and the deck order; only ``view`` may leave the engine.
"""
from __future__ import annotations

import itertools
import random
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Mapping

from games.protocol import IllegalMove

from . import ai
from .board import (
    CELL_COUNT,
    CELLS,
    LINES,
    TILE_SET,
    TILES,
    line_potential,
    line_status,
    score_board,
    value_counts,
)

KIND = "hextension"
TITLE = "Hextension"

MAX_PLAYERS = 100
MAX_TILES_PER_ROUND = 3  # legal_moves lists every placement; more tiles make that list explode
NMR_OUT = 3  # the third NMR removes the player


@dataclass(frozen=True)
class State:
    """One game. Never mutated: ``apply`` and ``timeout_move`` return a new state."""

    players: int
    tiles_per_round: int
    # Secret, and kept out of repr() so that a logged state shows neither.
    seed: str = field(repr=False)  # the source of the deck order and of the random NMR placements
    deck: tuple[str, ...] = field(repr=False)  # the 19 tiles this game draws, in order
    round: int  # index of the open round; == rounds(state) once the game is over
    boards: tuple[Mapping[str, str], ...]  # per seat, cell -> tile, as of the last closed round
    pending: tuple[Mapping[str, str] | None, ...]  # per seat, tile -> cell submitted this round
    nmr: tuple[int, ...]
    out: tuple[bool, ...]
    last_placed: tuple[tuple[str, ...], ...]  # per seat, cells filled in the latest closed round


# --- configuration and set-up ----------------------------------------------------------------


def _config(config: Mapping[str, Any] | None) -> tuple[int, int]:
    config = dict(config or {})
    players = config.get("players", 1)
    per_round = config.get("tiles_per_round", 2)
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be a whole number from 1 to {MAX_PLAYERS}, not {players!r}")
    if not isinstance(per_round, int) or isinstance(per_round, bool) or not 1 <= per_round <= MAX_TILES_PER_ROUND:
        raise ValueError(f"tiles_per_round must be 1, 2 or 3, not {per_round!r}")
    return players, per_round


def seat_count(config: Mapping[str, Any]) -> int:
    return _config(config)[0]


def new_state(config: Mapping[str, Any] | None, seed: Any) -> State:
    players, per_round = _config(config)
    deck = list(TILES)
    random.Random(f"hextension/{seed}/deck").shuffle(deck)
    return State(
        players=players,
        tiles_per_round=per_round,
        seed=str(seed),
        deck=tuple(deck[:CELL_COUNT]),
        round=0,
        boards=tuple({} for _ in range(players)),
        pending=(None,) * players,
        nmr=(0,) * players,
        out=(False,) * players,
        last_placed=((),) * players,
    )


# --- rounds ----------------------------------------------------------------------------------


def rounds(state: State) -> int:
    return -(-CELL_COUNT // state.tiles_per_round)


def round_tiles(state: State, index: int | None = None) -> tuple[str, ...]:
    """The tiles drawn in round ``index`` (default: the open round; () once the game is over)."""
    index = state.round if index is None else index
    if not 0 <= index < rounds(state):
        return ()
    start = index * state.tiles_per_round
    return state.deck[start:start + state.tiles_per_round]


def drawn_before(state: State) -> tuple[str, ...]:
    """The tiles drawn in the closed rounds, in draw order (public)."""
    return state.deck[:min(state.round * state.tiles_per_round, CELL_COUNT)]


def is_over(state: State) -> bool:
    return state.round >= rounds(state) or all(state.out)


def actors(state: State) -> set[int]:
    if is_over(state):
        return set()
    return {seat for seat in range(state.players) if not state.out[seat]}


def waiting_for(state: State) -> set[int]:
    """The seats still in the game that have not yet submitted this round."""
    return {seat for seat in actors(state) if state.pending[seat] is None}


def _close_round_if_done(state: State) -> State:
    if is_over(state) or waiting_for(state):
        return state
    boards, placed = [], []
    for seat in range(state.players):
        board, moves = state.boards[seat], state.pending[seat]
        if state.out[seat] or moves is None:
            boards.append(board)
            placed.append(())
            continue
        new_board = dict(board)
        for tile, cell in moves.items():
            new_board[cell] = tile
        boards.append(new_board)
        placed.append(tuple(sorted(moves.values(), key=CELLS.index)))
    return replace(
        state,
        round=state.round + 1,
        boards=tuple(boards),
        pending=(None,) * state.players,
        last_placed=tuple(placed),
    )


# --- moves -----------------------------------------------------------------------------------


def _check_seat(state: State, seat: Any) -> int:
    if is_over(state):
        raise IllegalMove("The game is over.")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise IllegalMove(f"There is no seat {seat!r} in this game.")
    if state.out[seat]:
        raise IllegalMove(f"Seat {seat} is out of the game after {NMR_OUT} rounds without a move.")
    return seat


def _tile_list(tiles: tuple[str, ...]) -> str:
    return " and ".join(tiles) if len(tiles) < 3 else ", ".join(tiles[:-1]) + " and " + tiles[-1]


def _check_placements(state: State, seat: int, placements: Any) -> dict[str, str]:
    tiles = round_tiles(state)
    board = state.boards[seat]
    if not isinstance(placements, Mapping) or not placements:
        raise IllegalMove(f"Say where each tile of this round goes: {_tile_list(tiles)}.")
    used: dict[str, str] = {}
    for tile, cell in placements.items():
        if tile not in TILE_SET:
            raise IllegalMove(f"There is no tile {tile!r}; a tile is named by its values on |, / and \\, like 174.")
        if tile in board.values():
            where = next(c for c, t in board.items() if t == tile)
            raise IllegalMove(f"Tile {tile} is already on your board, at {where}.")
        if tile not in tiles:
            raise IllegalMove(f"Tile {tile} was not drawn this round; this round's tiles are {_tile_list(tiles)}.")
        if cell not in CELLS:
            raise IllegalMove(f"There is no cell {cell!r}; cells run A1–A3, B1–B4, C1–C5, D1–D4, E1–E3.")
        if cell in board:
            raise IllegalMove(f"{cell} already holds tile {board[cell]}.")
        if cell in used:
            raise IllegalMove(f"Tiles {used[cell]} and {tile} cannot both go on {cell}.")
        used[cell] = tile
    missing = [t for t in tiles if t not in placements]
    if missing:
        raise IllegalMove(
            f"Place every tile of this round in one move: {_tile_list(tuple(missing))} "
            f"{'is' if len(missing) == 1 else 'are'} missing."
        )
    return {tile: placements[tile] for tile in tiles}


def apply(state: State, seat: int, move: Mapping[str, Any]) -> State:
    """Submit (or replace) ``seat``'s placement of this round's tiles."""
    seat = _check_seat(state, seat)
    if not isinstance(move, Mapping) or move.get("type") != "place":
        raise IllegalMove('Hextension knows one move: {"type": "place", "placements": {tile: cell, …}}.')
    placements = _check_placements(state, seat, move.get("placements"))
    pending = list(state.pending)
    pending[seat] = placements
    return _close_round_if_done(replace(state, pending=tuple(pending)))


def legal_moves(state: State, seat: int) -> list[dict]:
    """Every placement of this round's tiles on ``seat``'s empty cells (none for a seat that cannot act)."""
    if seat not in actors(state):
        return []
    tiles = round_tiles(state)
    empty = [c for c in CELLS if c not in state.boards[seat]]
    return [
        {"type": "place", "placements": dict(zip(tiles, cells))}
        for cells in itertools.permutations(empty, len(tiles))
    ]


# The AI level of a first NMR. Timeout events stored empty (before the decision itself was
# stored) replay with the level of that time, ``ai.LEGACY_LEVELS[0]``: see ``legacy_timeout_move``.
NMR_LEVEL = "strong"
LEGACY_NMR_LEVEL = "strong-v1"


def resolve_timeout(state: State, seat: int, *, level: str = NMR_LEVEL) -> dict:
    """The decision the NMR rule makes for ``seat``, as JSON, so it can be stored and replayed
    without running the AI again: ``{"placements": {tile: cell}}`` (first NMR: the strongest
    AI; second: random empty cells from the game's random stream), ``{"out": true}`` (third),
    or ``{}`` when the seat has already submitted (nothing happens)."""
    seat = _check_seat(state, seat)
    if state.pending[seat] is not None:
        return {}
    tiles = round_tiles(state)
    board = state.boards[seat]
    count = state.nmr[seat] + 1
    if count == 1:
        return {"placements": ai.place(board, tiles, level, seen=drawn_before(state))}
    if count < NMR_OUT:
        rng = random.Random(f"hextension/{state.seed}/nmr/{state.round}/{seat}")
        empty = [c for c in CELLS if c not in board]
        return {"placements": dict(zip(tiles, rng.sample(empty, len(tiles))))}
    return {"out": True}


def apply_timeout(state: State, seat: int, resolution: Mapping) -> State:
    """Apply a stored NMR decision (see ``resolve_timeout``)."""
    seat = _check_seat(state, seat)
    if state.pending[seat] is not None or not resolution:
        return state
    nmr = state.nmr[:seat] + (state.nmr[seat] + 1,) + state.nmr[seat + 1:]
    pending, out = list(state.pending), list(state.out)
    if resolution.get("out"):
        out[seat] = True
    else:
        pending[seat] = _check_placements(state, seat, dict(resolution["placements"]))
    return _close_round_if_done(replace(state, nmr=nmr, pending=tuple(pending), out=tuple(out)))


def timeout_move(state: State, seat: int) -> State:
    """The NMR rule for ``seat`` whose round deadline passed without a submission.

    First NMR: the strongest AI places the round's tiles; second: random empty cells from the
    game's random stream; third: the seat is out. A seat that has submitted keeps its move
    (the state comes back unchanged). Deterministic: the same state gives the same result.
    """
    return apply_timeout(state, seat, resolve_timeout(state, seat))


def legacy_timeout_move(state: State, seat: int) -> State:
    """``timeout_move`` as it was when timeout events were stored empty: the first NMR placed
    by the strong AI of that time (``strong-v1``, the first weights and a shallower search).
    The platform replays such old events through this, so those games replay unchanged."""
    return apply_timeout(state, seat, resolve_timeout(state, seat, level=LEGACY_NMR_LEVEL))


# --- views and results -----------------------------------------------------------------------


def view(state: State, seat: int | None) -> dict:
    """What ``seat`` (None: a spectator) may see. Never an undrawn tile, the deck or the seed.

    Boards are shown as of the last closed round; only the viewer's own submission of the open
    round appears (as ``pending``), other seats show only whether they have ``moved``.
    """
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat < state.players):
        raise ValueError(f"There is no seat {seat!r} in this game.")
    earlier = drawn_before(state)
    # Tiles that may still reach a board: every tile not drawn in a closed round.
    gone = set(earlier)
    to_come = value_counts(t for t in TILES if t not in gone)
    over = is_over(state)
    latest = state.round - 1
    seats = [dict(entry) for entry in _seat_entries(state, to_come)]
    result = {
        "kind": KIND,
        "seat": seat,
        "players": state.players,
        "tiles_per_round": state.tiles_per_round,
        "round": min(state.round + 1, rounds(state)),
        "rounds": rounds(state),
        "over": over,
        "drawn": [] if over else list(round_tiles(state)),
        "earlier": list(earlier),
        "last_round": list(round_tiles(state, latest)) if latest >= 0 else [],
        "actors": sorted(actors(state)),
        "seats": seats,
    }
    if seat is not None:
        mine = state.pending[seat]
        result["pending"] = None if mine is None else dict(mine)
    if over:
        result["result"] = result_of(state)
    return result


# Every viewer of one state sees the same seat entries, and a 100-seat round's close asks for a
# hundred views of one state (one per socket): the entries are made once per state and each view
# gets its own copy of them (one level deep; what they hold is read, never edited, as below).
# Kept by the state object itself, which the state cache hands out to every reader.
_SEAT_ENTRIES_SIZE = 16
_seat_entries_made: OrderedDict[int, tuple[State, tuple[dict, ...]]] = OrderedDict()
_seat_entries_lock = threading.Lock()


def _seat_entries(state: State, to_come: Counter) -> tuple[dict, ...]:
    with _seat_entries_lock:
        made = _seat_entries_made.get(id(state))
        if made is not None and made[0] is state:
            _seat_entries_made.move_to_end(id(state))
            return made[1]
    to_come_key = tuple(sorted(to_come.items()))
    entries = []
    for s in range(state.players):
        ordered, score, potential, lines = _assessed(tuple(state.boards[s].items()), to_come_key)
        entries.append({
            "seat": s,
            "board": dict(ordered),
            "score": score,
            # The most the board can still make (points plus the open lines at their best).
            "potential": potential,
            "lines": list(lines),  # entries shared with the cache: views are read, never edited
            "nmr": state.nmr[s],
            "out": state.out[s],
            "moved": state.pending[s] is not None,
            "last_placed": list(state.last_placed[s]),
        })
    made_now = tuple(entries)
    with _seat_entries_lock:
        _seat_entries_made[id(state)] = (state, made_now)  # the state held: its id is not reused meanwhile
        while len(_seat_entries_made) > _SEAT_ENTRIES_SIZE:
            _seat_entries_made.popitem(last=False)
    return made_now


# A view assesses every board of the game (15 lines each), and every seat's view, each socket's
# push and each page asks again for the same boards: a 100-seat game spent most of a view here.
# A board and the tiles still to come decide the assessment, so it is kept per that pair. Its
# line entries are handed out as they are (copying them cost as much as computing them): like
# the states in the state cache, views are read and never edited.
@lru_cache(maxsize=4096)
def _assessed(board_items: tuple, to_come_key: tuple) -> tuple[tuple, int, int, tuple]:
    """(the board's cells in CELLS order, its score, its potential, its line entries)."""
    board, to_come = dict(board_items), Counter(dict(to_come_key))
    lines = tuple(line_status(board, line, to_come) for line in LINES)
    ordered = tuple(sorted(board_items, key=lambda kv: CELLS.index(kv[0])))
    return ordered, score_board(board), sum(line_potential(line) for line in lines), lines


def result_of(state: State) -> dict:
    """Scores and ranking; seats that are out rank below every seat that finished."""
    scores = [score_board(b) for b in state.boards]
    order = sorted(range(state.players), key=lambda s: (state.out[s], -scores[s], s))
    ranks, previous = {}, None
    for position, s in enumerate(order, start=1):
        key = (state.out[s], scores[s])
        ranks[s] = ranks[previous] if previous is not None and key == (state.out[previous], scores[previous]) else position
        previous = s
    return {
        "scores": scores,
        "ranking": order,
        "ranks": [ranks[s] for s in range(state.players)],
        "winners": [s for s in order if ranks[s] == 1 and not state.out[s]],
        "out": [s for s in range(state.players) if state.out[s]],
    }


def result(state: State) -> dict | None:
    return result_of(state) if is_over(state) else None
