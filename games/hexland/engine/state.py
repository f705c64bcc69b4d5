"""Hexland's state: compact plain data, cheap to copy.

A :class:`State` holds ints, ``None`` and flat lists of ints; everything that never changes
during a game (board, names, seat order, target) lives in one shared :class:`Game` object.
``copy()`` slices each list once, so ``apply`` = copy, then mutate the copy.

Per-seat arrays are flat: ``hand[seat * 5 + resource]``, ``dev[seat * 5 + card]``,
``rate[seat * 5 + resource]``, ``pieces[seat * 3 + kind]`` (kind 0 settlement, 1 city, 2 road).
See docs/hexland.md for every field.
"""
from __future__ import annotations

import hashlib

from games.hexland.engine.board import (
    NUM_EDGES, NUM_NODES, RESOURCES, Board, generate,
)

# -- development cards ----------------------------------------------------------------------
KNIGHT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY, VICTORY_POINT = range(5)
DEV_CARDS = ("knight", "road_building", "year_of_plenty", "monopoly", "victory_point")
DEV_INDEX = {name: i for i, name in enumerate(DEV_CARDS)}
DEV_TITLES = ("Knight", "Road Building", "Year of Plenty", "Monopoly", "Victory Point")
DECK_SET = (KNIGHT,) * 14 + (ROAD_BUILDING,) * 2 + (YEAR_OF_PLENTY,) * 2 + (MONOPOLY,) * 2 \
    + (VICTORY_POINT,) * 5

# -- pieces and costs -----------------------------------------------------------------------
SETTLEMENT, CITY, ROAD = range(3)
PIECE_LIMITS = (5, 4, 15)
BANK_START = 19
COST_ROAD = (1, 1, 0, 0, 0)
COST_SETTLEMENT = (1, 1, 1, 1, 0)
COST_CITY = (0, 0, 0, 2, 3)
COST_DEV = (0, 0, 1, 1, 1)

# -- phases ---------------------------------------------------------------------------------
# FREE_ROADS: placing the roads of a Road Building card
(SETUP_SETTLEMENT, SETUP_ROAD, ROLL, DISCARD, ROBBER, MAIN, TRADE, FREE_ROADS,
 OVER) = range(9)
PHASES = ("setup_settlement", "setup_road", "roll", "discard", "robber", "main", "trade",
          "free_roads", "over")

LAYOUTS = ("random", "spiral", "fixed")
TIMER_PRESETS = {   # seconds: setup placement, turn, discard (rules: "Timers")
    "fast": (30, 60, 20), "normal": (60, 120, 30), "slow": (90, 180, 45),
    "correspondence": (86400, 86400, 86400),
}

_MASK64 = (1 << 64) - 1


def seed_to_int(seed) -> int:
    """A 64-bit stream seed from any seed value (int, str, bytes)."""
    if isinstance(seed, int) and not isinstance(seed, bool):
        data = str(seed).encode()
    elif isinstance(seed, bytes):
        data = seed
    else:
        data = str(seed).encode()
    return int.from_bytes(hashlib.sha256(b"hexland:" + data).digest()[:8], "big")


def rand_below(s: "State", n: int) -> int:
    """Advance the state's splitmix64 stream; return an int in [0, n)."""
    x = (s.rng + 0x9E3779B97F4A7C15) & _MASK64
    s.rng = x
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (x ^ (x >> 31)) % n


class Game:
    """What stays fixed for a whole game; shared by every state of it (read-only)."""

    __slots__ = ("board", "n", "names", "order", "setup_order", "vp_to_win", "discard_limit",
                 "layout", "timers", "config")

    def __init__(self, board, n, names, order, vp_to_win, discard_limit, layout, timers,
                 config):
        self.board: Board = board
        self.n = n
        self.names = names
        self.order = order                                  # seats in turn order
        self.setup_order = order + tuple(reversed(order))   # the snake draft
        self.vp_to_win = vp_to_win
        self.discard_limit = discard_limit
        self.layout = layout
        self.timers = timers
        self.config = config


class State:
    """One position.  Never mutated once returned by the engine."""

    __slots__ = (
        "g", "rng", "phase", "cur", "turn", "step", "rolled", "dev_played", "expired",
        "dice", "robber", "hand", "bank", "dev", "new_dev", "deck", "knights", "pieces",
        "vp", "road_len", "lr", "la", "rate", "bld", "road", "blocked", "road_mask", "reach",
        "frontier", "need", "offer", "answers", "free_roads", "last_node", "auto", "winner",
        "log", "log_len",
    )

    def copy(self) -> "State":
        s = State.__new__(State)
        s.g = self.g
        s.rng = self.rng
        s.phase = self.phase
        s.cur = self.cur
        s.turn = self.turn
        s.step = self.step
        s.rolled = self.rolled
        s.dev_played = self.dev_played
        s.expired = self.expired
        s.dice = self.dice
        s.robber = self.robber
        s.hand = self.hand[:]
        s.bank = self.bank[:]
        s.dev = self.dev[:]
        s.new_dev = self.new_dev[:]
        s.deck = self.deck              # copied on write (only buying draws)
        s.knights = self.knights[:]
        s.pieces = self.pieces[:]
        s.vp = self.vp[:]
        s.road_len = self.road_len[:]
        s.lr = self.lr
        s.la = self.la
        s.rate = self.rate[:]
        s.bld = self.bld                # copied on write (building only)
        s.road = self.road              # copied on write (building only)
        s.blocked = self.blocked
        s.road_mask = self.road_mask
        s.reach = self.reach[:]
        s.frontier = self.frontier[:]
        s.need = self.need[:]
        s.offer = self.offer
        s.answers = self.answers[:]
        s.free_roads = self.free_roads
        s.last_node = self.last_node
        s.auto = self.auto[:]
        s.winner = self.winner
        s.log = self.log
        s.log_len = self.log_len
        return s

    # Pickling (the platform caches states): the log is a linked list of (event, previous)
    # pairs, flattened here so deep logs do not hit pickle's recursion limit.
    def __getstate__(self) -> dict:
        out = {name: getattr(self, name) for name in State.__slots__}
        events, node = [], self.log
        while node is not None:
            events.append(node[0])
            node = node[1]
        out["log"] = events
        return out

    def __setstate__(self, data: dict) -> None:
        log = None
        for event in reversed(data["log"]):
            log = (event, log)
        for name in State.__slots__:
            setattr(self, name, log if name == "log" else data[name])

    def __repr__(self) -> str:
        return (f"<hexland State turn={self.turn} phase={PHASES[self.phase]} "
                f"cur={self.cur} vp={self.vp}>")


def new_state(config: dict | None, seed) -> State:
    """A game before the first placement.  ``config`` keys (all optional):

    ``players`` 2..4 (default 4), ``layout`` "random" | "spiral" | "fixed", ``board`` (a
    :meth:`Board.to_config` dict, with layout "fixed"), ``board_seed`` (layout "fixed"
    without ``board``: the board that seed generates), ``names``, ``vp_to_win`` (10),
    ``discard_limit`` (7), ``timers`` ("fast" | "normal" | "slow" | "correspondence"),
    ``order`` (a fixed seat order, for tests; random by default).
    """
    config = dict(config or {})
    n = config.get("players", 4)
    if not isinstance(n, int) or not 2 <= n <= 4:
        raise ValueError("Hexland is for 2 to 4 players")
    names = tuple(config.get("names") or [f"Player {i + 1}" for i in range(n)])
    if len(names) != n:
        raise ValueError("names must list one name per player")
    layout = config.get("layout", "random")
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}")
    timers = config.get("timers", "normal")
    if timers not in TIMER_PRESETS:
        raise ValueError(f"timers must be one of {', '.join(TIMER_PRESETS)}")

    s = State.__new__(State)
    s.rng = seed_to_int(seed)
    randbelow = lambda k: rand_below(s, k)  # noqa: E731
    if layout == "fixed":
        if "board" in config:
            board = Board.from_config(config["board"])
        else:
            b = State.__new__(State)
            b.rng = seed_to_int(config.get("board_seed", 0))
            board = generate("random", lambda k: rand_below(b, k))
    else:
        board = generate(layout, randbelow)
    if "order" in config:
        order = tuple(config["order"])
        if sorted(order) != list(range(n)):
            raise ValueError("order must be a permutation of the seats")
    else:
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = randbelow(i + 1)
            order[i], order[j] = order[j], order[i]
        order = tuple(order)
    deck = list(DECK_SET)
    for i in range(len(deck) - 1, 0, -1):
        j = randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]

    s.g = Game(board, n, names, order, config.get("vp_to_win", 10),
               config.get("discard_limit", 7), layout, TIMER_PRESETS[timers], config)
    s.phase = SETUP_SETTLEMENT
    s.cur = order[0]
    s.turn = 0
    s.step = 0
    s.rolled = False
    s.dev_played = False
    s.expired = False
    s.dice = None
    s.robber = board.desert
    s.hand = [0] * (5 * n)
    s.bank = [BANK_START] * 5
    s.dev = [0] * (5 * n)
    s.new_dev = [0] * 5
    s.deck = deck
    s.knights = [0] * n
    s.pieces = list(PIECE_LIMITS) * n
    s.vp = [0] * n
    s.road_len = [0] * n
    s.lr = -1
    s.la = -1
    s.rate = [4] * (5 * n)
    s.bld = [-1] * NUM_NODES
    s.road = [-1] * NUM_EDGES
    s.blocked = 0
    s.road_mask = 0
    s.reach = [0] * n
    s.frontier = [0] * n
    s.need = [0] * n
    s.offer = None
    s.answers = [0] * n
    s.free_roads = 0
    s.last_node = -1
    s.auto = [None] * n
    s.winner = -1
    s.log = None
    s.log_len = 0
    return s


__all__ = ["State", "Game", "new_state", "RESOURCES", "DEV_CARDS", "PHASES"]
