"""The Hextension engine: board, scoring, rounds, NMRs, views and refused moves."""
from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.hextension import engine as hx
from games.hextension.engine.board import (
    CELL_LINES,
    TILES,
    line_status,
    rotate_180,
    value_counts,
)
from games.hextension.engine.rules import NMR_OUT, round_tiles

# A 307 board (the game's maximum): | columns 5 9 1 9 5, / lines 7 7 2 6 6, \ lines 4 8 3 4 8.
BOARD_307 = {
    "A1": "573", "A2": "574", "A3": "528",
    "B1": "978", "B2": "973", "B3": "924", "B4": "968",
    "C1": "174", "C2": "178", "C3": "123", "C4": "164", "C5": "168",
    "D1": "974", "D2": "928", "D3": "963", "D4": "964",
    "E1": "524", "E2": "568", "E3": "563",
}


def place(state, seat, placements):
    return hx.apply(state, seat, {"type": "place", "placements": placements})


def first_cells(state, seat, tiles):
    empty = [c for c in hx.CELLS if c not in state.boards[seat]]
    return dict(zip(tiles, empty))


def play_round(state, chooser=first_cells):
    tiles = round_tiles(state)
    for seat in sorted(hx.waiting_for(state)):
        state = place(state, seat, chooser(state, seat, tiles))
    return state


# --- the board ---------------------------------------------------------------------------------


def test_board_shape():
    assert len(hx.TILES) == 27 and len(set(hx.TILES)) == 27
    assert hx.CELLS == ("A1", "A2", "A3", "B1", "B2", "B3", "B4", "C1", "C2", "C3", "C4", "C5",
                        "D1", "D2", "D3", "D4", "E1", "E2", "E3")
    assert len(hx.LINES) == 15
    assert [" ".join(line.cells) for line in hx.LINES if line.symbol == "/"] == [
        "A1 B1 C1", "A2 B2 C2 D1", "A3 B3 C3 D2 E1", "B4 C4 D3 E2", "C5 D4 E3"]
    assert [" ".join(line.cells) for line in hx.LINES if line.symbol == "\\"] == [
        "C1 D1 E1", "B1 C2 D2 E2", "A1 B2 C3 D3 E3", "A2 B3 C4 D4", "A3 B4 C5"]
    for cell in hx.CELLS:  # every cell lies on exactly one line of each direction
        assert sorted(hx.LINES[i].direction for i in CELL_LINES[cell]) == [0, 1, 2]
        assert sum(cell in line.cells for line in hx.LINES) == 3
    # Axial coordinates: neighbours along a line are neighbours on the hex grid.
    for line in hx.LINES:
        steps = {(hx.AXIAL[b][0] - hx.AXIAL[a][0], hx.AXIAL[b][1] - hx.AXIAL[a][1])
                 for a, b in zip(line.cells, line.cells[1:])}
        assert steps == [{(0, 1)}, {(1, -1)}, {(1, 0)}][line.direction]
    assert [(n, q, r) for n, q, r in hx.CELL_COORDS if n in ("A1", "C1", "C3", "E3")] == [
        ("A1", -2, 0), ("C1", 0, -2), ("C3", 0, 0), ("E3", 2, 0)]


def test_seat_count_follows_the_config():
    assert hx.seat_count({"players": 7}) == 7


# --- scoring -----------------------------------------------------------------------------------


def test_score_empty_and_partial_boards():
    assert hx.score_board({}) == 0
    # Three 9s down column A: 3 × 9.
    assert hx.score_board({"A1": "923", "A2": "973", "A3": "924"}) == 27
    # The rules' example: four 7s on the / line A2 B2 C2 D1 score 28.
    assert hx.score_board({"A2": "173", "B2": "574", "C2": "978", "D1": "573"}) == 28
    # A line with a gap or a second value scores nothing.
    assert hx.score_board({"A1": "923", "A2": "973"}) == 0
    assert hx.score_board({"A1": "923", "A2": "973", "A3": "524"}) == 0


def test_score_hand_worked_full_board():
    # The 307 board with C3 and E1 swapped: C3 gets 524, E1 gets 123.
    board = dict(BOARD_307, C3="524", E1="123")
    # Lost: | C (5 × 1), | E (3 × 5), / A3..E1 (5 × 2), \ C1 D1 E1 (3 × 4), \ A1..E3 (5 × 3);
    # the 2s on A3 B3 C3 D2 E1 stay (both tiles show 2 on /).
    assert hx.score_board(board) == 307 - 5 - 15 - 12 - 15
    assert hx.score_board(BOARD_307) == hx.MAX_SCORE == 307


def test_line_status_for_the_diagram():
    a_line = hx.LINES[0]  # | A1 A2 A3
    to_come = value_counts(TILES)
    assert line_status({}, a_line, to_come)["status"] == "open"
    assert line_status({}, a_line, to_come)["values"] == [1, 5, 9]
    open_9 = line_status({"A1": "923"}, a_line, to_come)
    assert (open_9["status"], open_9["value"], open_9["values"]) == ("open", 9, [9])
    assert line_status({"A1": "923", "A2": "573"}, a_line, to_come)["status"] == "dead"
    full = line_status({"A1": "923", "A2": "973", "A3": "924"}, a_line, to_come)
    assert (full["status"], full["score"]) == ("scoring", 27)
    # Only one 9 tile left to come for two empty cells: dead.
    nines_gone = [t for t in TILES if t[0] == "9"][:8]
    short = value_counts(t for t in TILES if t not in nines_gone)
    assert line_status({"A1": nines_gone[0]}, a_line, short)["status"] == "dead"


boards = st.tuples(st.permutations(TILES), st.permutations(hx.CELLS), st.integers(0, 19)).map(
    lambda x: dict(zip(x[1][: x[2]], x[0]))
)


@given(boards)
@settings(max_examples=300, deadline=None)
def test_score_bounds_and_half_turn(board):
    score = hx.score_board(board)
    assert 0 <= score <= 307
    turned = {rotate_180(cell): tile for cell, tile in board.items()}
    assert hx.score_board(turned) == score


def test_half_turn_maps_lines_to_lines_of_their_direction():
    for line in hx.LINES:
        image = {rotate_180(c) for c in line.cells}
        assert any(other.direction == line.direction and set(other.cells) == image for other in hx.LINES)


# --- set-up and rounds ---------------------------------------------------------------------------


def test_config_checks():
    with pytest.raises(ValueError):
        hx.new_state({"players": 0}, 1)
    with pytest.raises(ValueError):
        hx.new_state({"players": 101}, 1)
    with pytest.raises(ValueError):
        hx.new_state({"players": 2, "tiles_per_round": 4}, 1)
    assert hx.new_state({"players": 100}, 1).players == 100


@pytest.mark.parametrize("per_round, rounds", [(1, 19), (2, 10), (3, 7)])
def test_a_game_has_the_right_rounds_and_draws_19_distinct_tiles(per_round, rounds):
    state = hx.new_state({"players": 2, "tiles_per_round": per_round}, "s")
    seen = []
    for _ in range(rounds):
        assert not hx.is_over(state)
        seen += round_tiles(state)
        state = play_round(state)
    assert hx.is_over(state) and hx.actors(state) == set()
    assert len(seen) == len(set(seen)) == 19
    assert all(len(b) == 19 for b in state.boards)
    assert hx.result(state)["scores"] == [hx.score_board(b) for b in state.boards]


def test_everyone_acts_at_once_and_a_later_move_replaces_the_earlier():
    state = hx.new_state({"players": 3}, 7)
    assert hx.actors(state) == {0, 1, 2}
    t1, t2 = round_tiles(state)
    state = place(state, 0, {t1: "A1", t2: "A2"})
    state = place(state, 0, {t1: "E3", t2: "C3"})  # replaces
    assert state.round == 0 and hx.actors(state) == {0, 1, 2} and hx.waiting_for(state) == {1, 2}
    state = place(state, 1, {t1: "A1", t2: "A2"})
    state = place(state, 2, {t1: "B1", t2: "B2"})
    assert state.round == 1
    assert state.boards[0] == {"E3": t1, "C3": t2}
    assert state.last_placed[0] == ("C3", "E3")


def test_legal_moves_cover_every_placement_and_apply():
    state = hx.new_state({"players": 2}, 3)
    moves = hx.legal_moves(state, 0)
    assert len(moves) == 19 * 18
    assert all(set(m["placements"]) == set(round_tiles(state)) for m in moves)
    for move in random.Random(0).sample(moves, 20):
        hx.apply(state, 0, move)
    assert hx.legal_moves(hx.new_state({"players": 1, "tiles_per_round": 1}, 3), 0).__len__() == 19


@given(st.integers(0, 10**9), st.integers(1, 3), st.integers(1, 3), st.integers(0, 10**6))
@settings(max_examples=25, deadline=None)
def test_replaying_the_same_moves_from_the_same_seed_gives_the_same_state(seed, players, per_round, choice):
    config = {"players": players, "tiles_per_round": per_round}
    rng = random.Random(choice)
    state = hx.new_state(config, seed)
    log = []
    while not hx.is_over(state):
        seat = rng.choice(sorted(hx.actors(state)))
        if rng.random() < 0.15:
            log.append((seat, None))
            state = hx.timeout_move(state, seat)
        else:
            move = rng.choice(hx.legal_moves(state, seat))
            log.append((seat, move))
            state = hx.apply(state, seat, move)
    again = hx.new_state(config, seed)
    for seat, move in log:
        again = hx.timeout_move(again, seat) if move is None else hx.apply(again, seat, move)
    assert again == state


# --- views -------------------------------------------------------------------------------------


def _tiles_in(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _tiles_in(k)
            yield from _tiles_in(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _tiles_in(v)
    elif isinstance(obj, str) and obj in hx.TILES:
        yield obj


@given(st.integers(0, 10**9), st.integers(1, 4), st.integers(1, 3), st.integers(0, 10**6))
@settings(max_examples=25, deadline=None)
def test_no_view_holds_an_undrawn_tile_or_the_seed(seed, players, per_round, choice):
    secret = f"seed-{seed}-secret"
    rng = random.Random(choice)
    state = hx.new_state({"players": players, "tiles_per_round": per_round}, secret)
    while True:
        drawn = set(state.deck[: min((state.round + 1) * per_round, 19)])
        for seat in [None, *range(players)]:
            v = hx.view(state, seat)
            text = json.dumps(v)
            assert secret not in text
            assert set(_tiles_in(v)) <= drawn
        if hx.is_over(state):
            break
        seat = rng.choice(sorted(hx.actors(state)))
        state = hx.apply(state, seat, rng.choice(hx.legal_moves(state, seat)))


def test_view_hides_the_open_round_of_others_and_describes_itself():
    state = hx.new_state({"players": 2}, 11)
    t1, t2 = round_tiles(state)
    state = place(state, 0, {t1: "C3", t2: "A1"})
    mine, theirs, spectator = hx.view(state, 0), hx.view(state, 1), hx.view(state, None)
    assert mine["pending"] == {t1: "C3", t2: "A1"}
    assert theirs["pending"] is None and "pending" not in spectator
    for v in (mine, theirs, spectator):
        assert v["seats"][0]["board"] == {} and v["seats"][0]["moved"] is True
        assert v["seats"][1]["moved"] is False
        assert all("C3" not in s["board"] and "C3" not in s["last_placed"] for s in v["seats"])
        assert v["drawn"] == [t1, t2] and v["earlier"] == [] and v["round"] == 1 and v["rounds"] == 10
    state = place(state, 1, {t1: "E3", t2: "E2"})
    v = hx.view(state, 1)
    assert v["seats"][0]["board"] == {"A1": t2, "C3": t1}
    assert v["seats"][0]["last_placed"] == ["A1", "C3"]
    assert v["last_round"] == [t1, t2] and v["earlier"] == [t1, t2] and v["round"] == 2
    lines = v["seats"][0]["lines"]
    assert len(lines) == 15 and {ln["direction"] for ln in lines} == {"|", "/", "\\"}
    assert all({"cells", "status", "value", "values", "score", "length"} <= set(ln) for ln in lines)
    assert json.loads(json.dumps(v)) == v


def test_diagram_marks_lines_dead_when_the_tiles_are_gone():
    # Play a one-player game to the end: every line is scoring or dead, none open.
    state = hx.new_state({"players": 1, "tiles_per_round": 1}, 5)
    while not hx.is_over(state):
        state = play_round(state)
    v = hx.view(state, 0)
    statuses = {ln["status"] for ln in v["seats"][0]["lines"]}
    assert statuses <= {"scoring", "dead"}
    assert sum(ln["score"] for ln in v["seats"][0]["lines"]) == v["seats"][0]["score"]
    assert v["over"] and v["result"]["scores"] == [v["seats"][0]["score"]]


# --- refused moves -----------------------------------------------------------------------------


@pytest.fixture
def second_round():
    state = hx.new_state({"players": 2}, 21)
    t1, t2 = round_tiles(state)
    state = place(state, 0, {t1: "A1", t2: "A2"})
    state = place(state, 1, {t1: "A1", t2: "A2"})
    return state, (t1, t2), round_tiles(state)


def _refused(state, seat, move, *words):
    before = copy.deepcopy(state)
    with pytest.raises(hx.IllegalMove) as info:
        hx.apply(state, seat, move)
    assert state == before
    message = str(info.value)
    assert message and message[0].isupper() and message.endswith(".")
    for word in words:
        assert word in message
    return message


def test_refused_moves_leave_the_state_unchanged(second_round):
    state, (p1, _), (t1, t2) = second_round
    undrawn = next(t for t in TILES if t not in state.deck[:4])
    mv = lambda placements: {"type": "place", "placements": placements}  # noqa: E731
    _refused(state, 0, mv({t1: "A1", t2: "B1"}), "A1", "already holds")
    _refused(state, 0, mv({undrawn: "B1", t2: "B2"}), undrawn, "not drawn")
    _refused(state, 0, mv({t1: "F9", t2: "B2"}), "F9", "no cell")
    _refused(state, 0, mv({p1: "B3", t1: "B1", t2: "B2"}), p1, "already on your board")
    _refused(state, 0, mv({t1: "B1", t2: "B1"}), "B1", "both")
    _refused(state, 0, mv({t1: "B1"}), t2, "missing")
    _refused(state, 0, mv({}), t1)
    _refused(state, 0, mv({"999": "B1", t2: "B2"}), "999", "no tile")
    _refused(state, 0, {"type": "pass"}, "place")
    _refused(state, 5, mv({t1: "B1", t2: "B2"}), "seat")


def test_a_player_who_is_out_cannot_move_and_ranks_last():
    state = hx.new_state({"players": 2}, 4)
    for _ in range(NMR_OUT):
        state = place(state, 0, first_cells(state, 0, round_tiles(state)))
        state = hx.timeout_move(state, 1)
    assert state.out == (False, True) and state.nmr == (0, 3)
    assert hx.actors(state) == {0}
    _refused(state, 1, {"type": "place", "placements": first_cells(state, 1, round_tiles(state))}, "out")
    assert len(state.boards[1]) == 4  # two NMR rounds placed, the third removed the player
    while not hx.is_over(state):
        state = play_round(state)
    res = hx.result(state)
    assert res["ranking"][-1] == 1 and res["out"] == [1] and res["winners"] == [0]
    with pytest.raises(hx.IllegalMove, match="over"):
        place(state, 0, {})


def test_nmr_ladder_ai_then_random_then_out():
    state = hx.new_state({"players": 2}, 99)
    tiles = round_tiles(state)
    state = place(state, 0, first_cells(state, 0, tiles))
    after_first = hx.timeout_move(state, 1)
    assert after_first == hx.timeout_move(state, 1)  # deterministic
    assert after_first.round == 1 and set(after_first.boards[1].values()) == set(tiles)
    from games.hextension.engine import ai
    assert after_first.boards[1] == {c: t for t, c in ai.place({}, tiles, "strong").items()}

    tiles = round_tiles(after_first)
    state = place(after_first, 0, first_cells(after_first, 0, tiles))
    after_second = hx.timeout_move(state, 1)
    assert after_second == hx.timeout_move(state, 1)  # the game's random stream, not chance
    assert after_second.nmr[1] == 2 and set(tiles) <= set(after_second.boards[1].values())

    # A seat that has moved keeps its move when the deadline passes.
    moved = place(after_second, 1, first_cells(after_second, 1, round_tiles(after_second)))
    assert hx.timeout_move(moved, 1) == moved


def test_timeout_of_the_last_missing_seat_closes_the_round():
    state = hx.new_state({"players": 3}, 8)
    state = place(state, 0, first_cells(state, 0, round_tiles(state)))
    state = hx.timeout_move(state, 1)
    assert state.round == 0
    state = hx.timeout_move(state, 2)
    assert state.round == 1 and state.nmr == (0, 1, 1)


# --- progress: the most each board can still make ---------------------------------------------


@given(st.integers(0, 10**9), st.integers(1, 3), st.integers(1, 3), st.integers(0, 10**6))
@settings(max_examples=30, deadline=None)
def test_potential_bounds_the_score_never_grows_and_is_the_score_at_the_end(seed, players, per_round, choice):
    rng = random.Random(choice)
    state = hx.new_state({"players": players, "tiles_per_round": per_round}, seed)
    before = None
    while True:
        seats = hx.view(state, None)["seats"]
        for entry in seats:
            assert entry["score"] <= entry["potential"]
            # the same figure from the board alone, with the tiles that may still come
            gone = set(hx.view(state, None)["earlier"])
            assert entry["potential"] == hx.potential(state.boards[entry["seat"]],
                                                      value_counts(t for t in TILES if t not in gone))
        if before is not None:
            assert all(now["potential"] <= then["potential"] for now, then in zip(seats, before))
        before = seats
        if hx.is_over(state):
            break
        seat = rng.choice(sorted(hx.actors(state)))
        state = hx.apply(state, seat, rng.choice(hx.legal_moves(state, seat)))
    final = hx.result(state)["scores"]
    assert [entry["potential"] for entry in before] == final  # every board full: nothing left open


def test_potential_of_an_empty_and_of_a_hand_worked_board():
    everything = value_counts(TILES)
    # Empty: every line open at its best value, | 9, / 7, \ 8, over 19 cells each way.
    assert hx.potential({}, everything) == 19 * (9 + 7 + 8)
    assert hx.potential(BOARD_307, value_counts([])) == 307
    # A 9 and a 1 kill the A column (3 × 9 lost); A1's \ line (5 cells) can now score 3 at
    # best, not 8, and A2's (4 cells) 4; both / values are 7, the best there is.
    board = {"A1": "973", "A2": "174"}
    lost = 3 * 9 + 5 * (8 - 3) + 4 * (8 - 4)
    assert hx.potential(board, value_counts(t for t in TILES if t not in board.values())) == 19 * 24 - lost


def test_each_view_of_one_state_has_seat_entries_of_its_own():
    # The seat entries are made once per state (a 100-seat round's close asks for 100 views of
    # one state); a viewer editing its view's entries must not change another viewer's.
    state = hx.new_state({"players": 3}, 23)
    for _ in range(3):
        state = play_round(state)
    first = hx.view(state, 0)
    first["seats"][1]["score"] = -1
    first["seats"].append({"seat": 99})
    second = hx.view(state, 1)
    assert len(second["seats"]) == 3 and second["seats"][1]["score"] >= 0
    assert second == hx.view(copy.deepcopy(state), 1)  # the same as a view made afresh
