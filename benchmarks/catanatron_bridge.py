"""Seats a Catanatron bot in a Hexland game (benchmarks only; never imported by games/).

At each of its decisions the seat's legal moves (from its view) are translated to Catanatron
``Action`` tuples, the bot's ``decide`` picks one, and the pick is translated back.  Both
engines use the same cube coordinates (x east, z down the rows) and list a hex's corners in
the same order (N, NE, SE, S, SW, NW), so corners and edges map one to one through any
Catanatron map's land tiles.

What Catanatron has no action for: a discard is one action there (the engine drops half at
random), so its pick becomes a random discard of what is owed; offers from other players
are declined (it cannot answer them); ``move_pair`` (our timeout repair) is never offered.
Bots that read the game object (search players) are out of reach of this bridge: only the
action list is passed (``game=None``).
"""
from __future__ import annotations

import random

from catanatron.models.enums import Action, ActionType
from catanatron.models.map import BASE_MAP_TEMPLATE, CatanMap
from catanatron.models.player import Color

from games.hexland.engine.board import EDGE_NODES, HEX_CUBES, HEX_NODES, RESOURCES

COLORS = (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)
_THEIR_RES = ("WOOD", "BRICK", "SHEEP", "WHEAT", "ORE")


def _node_maps():
    """(our corner -> their node id, their node id -> our corner)."""
    cmap = CatanMap.from_template(BASE_MAP_TEMPLATE)
    ours_to_theirs = {}
    refs = ("NORTH", "NORTHEAST", "SOUTHEAST", "SOUTH", "SOUTHWEST", "NORTHWEST")
    for coord, tile in cmap.land_tiles.items():
        h = HEX_CUBES.index(tuple(coord))
        by_name = {ref.value: nid for ref, nid in tile.nodes.items()}
        for i, ref in enumerate(refs):
            x = HEX_NODES[h][i]
            nid = by_name[ref]
            assert ours_to_theirs.get(x, nid) == nid, "topologies disagree"
            ours_to_theirs[x] = nid
    return ours_to_theirs, {v: k for k, v in ours_to_theirs.items()}


NODE_TO_THEIRS, NODE_TO_OURS = _node_maps()


def _edge(e: int) -> tuple:
    a, b = EDGE_NODES[e]
    return tuple(sorted((NODE_TO_THEIRS[a], NODE_TO_THEIRS[b])))


def to_action(move: dict, seat: int, view: dict):
    """Our move as a Catanatron Action (None: no counterpart)."""
    c = COLORS[seat]
    t = move["type"]
    if t in ("place_settlement", "build_settlement"):
        return Action(c, ActionType.BUILD_SETTLEMENT, NODE_TO_THEIRS[move["node"]])
    if t in ("place_road", "build_road"):
        return Action(c, ActionType.BUILD_ROAD, _edge(move["edge"]))
    if t == "build_city":
        return Action(c, ActionType.BUILD_CITY, NODE_TO_THEIRS[move["node"]])
    if t == "roll":
        return Action(c, ActionType.ROLL, None)
    if t == "end_turn":
        return Action(c, ActionType.END_TURN, None)
    if t == "buy_dev":
        return Action(c, ActionType.BUY_DEVELOPMENT_CARD, None)
    if t == "discard":
        return Action(c, ActionType.DISCARD, None)
    if t == "move_robber":
        victim = None if move["victim"] is None else COLORS[move["victim"]]
        return Action(c, ActionType.MOVE_ROBBER, (HEX_CUBES[move["hex"]], victim, None))
    if t == "play_dev":
        card = move["card"]
        if card == "knight":
            return Action(c, ActionType.PLAY_KNIGHT_CARD, None)
        if card == "road_building":
            return Action(c, ActionType.PLAY_ROAD_BUILDING, None)
        if card == "year_of_plenty":
            a, b = move["resources"]
            return Action(c, ActionType.PLAY_YEAR_OF_PLENTY,
                          (_THEIR_RES[RESOURCES.index(a)], _THEIR_RES[RESOURCES.index(b)]))
        return Action(c, ActionType.PLAY_MONOPOLY, _THEIR_RES[RESOURCES.index(move["resource"])])
    if t == "bank_trade":
        give = RESOURCES.index(move["give"])
        rate = view["players"][seat]["rates"][move["give"]]
        cards = [_THEIR_RES[give]] * rate + [None] * (4 - rate)
        return Action(c, ActionType.MARITIME_TRADE,
                      tuple(cards) + (_THEIR_RES[RESOURCES.index(move["get"])],))
    return None


class CatanatronSeat:
    """A Catanatron player deciding for one of our seats from that seat's view."""

    def __init__(self, player_class, seed: int = 0):
        self.player_class = player_class
        self.rng = random.Random(seed)

    def decide(self, view: dict) -> dict:
        seat = view["seat"]
        moves = view["legal_moves"]
        types = {m["type"] for m in moves}
        if "accept" in types or ("decline" in types and "cancel" not in types):
            return {"type": "decline"}          # offers they cannot answer are declined
        if view["phase"] == "discard":
            return self._random_discard(view)
        pairs = []
        for m in moves:
            a = to_action(m, seat, view)
            if a is not None:
                pairs.append((a, m))
        if not pairs:
            return moves[0]
        player = self.player_class(COLORS[seat])
        # their bots draw from the module-level random; seed it from ours for repeatability
        random.seed(self.rng.getrandbits(32))
        pick = player.decide(None, [a for a, _m in pairs])
        return next(m for a, m in pairs if a == pick)

    def _random_discard(self, view: dict) -> dict:
        seat = view["seat"]
        owed = view["discards"][seat]
        cards = [r for r, k in view["you"]["hand"].items() for _ in range(k)]
        self.rng.shuffle(cards)
        out: dict = {}
        for r in cards[:owed]:
            out[r] = out.get(r, 0) + 1
        return {"type": "discard", "cards": out}
