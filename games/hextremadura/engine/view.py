"""The view: everything the player may see, as JSON (the shape is documented in
``docs/hextremadura.md``). The first round's shuffled order never appears: of the discovery
pile the view shows only its size and its top tile (an available tile)."""
from __future__ import annotations

from .board import Placed
from .geometry import DIRECTION_NAMES, DIRECTIONS
from .rules import QUEST_NAMES, QUESTS, State, face_choices, legal_cells, quests, rating, score
from .tiles import BACK, FRONT, ICONS, KINDS, TILES, icon_count


def _placed_json(p: Placed) -> dict:
    face = TILES[p.tile].faces[p.face]
    out = {"tile": p.tile, "q": p.q, "r": p.r, "rotation": p.rotation, "seq": p.seq, "river": TILES[p.tile].river}
    out.update(face.to_json(p.rotation))
    return out


def _tile_json(state: State, tile: str) -> dict:
    t = TILES[tile]
    return {
        "tile": tile,
        "river": t.river,
        "face": state.faces_up[tile],
        "faces": {name: t.faces[name].to_json() for name in face_choices(state, tile)},
    }


def build_view(state: State) -> dict:
    board = state.board
    analysis = board.analysis()
    find = board.find

    terrains: dict[int, dict] = {}
    for slot, p in enumerate(board.slots):
        for i in range(6):
            node = slot * 6 + i
            root = find(node)
            t = terrains.get(root)
            if t is None:
                packed = board.icons[root]
                t = terrains[root] = {
                    "id": len(terrains),
                    "kind": KINDS[board.kind[root]],
                    "size": board.size[root],
                    "icons": {name: icon_count(packed, k) for k, name in enumerate(ICONS)},
                    "spaces": [],
                }
            t["spaces"].append([p.q, p.r, i])

    tiles = []
    objectives = []
    for slot, p in enumerate(board.slots):
        entry = _placed_json(p)
        entry["spaces_terrain"] = [terrains[find(slot * 6 + i)]["id"] for i in range(6)]
        if p.face == FRONT:
            for req_json, req in zip(entry["requirements"], p.oriented.requirements):
                reach, _open = board.requirement_reach(slot, req.kind, req.side)
                req_json["met"] = board.requirement_met(slot, req.kind, req.n, req.side)
                req_json["reach"] = reach
        if p.face == BACK:
            met = analysis.objective_met(TILES[p.tile].faces[BACK].objective)
            entry["objective"]["met"] = met
            objectives.append({"tile": p.tile, "q": p.q, "r": p.r, "met": met, **TILES[p.tile].faces[BACK].objective.to_json()})
        tiles.append(entry)

    points = score(board, analysis)
    quest_status = quests(board, analysis, points)
    slots = ("display", "pile")
    available = []
    for slot_name, tile in zip(slots, state.available):
        available.append({"slot": slot_name, **_tile_json(state, tile)})

    view = {
        "game": "hextremadura",
        "round": state.round,
        "turn": state.turn,
        "over": state.over,
        "geometry": {
            "layout": "pointy-topped hexagons, axial (q, r)",
            "directions": [list(d) for d in DIRECTIONS],
            "direction_names": list(DIRECTION_NAMES),
            "spaces": "space i is the triangle between the centre and side i",
            "rotation": "rotating by k moves space i to space (i + k) mod 6",
        },
        "map": tiles,
        "terrains": sorted(terrains.values(), key=lambda t: t["id"]),
        "available": available,
        "legal_cells": [] if state.over else [list(c) for c in legal_cells(board)],
        "discovery": {
            "size": state.discovery_size,
            # Below the pile's top: known from round 2 on (the flipped explored pile), never in round 1.
            "below_top": None if state.round == 1 else [_tile_json(state, t) for t in state.queue[2:]],
        },
        "explored": [_tile_json(state, t) for t in state.explored],
        "last_move": state.last_move,
        "last_removed": [
            {"tile": p.tile, "q": p.q, "r": p.r, "rotation": p.rotation, "face": p.face} for p in state.last_removed
        ],
        "objectives": objectives,
        "score": points,
        "max_score": len([t for t in TILES.values() if not t.river]),
        "quests": {name: {"name": QUEST_NAMES[name], "met": quest_status[name]} for name in QUESTS},
        "final": None,
    }
    if state.over:
        view["final"] = {
            "score": points,
            "rating": rating(points),
            "perfect": points == view["max_score"],
            "quests": quest_status,
        }
    return view
