"""Properties over many random games (bounded: about 200 games here; the simulator and the
benchmark play thousands).  Random players pick uniformly among legal moves, answer offers,
sometimes let their timer run out, and now and then try an illegal move."""
import json
import pickle
import random

import pytest

from games.hexland import engine as H
from games.hexland.engine.board import NODE_NEIGHBOURS, NUM_NODES
from games.hexland.engine.rules import _recompute_frontier
from games.hexland.engine.state import DECK_SET, DEV_INDEX, OVER, PIECE_LIMITS

from .helpers import brute_longest_road, snapshot
from .test_timeouts_views import hidden_variant

GAMES = 200
CHUNKS = 8
MAX_TURNS = 1500


def check_cheap(s, played):
    n = s.g.n
    for r in range(5):
        assert s.bank[r] >= 0 and all(s.hand[q * 5 + r] >= 0 for q in range(n))
        assert s.bank[r] + sum(s.hand[q * 5 + r] for q in range(n)) == 19
    for c in range(5):
        assert (s.deck.count(c) + sum(s.dev[q * 5 + c] for q in range(n)) + played[c]
                == DECK_SET.count(c))
    for p in range(n):
        towns = s.bld.count(p)
        cities = s.bld.count(p + 4)
        roads = s.road.count(p)
        assert [towns + s.pieces[p * 3], cities + s.pieces[p * 3 + 1],
                roads + s.pieces[p * 3 + 2]] == list(PIECE_LIMITS)
        assert min(s.pieces[p * 3:p * 3 + 3]) >= 0
        assert s.vp[p] == towns + 2 * cities + 2 * (s.lr == p) + 2 * (s.la == p)
    for x in range(NUM_NODES):
        if s.bld[x] != -1:
            assert all(s.bld[y] == -1 for y in NODE_NEIGHBOURS[x]), "distance rule broken"
    if s.phase != OVER:
        acts = H.actors(s)
        assert acts and all(H.legal_moves(s, q) for q in acts), "an actor without a move"


def check_deep(s):
    n = s.g.n
    for p in range(n):
        assert s.road_len[p] == brute_longest_road(s.road, s.bld, p)
        t = s.copy()
        _recompute_frontier(t, p)
        assert t.frontier[p] == s.frontier[p]
    lens = s.road_len
    if s.lr != -1:
        assert lens[s.lr] == max(lens) >= 5
    else:
        assert max(lens) < 5 or lens.count(max(lens)) > 1
    if s.la != -1:
        assert s.knights[s.la] == max(s.knights) >= 3
    for seat in range(n):
        v = H.view(s, seat)
        assert json.loads(json.dumps(v)) == v
        assert v == H.view(hidden_variant(s, seat), seat)
    assert H.view(s) == H.view(hidden_variant(s, -1))


def try_illegal(s, seat, rng):
    """A corrupted move must raise IllegalMove and leave the state as it was."""
    before = snapshot(s)
    legal = H.legal_moves(s, seat)
    bad = rng.choice([
        {"type": "build_city", "node": rng.randrange(-2, 60)},
        {"type": "roll", "junk": 1} if s.phase != 2 else {"type": "end_turn"},
        {"type": "nonsense"},
        {"type": "move_robber", "hex": s.robber},
        {"type": "bank_trade", "give": "wood", "get": "wood"},
        dict(rng.choice(legal), **{rng.choice(["node", "edge", "hex", "card"]): "x"}),
    ])
    if bad in legal:
        return
    who = (seat + 1) % s.g.n if rng.random() < 0.3 else seat
    with pytest.raises(H.IllegalMove) as info:
        H.apply(s, who, bad)
    assert str(info.value)
    assert snapshot(s) == before


def play_random_game(seed, deep=None):
    """Play one random game with checks after every move (``deep`` ones on some positions,
    by default in the first 60 games)."""
    deep = seed < 60 if deep is None else deep
    rng = random.Random(seed)
    players = 2 + seed % 3
    # No turn limit: these games must end by a win (the limit has its own test).
    config = {"players": players, "layout": ("random", "spiral", "fixed")[seed % 3], "max_turns": 10**6}
    s = H.new_state(config, seed)
    history = []
    played = [0] * 5
    offers = seed % 2 == 0
    step = 0
    while not H.is_over(s) and s.turn < MAX_TURNS:
        seat = rng.choice(sorted(H.actors(s)))
        if step % 97 == 0:
            try_illegal(s, seat, rng)
        if rng.random() < 0.01:
            s = H.timeout_move(s, seat)
            history.append((seat, None))
        else:
            moves = H.legal_moves(s, seat, offers=offers and rng.random() < 0.3)
            move = rng.choice(moves)
            if move["type"] == "play_dev":
                played[DEV_INDEX[move["card"]]] += 1
            s = H.apply(s, seat, move)
            history.append((seat, move))
        check_cheap(s, played)
        if deep and step % 150 == 75:
            check_deep(s)
        step += 1
    return config, s, history


def replay(config, seed, history):
    s = H.new_state(config, seed)
    for seat, move in history:
        s = H.timeout_move(s, seat) if move is None else H.apply(s, seat, move)
    return s


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games(chunk):
    for seed in range(chunk, GAMES, CHUNKS):
        config, s, history = play_random_game(seed)
        assert H.is_over(s), f"game {seed} did not finish in {MAX_TURNS} turns"
        w = s.winner
        assert w == s.cur, "a player wins only on their own turn"
        assert H.victory_points(s, w) >= 10
        res = H.result(s)
        assert res["winner"] == w and res["ranks"][w] == 1 and res["scores"][w] >= 10
        assert sum(1 for e in H.view(s)["log"] if " wins with " in e) == 1
        if seed % 10 == 0:
            check_deep(s)
            assert snapshot(replay(config, seed, history)) == snapshot(s)
            assert snapshot(pickle.loads(pickle.dumps(s))) == snapshot(s)


def test_apply_never_mutates_its_input():
    rng = random.Random(5)
    s = H.new_state({"players": 4}, 5)
    for _ in range(600):
        if H.is_over(s):
            break
        seat = rng.choice(sorted(H.actors(s)))
        before = snapshot(s)
        nxt = H.apply(s, seat, rng.choice(H.legal_moves(s, seat)))
        assert snapshot(s) == before
        s = nxt
