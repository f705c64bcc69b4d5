"""Bad input at the move edge: never a 500, never a write.

Three parts: every legal move of every engine (and every bot's move, and each plain form's
move) passes its engine's schema, so the schema is not too strict; hypothesis throws arbitrary
JSON and form data at the move, undo and hint endpoints of a running game of each game; and
one regression test per finding of the outside review (deep nesting, a Hextremadura move off
the map, hints of a game without hints, extra fields, a NUL in a player's name).
"""
from __future__ import annotations

import json
import random
from urllib.parse import urlencode

import pytest
from django.db.models import Count
from django.http import QueryDict
from django.urls import reverse
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from games import move_input, services, state_store
from games.errors import BadMove
from games.hexland.engine import rules as hexland_rules
from games.hexland.engine import schema as hexland_schema
from games.hextremadura import services as solo
from games.models import Game, MoveEvent
from games.sites import get_engine, get_site, offered_sites
from tests.support.factories import toy_game

KINDS = ["toy", *[site.kind for site in offered_sites()]]
DAY = 86400


# --- helpers ----------------------------------------------------------------------------------


def open_game(kind: str, ana, bo) -> Game:
    """A running game of ``kind`` with ana seated (and bo in the other seat, if any)."""
    if kind == "toy":
        return toy_game(ana, bo, target=1000)
    if kind == "hextremadura":
        return solo.start_casual_game(user=ana)  # undo allowed: the undo endpoint can write
    config = {"hextension": {"players": 2, "tiles_per_round": 2}, "hexland": {"players": 2}}[kind]
    game = services.create_game(kind=kind, config=config, created_by=ana, turn_seconds=DAY)
    services.join_game(game_id=game.pk, user=bo)  # the last seat taken: the game starts
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game


def written(game: Game) -> tuple[int, int]:
    row = Game.objects.filter(pk=game.pk).annotate(events_count=Count("events")).get()
    return row.events_count, row.version


def log_in(client, user) -> None:
    if getattr(client, "fuzz_user", None) != user.pk:  # a log-in per example would double the queries
        client.force_login(user)
        client.fuzz_user = user.pk


def post_form(client, url: str, form: dict) -> object:
    # Url-encoded by hand: any key or value, as a client other than a browser could send.
    return client.post(url, urlencode(form), content_type="application/x-www-form-urlencoded")


def assert_wrote_only_if_played(game: Game, before: tuple[int, int], response, *, seat: int, sent_version) -> None:
    assert response.status_code < 500
    events, version = written(game)
    if response.status_code == 302 and (events, version) == before:
        # Answered as played without a write: a resubmission of a move this seat already has
        # stored after the version the client sent (services.moves._already_played).
        # The version as the view read it ("-0" and " 3" are numbers to it, as to int()).
        form = QueryDict(mutable=True)
        form["version"] = str(sent_version)
        sent = move_input.parse_version(form)
        assert sent < version
        assert MoveEvent.objects.filter(game=game, seat=seat, kind=MoveEvent.Kind.MOVE, seq__gt=sent).exists()
    elif response.status_code == 302:  # played (a refusal is a 4xx page)
        assert version > before[1] and events - before[0] == version - before[1]
    else:
        assert response.status_code >= 400 and (events, version) == before, response.content[:300]


def acting_user(game: Game, users: dict):
    """The user of a seat the game waits for (so legal moves reach the engine), else ana."""
    game.refresh_from_db()
    seats = dict(game.seats.values_list("index", "user_id"))
    for seat in sorted(game.awaiting):
        if seats.get(seat) in users:
            return seat, users[seats[seat]]
    return 0, next(iter(users.values()))


def legal_moves_now(game: Game, seat: int) -> list[dict]:
    engine = get_engine(game.kind)
    moves = engine.legal_moves(state_store.load(game), seat) if game.status == Game.Status.ACTIVE else []
    return moves[:500]


# --- the schemas admit every legal move ---------------------------------------------------------


def playout(kind: str, seed: int, steps: int, rng: random.Random, bots: bool = True):
    """Yield (engine, state, seat, legal moves, the bot's move or None) along a playout of
    ``kind``: random legal moves, bots' moves and a few timeouts (the first seat always times
    out once, so Hexland's auto-placed pair can be moved)."""
    engine = get_engine(kind)
    config = {"hextension": {"players": 2, "tiles_per_round": 1 + seed % 3}, "hexland": {"players": 2 + seed % 3},
              "hextremadura": {}, "toy": {"players": 2, "target": 40}}[kind]
    state = engine.new_state(config, seed)
    for step in range(steps):
        if engine.is_over(state):
            return
        seat = rng.choice(sorted(engine.actors(state)))  # discards, trade answers: any of them
        if step == 0 or rng.random() < 0.05:
            state = engine.timeout_move(state, seat)
            continue
        bot_move = engine.choose_move(engine.view(state, seat), rng.choice(engine.ai_levels())) \
            if bots and rng.random() < 0.5 else None
        moves = engine.legal_moves(state, seat)
        yield engine, state, seat, moves, bot_move
        state = engine.apply(state, seat, bot_move or rng.choice(moves))


@pytest.mark.parametrize("kind", KINDS)
def test_every_legal_move_and_every_bot_move_passes_the_schema(kind):
    """Every legal move along playouts, and every move the bots chose, is schema-valid: the
    schemas are not too strict. (Each distinct move is checked once: they repeat a lot.)"""
    engine = get_engine(kind)
    assert engine.MOVE_SCHEMA is not None
    checked: set[str] = set()
    bots = kind != "hextremadura"  # its bot is the 0.8 s hint: checked below with a small budget
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        for _engine, _state, _seat, moves, bot_move in playout(kind, seed, 700, rng, bots=bots):
            # Hextension lists thousands of permutations: a sample of them.
            for move in [*(moves if len(moves) <= 300 else rng.sample(moves, 300)), *([bot_move] if bot_move else [])]:
                key = json.dumps(move, sort_keys=True)
                if key not in checked:
                    move_input.validate_move(engine, move)
                    checked.add(key)
    assert len(checked) >= 3  # the toy has three moves
    types = {json.loads(key)["type"] for key in checked}
    if kind == "hexland":  # the playouts reach every move type of the rules
        assert types == set(hexland_rules.MOVE_TYPES), set(hexland_rules.MOVE_TYPES) - types


def test_the_hextremadura_hint_passes_the_schema():
    from games.hextremadura.engine import ai

    engine = get_engine("hextremadura")
    for _engine, state, seat, _moves, _bot in playout("hextremadura", 4, 4, random.Random(4), bots=False):
        move_input.validate_move(engine, ai.hint(engine.view(state, seat), budget_s=0.05))


@pytest.mark.parametrize("kind", KINDS)
def test_each_schema_is_a_valid_json_schema_of_plain_data(kind):
    from jsonschema import Draft202012Validator

    schema = get_engine(kind).MOVE_SCHEMA
    Draft202012Validator.check_schema(schema)
    assert json.loads(json.dumps(schema)) == schema  # pure data: no Python object inside


def test_the_hexland_schema_allows_exactly_the_fields_of_the_rules():
    assert set(hexland_schema.FIELDS) == set(hexland_rules.MOVE_TYPES)
    for kind, fields in hexland_schema.FIELDS.items():
        assert set(fields) | {"type"} == hexland_rules._FIELDS[kind], kind


def test_the_plain_forms_make_schema_valid_moves():
    rng = random.Random(7)
    hextension, hextremadura = get_engine("hextension"), get_engine("hextremadura")
    for _engine, _state, _seat, moves, _bot in playout("hextension", 2, 6, rng, bots=False):
        move = rng.choice(moves)
        form = QueryDict(mutable=True)
        form.update({"version": "3", **{f"cell_{tile}": cell for tile, cell in move["placements"].items()}})
        parsed = get_site("hextension").parse_form(form)
        assert parsed == move
        move_input.validate_move(hextension, parsed)
    for _engine, _state, _seat, moves, _bot in playout("hextremadura", 3, 40, rng, bots=False):
        move = rng.choice(moves)
        fields = {"tile": move["tile"], "rotation": str(move["rotation"]), **({"face": move["face"]} if "face" in move else {})}
        for where in ({"q": str(move["q"]), "r": str(move["r"])}, {"cell": f"{move['q']},{move['r']}"}):
            form = QueryDict(mutable=True)
            form.update({**fields, **where})
            parsed = get_site("hextremadura").parse_form(form)
            assert parsed == move
            move_input.validate_move(hextremadura, parsed)


def test_refusals_name_the_field_in_a_sentence():
    cases = [
        ("hextremadura", {"type": "place", "tile": "T1", "q": 41, "r": 0}, "q must be a whole number from -40 to 40."),
        ("hextremadura", {"type": "place", "tile": "T1", "q": 1.0, "r": 0}, "q must be a whole number from -40 to 40."),
        ("hextremadura", {"type": "place", "tile": "T1", "q": 0, "r": 0, "rotation": 6}, "rotation must be a whole number from 0 to 5."),
        ("hextremadura", {"type": "place", "tile": "T1", "q": 0, "r": 0, "face": "c"}, "face must be one of"),
        ("hextension", {"type": "place", "placements": {"174": "Z9"}}, "placements.174 must be a cell from A1 to E3"),
        ("hextension", {"type": "place", "placements": {"174": "A1", "963": "A2", "123": "A3", "564": "B1"}},
         "placements must be a mapping of this round's tiles (1 to 3) to cells."),
        ("hexland", {"type": "build_road", "edge": 72}, "edge must be a whole number from 0 to 71."),
        ("hexland", {"type": "roll", "dice": 12}, "A roll move has no field 'dice'."),
        ("hexland", {"type": "discard"}, "A discard move needs the field cards."),
        ("hexland", {"type": "discard", "cards": {"gold": 1}}, "'gold' in cards must be one of"),
        ("hexland", {"type": "fly"}, "type must be one of"),
        ("toy", {"type": "add", "n": True}, "n must be 1, 2 or 3."),
    ]
    for kind, move, message in cases:
        with pytest.raises(BadMove) as refused:
            move_input.validate_move(get_engine(kind), move)
        assert message in refused.value.message, (move, refused.value.message)


# --- hypothesis at the endpoints ----------------------------------------------------------------

_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=2**53 - 2, max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
    st.sampled_from(["\x00", "a\x00", "T1", "place", "add", "wood", "C3", "174", "x" * 9000]),
)
JSON_VALUES = st.recursive(
    _LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
RAW_TEXTS = st.sampled_from([
    "", "null", "[]", "NaN", "Infinity", "-Infinity", "1e999", "9" * 5000, '{"a": 1, "a": 2}', "{\"type\": \"\\u0000\"}",
    '{"type": "add", "n": NaN}', '{"type": "add", "n": 1e999}', '{"type": "place", "q": -Infinity}', "\x00", "{",
    '{"type": 1', "[" * 50_000, "[" * 3_999 + "]" * 3_999, '{"a":' * 2_000 + "1" + "}" * 2_000,
])


def nested(depth: int) -> str:
    return '{"type": ' * depth + '"add"' + "}" * depth


# A recipe for the text of a ``move`` field, drawn without looking at the game (hypothesis
# draws the same way every time); ``move_text`` cooks it with the legal moves of the moment.
MOVE_RECIPES = st.one_of(
    st.tuples(st.just("json"), JSON_VALUES),  # arbitrary JSON, NaN and Infinity written raw
    st.tuples(st.just("raw"), RAW_TEXTS),  # raw oddities and deep nesting
    st.tuples(st.just("deep"), st.integers(min_value=1, max_value=60_000)),
    st.tuples(st.just("legal"), st.integers(min_value=0)),  # a legal move as it is
    st.tuples(st.just("extra"), st.integers(min_value=0),  # with extra fields
              st.dictionaries(st.text(max_size=8), JSON_VALUES, min_size=1, max_size=3)),
    st.tuples(st.just("wrong"), st.integers(min_value=0), st.integers(min_value=0), JSON_VALUES),  # a field replaced
)


def move_text(recipe: tuple, legal: list[dict]) -> str:
    family, *ingredients = recipe
    if family == "json":
        return json.dumps(ingredients[0], allow_nan=True)
    if family == "raw":
        return ingredients[0]
    if family == "deep":
        return nested(ingredients[0])
    if not legal:  # not this user's turn: the legal move of nobody
        return json.dumps({"type": "add", "n": 1})
    move = dict(legal[ingredients[0] % len(legal)])
    if family == "extra":
        move.update(ingredients[1])
    elif family == "wrong":
        fields = sorted(move)
        move[fields[ingredients[1] % len(fields)]] = ingredients[2]
    return json.dumps(move, allow_nan=True)


FORM_KEYS = st.sampled_from(["move", "version", "tile", "q", "r", "rotation", "face", "cell", "cell_174", "cell_963",
                             "cell_", "csrfmiddlewaretoken"]) | st.text(max_size=10)
FORM_VALUES = st.one_of(
    st.text(max_size=30), st.integers().map(str), st.sampled_from(["", "\x00", "0", "-0", "1,2", "a,b", "C3", "T1", "9" * 5000, "١٢"]),
)


# None: the game's current version (three times in four, so that moves reach the engine).
VERSIONS = st.tuples(st.integers(min_value=0, max_value=3), FORM_VALUES).map(lambda t: t[1] if t[0] == 0 else None)


@pytest.fixture
def running(request, make_user, settings):
    """(game, {user id: user}) for the kind of the test, with rate limits out of the way."""
    settings.GAME_MOVE_RATE_LIMIT = (10**9, 10)  # the limits have their own tests
    ana, bo = make_user(), make_user()
    game = open_game(request.param, ana, bo)
    return game, {ana.pk: ana, bo.pk: bo}


FUZZ = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.mark.django_db
@pytest.mark.parametrize("running", KINDS, indirect=True)
@hsettings(max_examples=60, **FUZZ)
@given(recipe=MOVE_RECIPES, version=VERSIONS)
def test_any_json_move_is_refused_cleanly_or_played(client, running, recipe, version):
    game, users = running
    seat, user = acting_user(game, users)
    log_in(client, user)
    text = move_text(recipe, legal_moves_now(game, seat))
    version = str(game.version) if version is None else version
    before = written(game)
    response = post_form(client, reverse("game_move", args=[game.pk]), {"move": text, "version": version})
    assert_wrote_only_if_played(game, before, response, seat=seat, sent_version=version)


@pytest.mark.django_db
@pytest.mark.parametrize("running", KINDS, indirect=True)
@hsettings(max_examples=40, **FUZZ)  # two requests each
@given(form=st.dictionaries(FORM_KEYS, FORM_VALUES, max_size=6), current=st.booleans(),
       legal=st.none() | st.integers(min_value=0))
def test_any_form_to_move_and_undo_is_refused_cleanly_or_played(client, running, form, current, legal):
    game, users = running
    seat, user = acting_user(game, users)
    log_in(client, user)
    moves = legal_moves_now(game, seat)
    if legal is not None and moves:  # a legal move's own form, with the drawn fields over it
        form = {**form_of(game.kind, moves[legal % len(moves)]), **form}
    if current:
        form = {**form, "version": str(game.version)}
    for name in ("game_move", "game_undo"):
        before = written(game)
        response = post_form(client, reverse(name, args=[game.pk]), form)
        assert_wrote_only_if_played(game, before, response, seat=seat, sent_version=form.get("version"))


def form_of(kind: str, move: dict) -> dict:
    """The fields a page's form sends for ``move``: the game's plain form, else the JSON field."""
    if kind == "hextension":
        return {f"cell_{tile}": cell for tile, cell in move["placements"].items()}
    if kind == "hextremadura":
        return {key: str(value) for key, value in move.items() if key != "type"}
    return {"move": json.dumps(move)}


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_the_hint_endpoint_never_fails_and_never_writes(client, make_user, kind):
    ana, bo, cy = make_user(), make_user(), make_user()
    game = open_game(kind, ana, bo)
    url = reverse("game_hint", args=[game.pk])
    before = written(game)
    for user, method in ((ana, "get"), (cy, "get"), (ana, "post")):
        client.force_login(user)
        response = getattr(client, method)(url + "?version=%00&move=%7B")
        assert response.status_code < 500
    assert client.get(reverse("game_hint", args=[game.pk + 10_000])).status_code == 404
    assert written(game) == before


# --- regressions: the findings of the outside review ----------------------------------------------


def post_move(client, game, text: str, version=None):
    version = game.version if version is None else version
    return post_form(client, reverse("game_move", args=[game.pk]), {"move": text, "version": str(version)})


@pytest.mark.django_db
def test_finding_4_deep_nesting_is_a_400(client, make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    client.force_login(ana)
    for text in ("[" * 50_000, "[" * 3_999 + "]" * 3_999, nested(3_000), nested(7)):
        response = post_move(client, game, text)
        assert response.status_code == 400, text[:20]
    assert "nested too deeply" in post_move(client, game, nested(7)).content.decode()
    # And through the service, with a structure no JSON parser made: no RecursionError.
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(BadMove, match="nested too deeply"):
        services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": deep}, expected_version=0)
    # Nor what PostgreSQL's JSON refuses (the move is compared with stored ones as the lock is taken).
    for bad in ({"type": "add", "n": float("nan")}, {"type": "add", "n": "a\x00b"}):
        with pytest.raises(BadMove):
            services.submit_move(game_id=game.pk, user=ana, move=bad, expected_version=0)
    assert written(game) == (0, 0)


def _hextremadura_move_off_the_map(game) -> str:
    tile = state_store.load(game).available[0]
    return '{"type": "place", "tile": "%s", "q": %s, "r": 0, "rotation": 0}' % (tile, "9" * 4_000)


@pytest.mark.django_db
def test_finding_5_a_hextremadura_move_off_the_map_is_refused_and_the_game_lives_on(client, make_user):
    ana = make_user()
    game = solo.start_casual_game(user=ana)
    client.force_login(ana)
    response = post_move(client, game, _hextremadura_move_off_the_map(game))
    assert response.status_code == 400 and "q is far too large" in response.content.decode()
    tile = state_store.load(game).available[0]
    response = post_move(client, game, json.dumps({"type": "place", "tile": tile, "q": 41, "r": 0}))
    assert response.status_code == 400 and "q must be a whole number from -40 to 40" in response.content.decode()
    assert written(game) == (0, 0)
    assert client.get(reverse("game_detail", args=[game.pk])).status_code == 200
    # The edge's reach is the map's: a tile at the far corner is played and drawn.
    response = post_move(client, game, json.dumps({"type": "place", "tile": tile, "q": 40, "r": -40}))
    assert response.status_code == 302 and written(game) == (1, 1)
    assert client.get(reverse("game_detail", args=[game.pk])).status_code == 200


@pytest.mark.django_db
def test_finding_5_without_the_schema_the_write_path_still_refuses_a_board_that_cannot_be_drawn(
        client, make_user, monkeypatch):
    ana = make_user()
    game = solo.start_casual_game(user=ana)
    client.force_login(ana)
    monkeypatch.setattr(move_input, "validate_move", lambda engine, move: None)  # as if a schema let it through
    response = post_move(client, game, _hextremadura_move_off_the_map(game))
    assert response.status_code == 400 and "cannot be shown on the board" in response.content.decode()
    assert written(game) == (0, 0)
    assert client.get(reverse("game_detail", args=[game.pk])).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["hextension", "hexland", "toy"])
def test_finding_6_a_game_without_hints_answers_400(client, make_user, kind):
    ana, bo = make_user(), make_user()
    game = open_game(kind, ana, bo)
    client.force_login(ana)
    response = client.get(reverse("game_hint", args=[game.pk]))
    assert response.status_code == 400 and "This game gives no hints." in response.content.decode()


EXTRA_FIELDS = [
    '"pad": "%s"' % ("x" * 1_000_000),  # 1 MB
    '"note": "\\u0000"', '"\\u0000": 1', '"note": NaN', '"note": Infinity', '"note": -Infinity', '"note": 1e999',
    '"note": %s' % ("9" * 4_000),
]


@pytest.mark.django_db
@pytest.mark.parametrize("schema", ["declared", "none"])
def test_finding_7_extra_fields_are_refused_and_nothing_is_stored(client, make_user, monkeypatch, schema):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    if schema == "none":  # an engine without a schema: the platform's own rules still hold
        monkeypatch.setattr(get_engine("toy"), "MOVE_SCHEMA", None)
    client.force_login(ana)
    for extra in EXTRA_FIELDS:
        response = post_move(client, game, '{"type": "add", "n": 1, %s}' % extra)
        assert response.status_code == 400, extra[:30]
    for move in ({"type": "add", "n": 1, "pad": "x" * 1_000_000}, {"type": "add", "n": 1, "note": float("nan")},
                 {"type": "add", "n": 1, "note": "\x00"}, {"type": "add", "n": 1, "note": 10**30}):
        with pytest.raises(BadMove):
            services.submit_move(game_id=game.pk, user=ana, move=move, expected_version=0)
    assert written(game) == (0, 0)
    # A harmless extra field: refused by a schema; without one, stored as sent (documented).
    response = post_move(client, game, '{"type": "add", "n": 1, "note": "hi"}')
    if schema == "declared":
        assert response.status_code == 400 and "has no field" in response.content.decode()
        assert written(game) == (0, 0)
    else:
        assert response.status_code == 302 and MoveEvent.objects.get(game=game).payload["note"] == "hi"


@pytest.mark.django_db
def test_finding_7_a_nul_in_a_player_name_is_a_404(client, make_user):
    client.force_login(make_user())
    for path in ("/players/%00/", "/players/a%00b/", "/players/nobody/"):
        assert client.get(path).status_code == 404, path
