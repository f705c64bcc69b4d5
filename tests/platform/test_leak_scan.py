"""A standing leak scan (issue 30): during a running game of each game, everything someone other
than the owner of a secret can reach is rendered, and none of it may carry that secret.

What is rendered, for each viewer (another seated player, a spectator or a stranger, staff):
the game page (plain and as htmx's JSON of regions), the regions endpoint (all and one by one),
the lazy region bodies, every same-game link the page offers, hints, the chat fragment, every
replay step the viewer may reach (and the steps beyond, which are clamped or refused), socket
pushes (``consumers.catch_up``: everything for a new page, and what a page current before the
owner's last move is sent after it; chat and presence drawings), lobbies, the dashboard and
player pages; and the admin pages of the game, its seats and its move events, for staff with the
view permissions and for a superuser.

What must not appear (docs/architecture.md, "Who may see what"):
- any game: its secret seed (``Game.seed``, a daily puzzle's seed), never anywhere;
- Hextension: the tiles not yet drawn (the deck beyond the open round), another seat's
  submission of the open round;
- Hextremadura: the shuffle (the order of the discovery pile below its top, in round 1), also
  from its own player; its par (the solver's placements) while the game runs;
- Hexland: another seat's hand, its unplayed development cards (their kinds), its private log
  lines (what it bought, what it stole), what it may click; the development deck's order and the
  random stream.

Each secret is looked for as the concrete strings the site's own markup would carry it in (a
``data-tile`` attribute, a tile's description, a panel's ``data-owner``…); and each test checks
the positive control: the same kind of string does appear where it may (the owner's own hand in
the owner's page, the tiles of the open round in a player's page), so the scan cannot pass
because it looks for the wrong thing.
"""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from html import unescape

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import consumers, live, selectors, services, state_store
from games.errors import GameError
from games.hexland import engine as hexland
from games.hexland import svg as hexland_svg
from games.hexland.engine.board import RESOURCES
from games.hexland.engine.state import DEV_CARDS, DEV_TITLES
from games.hextension import engine as hextension
from games.hextension.svg import describe_tile
from games.hextremadura import engine as hextremadura
from games.hextremadura import services as hextremadura_services
from games.hextremadura.models import CasualPar, DailyAttempt, DailyPuzzle
from games.models import ChatMessage, Game, MoveEvent, Seat
from games.services import adjudication
from games.sites import offered_sites
from tests.support import factories

pytestmark = pytest.mark.django_db

# Distinctive secret seeds (19 digits): a seed in a page is a leak, never a coincidence.
HEXTENSION_SEED = 7_350_123_456_789_012_345
HEXLAND_SEED = 2_345_678_901_234_567_891
DAILY_SEED = 4_102_030_405_060_708_091
CASUAL_SEED = 5_918_273_645_546_372_819
# Every answer of the site to a viewer is one of these: a refusal is fine, a server error is not.
ANSWERED = {200, 302, 304, 400, 403, 404, 409}


# --- what a viewer can reach ---------------------------------------------------------------

@dataclass
class Reached:
    """Every body one viewer was given: (where, text)."""

    who: str
    bodies: list[tuple[str, str]] = field(default_factory=list)

    def add(self, where: str, text: str) -> None:
        self.bodies.append((where, text))

    def leaks(self, markers) -> list[tuple[str, str]]:
        variants = {variant for marker in markers for variant in (marker, escape(marker))}
        return [(where, marker) for where, text in self.bodies for marker in sorted(variants) if marker in text]

    def shows(self, marker: str) -> bool:
        return any(variant in text for _, text in self.bodies for variant in (marker, escape(marker)))


def strings_in(data) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for key, value in data.items() for s in (*strings_in(key), *strings_in(value))]
    if isinstance(data, list):
        return [s for value in data for s in strings_in(value)]
    return [str(data)]


def text_of(response) -> str:
    """The body as sent, and for JSON every string in it decoded (an HTML region's quotes are
    escaped in the raw JSON)."""
    if response.status_code == 304:
        return ""
    body = response.content.decode()
    if response.get("Content-Type", "").startswith("application/json"):
        body += "\n" + "\n".join(strings_in(json.loads(body)))
    return body


def frames_text(frames: list[str], fetch) -> str:
    """What socket frames carry; a ``fetch`` frame's regions are read over HTTP, as the client does."""
    texts = []
    for frame in frames:
        message = json.loads(frame)
        texts.append(frame + "\n" + "\n".join(strings_in(message)))
        if message["type"] == "fetch":
            texts.append(fetch(message["ids"]))
        else:
            assert message["type"] == "regions", message
    return "\n".join(texts)


LINK = re.compile(r'(?:href|hx-get|data-live-lazy)="([^"]+)"')


class Viewer:
    """One user's look at one game: the client, and what they were given."""

    def __init__(self, game: Game, user, label: str):
        self.game, self.user = game, user
        self.reached = Reached(label)
        self.client = Client()
        self.client.force_login(user)
        self.fetched: set[str] = set()

    def get(self, url: str, **headers):
        response = self.client.get(url, **headers)
        assert response.status_code in ANSWERED, (self.reached.who, url, response.status_code)
        self.reached.add(f"GET {url} {' '.join(headers)} -> {response.status_code}", text_of(response))
        self.fetched.add(url)
        return response

    def follow_links(self, limit: int = 400) -> None:
        """Every address of this game that the pages gave, and those their pages give (lazy
        bodies, replay steps, hints, a game's own pages under its kind's folder…)."""
        own = re.compile(rf"^/games/(?:[a-z]+/game/)?{self.game.pk}/")
        done = 0
        while done < len(self.reached.bodies):
            _, text = self.reached.bodies[done]
            done += 1
            for link in LINK.findall(text.replace('\\"', '"')):
                url = unescape(link)
                if own.match(url) and url not in self.fetched:
                    assert len(self.fetched) < limit, "the scan follows too many links"
                    self.get(url)


def socket_frames(game: Game, user, page: consumers.Page | None = None, announcement: str | None = None,
                  fetch=None) -> str:
    frames = consumers.catch_up(game.pk, user, page or consumers.Page(), announcement=announcement)
    return frames_text(frames, fetch)


def api_paths(game: Game) -> list[str]:
    """Every GET of the API (its declared operations, streams apart) that concerns ``game`` or
    its viewer: the game's own, its league's when it has one, and those without parameters."""
    from api.http import OPERATIONS

    paths = []
    for operation in OPERATIONS:
        if operation.method != "GET" or operation.stream:
            continue
        path = operation.path
        if path.startswith("/games/{id}"):
            path = path.replace("{id}", str(game.pk))
        elif path.startswith("/leagues/{id}") and game.league_id:
            path = path.replace("{id}", str(game.league_id)).replace("{number}", "1")
        if "{" not in path:
            paths.append(path)
    return paths


def api_bodies(game: Game, user) -> list[tuple[str, str]]:
    """What the API gives ``user`` of ``game`` (issue 47): every GET it declares (api_paths) with a
    token of theirs, the first line of the game's stream (``gameFull``, or its end), and their events."""
    from api import selectors as api_selectors
    from api import streams, tokens

    _token, secret = tokens.create_token(owner=user, name="leak scan")
    answers = []
    for path in api_paths(game):
        answer = Client().get(f"/api/v1{path}", HTTP_AUTHORIZATION=f"Bearer {secret}")
        assert answer.status_code in ANSWERED, ("api", path, answer.status_code)
        data = answer.json() if "json" in answer["Content-Type"] else {"text": answer.content.decode()}
        answers.append((f"api: GET /api/v1{path} -> {answer.status_code}", data))
    stream = SimpleNamespace(game_id=game.pk, user=user, sent_version=-1, sent_shape=None)
    lines = [json.loads(line) for line in streams.game_lines(stream, "gameFull")]
    lines += api_selectors.events_of(user)
    bodies = []
    for where, data in [*answers, *(("api: stream line", line) for line in lines)]:
        # A seat's legal moves are every placement of the round's (public) tiles on its own empty
        # cells: they match another seat's submission in form whatever it is. They are checked to
        # be the viewer's own seat's moves, and the rest of the answer is scanned.
        moves = data.pop("legal_moves", []) if isinstance(data, dict) else []
        if moves:
            engine, seat = game_engine(game), selectors.seat_of(selectors.game_for_viewer(game.pk, user), user)
            assert moves == engine.legal_moves(state_store.load(Game.objects.get(pk=game.pk)), seat)
        bodies.append((where, json.dumps(data) + "\n" + "\n".join(strings_in(data))))
    return bodies


def game_engine(game: Game):
    from games.sites import get_engine

    return get_engine(game.kind)


def reach(game: Game, user, label: str, *, page_before: consumers.Page | None = None,
          extra_urls: tuple[str, ...] = ()) -> Reached:
    """Everything ``user`` can be shown of ``game`` while it runs (see the module's docstring)."""
    game = Game.objects.get(pk=game.pk)
    viewer = Viewer(game, user, label)
    detail = reverse("game_detail", args=[game.pk])
    regions_url = reverse("game_regions", args=[game.pk])

    def fetch(ids) -> str:
        return text_of(viewer.get(f"{regions_url}?ids={','.join(ids)}"))

    # Pushes: a page current before the owner's last move is sent what changed; a new page, all.
    if page_before is not None:
        # One announcement answered by every viewer's socket (they share its read), as on the site.
        announcement = f"leak-scan-{game.pk}-{game.version}-{game.created_at.timestamp()}"
        viewer.reached.add("socket: after the move", socket_frames(game, user, page_before, announcement, fetch))
    viewer.reached.add("socket: a new page", socket_frames(game, user, fetch=fetch))
    try:
        watched = selectors.game_for_viewer(game.pk, user)
    except GameError:
        watched = None
    if watched is not None:
        view = live.LiveView(watched, user)
        viewer.reached.add("socket: chat", live.draw(view, live.CHAT).with_token(None))
        presence = consumers.presence_drawn(game.pk, user, None)
        viewer.reached.add("socket: presence", presence.with_token(None) if presence else "")

    # The API: the game as the viewer's token reads it, its stream's first line, their events.
    for where, text in api_bodies(game, user):
        viewer.reached.add(where, text)

    # The page, as a browser and as htmx; the regions, all and each; lazy bodies.
    viewer.get(detail)
    viewer.get(detail, HTTP_HX_REQUEST="true")
    viewer.get(regions_url)
    region_ids = [region.id for region in live.game_regions(game)] + [live.PRESENCE.id, live.CHAT.id]
    for region_id in region_ids:
        viewer.get(f"{regions_url}?ids={region_id}")
        region = live.region_by_id(game, region_id)
        if region is not None and region.body_template:
            viewer.get(reverse("game_region_body", args=[game.pk, region_id]))
    viewer.get(reverse("game_hint", args=[game.pk]))
    viewer.get(reverse("game_hint", args=[game.pk]), HTTP_HX_REQUEST="true")
    viewer.get(reverse("game_chat", args=[game.pk]), HTTP_HX_REQUEST="true")

    # Replays: every step the viewer may reach, and beyond it (clamped, or refused).
    replay = reverse("game_replay", args=[game.pk])
    try:
        last = selectors.replay_limit(game, selectors.seat_of(game, user))
    except GameError:
        last = 0
    for at in [*range(last + 1), game.version, game.version + 5]:
        viewer.get(f"{replay}?at={at}")
    viewer.get(replay)

    # The site around the game.
    for url in (reverse("dashboard"), reverse("finished_games"), reverse("profile"), reverse("league_list"),
                reverse("hextremadura_leaderboard", args=[hextremadura_services.today().isoformat()]),
                *(reverse(site.lobby_url_name) for site in offered_sites() if site.lobby_url_name),
                *(reverse("player", args=[seat.user.username]) for seat in game.seats.select_related("user")
                  if seat.user is not None),
                *extra_urls):
        viewer.get(url)
    viewer.follow_links()
    return viewer.reached


def admin_url(name: str, *args) -> str:
    return reverse(f"admin:{name}", args=args)


def staff_user(make_user, django_user_model):
    """Staff (not a superuser) who may view play in the admin."""
    staff = make_user("staffer", is_staff=True)
    codenames = ["view_game", "view_seat", "view_moveevent", "view_chatmessage", "view_dailypuzzle",
                 "view_dailyattempt"]
    staff.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    return django_user_model.objects.get(pk=staff.pk)  # no cached permissions


def reach_admin(game: Game, user, label: str) -> Reached:
    """The admin pages of the game, its seats and its move events (and a daily puzzle's)."""
    viewer = Viewer(game, user, label)
    urls = [admin_url("games_game_changelist"), admin_url("games_game_changelist") + f"?q={game.title or game.pk}",
            admin_url("games_game_change", game.pk), admin_url("games_game_history", game.pk),
            admin_url("games_seat_changelist"), admin_url("games_moveevent_changelist"),
            admin_url("games_moveevent_changelist") + f"?q={game.pk}", admin_url("games_chatmessage_changelist")]
    urls += [admin_url("games_seat_change", seat.pk) for seat in Seat.objects.filter(game=game)]
    urls += [admin_url("games_moveevent_change", event.pk) for event in MoveEvent.objects.filter(game=game)]
    attempt = DailyAttempt.objects.filter(game=game).first()
    if attempt is not None:
        urls += [admin_url("hextremadura_dailypuzzle_changelist"), admin_url("hextremadura_dailyattempt_changelist"),
                 admin_url("hextremadura_dailypuzzle_change", attempt.puzzle_id),
                 admin_url("hextremadura_dailyattempt_change", attempt.pk)]
    for url in urls:
        response = viewer.get(url)
        assert response.status_code == 200, (label, url, response.status_code)  # the scan saw the page
    return viewer.reached


def assert_none_leaks(reached: list[Reached], markers_for) -> int:
    """``markers_for(reached)``: what that viewer must not be shown. Returns the bodies scanned."""
    found = []
    for seen in reached:
        found += [(seen.who, where, marker) for where, marker in seen.leaks(markers_for(seen))]
    assert not found, "leaks:\n" + "\n".join(f"{who}: {where}: {marker!r}" for who, where, marker in found[:20])
    return sum(len(seen.bodies) for seen in reached)


def current_page(game: Game, user) -> consumers.Page:
    """A socket's page that shows the game as it is now."""
    page = consumers.Page()
    consumers.catch_up(game.pk, user, page, page_stamp=live.stamp_of(Game.objects.get(pk=game.pk)))
    return page


# --- Hextension -----------------------------------------------------------------------------

hextension_place = factories.hextension_place


def pending_markers(placements: dict, round_number: int) -> list[str]:
    """How a seat's open-round submission would show: its board's preview, its words, the move."""
    out = [f"hx-play-r{round_number}-{'-'.join(placements.values())}"]
    for tile, cell in placements.items():
        out += [f"Cell {cell}, {describe_tile(tile)}", f"<li>{cell}: {describe_tile(tile)}, planned this round",
                f"'{tile}': '{cell}'", f'"{tile}": "{cell}"']
    return out


def test_hextension_never_shows_an_undrawn_tile_another_seats_submission_or_the_seed(make_user, django_user_model):
    ana, bo, cy, dee = (make_user(name) for name in ("ana", "bo", "cy", "dee"))  # dee watches
    staff, root = staff_user(make_user, django_user_model), django_user_model.objects.create_superuser(
        "root", "root@example.com", "a-long-pass-phrase")
    game = services.create_game(kind="hextension", config={"players": 3, "tiles_per_round": 2}, players=[ana, bo, cy],
                                turn_seconds=86400, seed=HEXTENSION_SEED)
    services.start_game(game_id=game.pk)
    for seat, user in enumerate((ana, bo, cy)):  # round 1 closes: boards, diagrams, history
        hextension_place(game, user, seat, list(hextension.CELLS[seat:seat + 2]))
    hextension_place(game, cy, 2, list(hextension.CELLS[14:16]))  # cy has moved in round 2
    ChatMessage.objects.create(game=game, author=bo, text="good luck")
    pages = {user.pk: current_page(game, user) for user in (ana, bo, cy, dee)}
    # The owner's move: her submission, secret until the round closes.
    submitted = {0: hextension_place(game, ana, 0, list(hextension.CELLS[10:12]))}
    game.refresh_from_db()
    state = state_store.load(game)
    submitted[2] = dict(state.pending[2])
    assert game.status == Game.Status.ACTIVE and game.awaiting == [1] and state.round == 1
    assert set(submitted[0].values()).isdisjoint(submitted[2].values())

    drawn = set(state.deck[:(state.round + 1) * state.tiles_per_round])
    this_round = hextension.view(state, None)["drawn"]
    undrawn = [tile for tile in hextension.TILES if tile not in drawn]  # the deck beyond, and what it never draws
    future = list(state.deck[(state.round + 1) * state.tiles_per_round:])
    secret = [str(HEXTENSION_SEED), state.seed, json.dumps(future[:3])[1:-1], str(future[:3])[1:-1],
              ",".join(f'"{t}"' for t in future[:3])]
    for tile in undrawn:
        secret += [describe_tile(tile), f'data-tile="{tile}"', f"<span>{tile}</span>"]

    seated = {"ana": (ana, 0), "bo": (bo, 1), "cy": (cy, 2)}
    reached = {name: reach(game, user, name, page_before=pages[user.pk]) for name, (user, _) in seated.items()}
    reached["dee"] = reach(game, dee, "dee (spectator)", page_before=pages[dee.pk])
    reached["staff"] = reach_admin(game, staff, "staff")
    reached["root"] = reach_admin(game, root, "superuser")

    def markers_for(seen: Reached) -> list[str]:
        own = seated.get(seen.who, (None, None))[1]
        markers = list(secret)
        for seat, placements in submitted.items():
            if seat != own:
                markers += pending_markers(placements, state.round + 1)
        if own not in submitted:
            markers.append('data-state="pending"')  # nobody else's submission is ever drawn as one
        return markers

    scanned = assert_none_leaks(list(reached.values()), markers_for)

    # The positive control: the markup the scan looks for is the markup the site draws.
    for name, (user, seat) in seated.items():
        for marker in pending_markers(submitted[seat], state.round + 1)[:3] if seat in submitted else []:
            assert reached[name].shows(marker), (name, marker)
    for tile in this_round:
        assert reached["bo"].shows(describe_tile(tile)) and reached["bo"].shows(f'data-tile="{tile}"')
        assert reached["dee"].shows(f"<span>{tile}</span>")
    assert all(reached[name].shows("(hidden until the game is over)") for name in ("staff", "root"))
    assert reached["ana"].shows("Diagrams after round 1")
    # The API's answers were scanned, and carry the owner's own submission where the scan looks.
    ana_api = Reached("ana's API", [(where, text) for where, text in reached["ana"].bodies if where.startswith("api:")])
    assert len(ana_api.bodies) >= 2 and all(ana_api.shows(f'"{tile}": "{cell}"') for tile, cell in submitted[0].items())
    assert any("/regions/hx-diagrams/?k=" in where and "<svg" in text for where, text in reached["bo"].bodies)
    assert scanned > 150


# --- Hextremadura ---------------------------------------------------------------------------

def hextremadura_markers(state, *seeds: int) -> list[str]:
    """The shuffle as pages would carry it: a tile below the discovery pile's top (round 1)."""
    assert state.round == 1 and len(state.queue) > 4
    hidden = state.queue[2:]
    markers = [str(seed) for seed in seeds] + ["Coming next, in order", ", ".join(hidden[:2])]
    for tile in hidden:
        markers += [f'data-tile="{tile}"', f'hxt-tile-{tile}"', f'value="{tile}"', f"'tile': '{tile}'",
                    f'"tile": "{tile}"']
    return markers


def play_a_few(game: Game, user, count: int) -> None:
    for _ in range(count):
        current = Game.objects.get(pk=game.pk)
        move = hextremadura.legal_moves(state_store.load(current), 0)[0]
        services.submit_move(game_id=game.pk, user=user, move=move, expected_version=current.version)


def test_hextremadura_never_shows_the_shuffle_or_the_seed(make_user, django_user_model):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    staff, root = staff_user(make_user, django_user_model), django_user_model.objects.create_superuser(
        "root", "root@example.com", "a-long-pass-phrase")
    puzzle = DailyPuzzle.objects.create(date=hextremadura_services.today(), seed=DAILY_SEED)
    hextremadura_services.compute_par(puzzle.pk, budget_s=0.2)  # the solver's placements: the whole shuffle
    # cy has finished today's puzzle: she may watch ana's (she has seen the shuffle); bo has not.
    cy_daily = hextremadura_services.start_daily_game(user=cy)
    adjudication.end_game(game_id=cy_daily.pk, by_user=staff, reason="the leak scan", scores=[3])
    daily = hextremadura_services.start_daily_game(user=ana)
    casual = services.create_game(kind="hextremadura", config={"players": 1, "undo": True}, created_by=ana,
                                  visibility=Game.Visibility.PRIVATE, seed=CASUAL_SEED)  # start_casual_game's
    services.start_game(game_id=casual.pk)
    hextremadura_services.compute_casual_par(casual.pk, budget_s=0.2)
    assert DailyPuzzle.objects.get(pk=puzzle.pk).par_moves and CasualPar.objects.get(game=casual).par_moves
    ChatMessage.objects.create(game=daily, author=ana, text="so far so good")

    for game, watchers in ((daily, (ana, cy)), (casual, (ana,))):
        play_a_few(game, ana, 2)
        pages = {user.pk: current_page(game, user) for user in watchers}
        play_a_few(game, ana, 1)  # the owner's move, after which the scan looks
        game.refresh_from_db()
        state = state_store.load(game)
        markers = hextremadura_markers(state, game.seed, DAILY_SEED)
        # Someone who may not watch the game may see no tile of its shuffle at all.
        whole_shuffle = markers + [f'data-tile="{tile}"' for tile in hextremadura.TILES]
        extra = (reverse("hextremadura_solver_game", args=[game.pk]),)
        reached = [reach(game, user, user.username, page_before=pages[user.pk], extra_urls=extra) for user in watchers]
        # Strangers: bo (who has not played today's puzzle), and cy for the casual game. Today's
        # finished attempt of cy shows the same shuffle: bo may not open it either.
        strangers = [bo] if game is daily else [bo, cy]
        reached += [reach(game, user, f"{user.username} (stranger)", extra_urls=extra) for user in strangers]
        if game is daily:
            reached.append(reach(cy_daily, bo, "bo on cy's finished daily", extra_urls=(
                reverse("hextremadura_solver_game", args=[cy_daily.pk]),)))
        reached += [reach_admin(game, staff, "staff"), reach_admin(game, root, "superuser")]
        if game is daily:
            reached += [reach_admin(cy_daily, staff, "staff on cy's daily"),
                        reach_admin(cy_daily, root, "superuser on cy's daily")]
        scanned = assert_none_leaks(reached, lambda seen: markers if seen.who in ("ana", "cy") else whole_shuffle)

        # The positive control: the available tiles are drawn with the markup the scan looks for.
        owner = reached[0]
        for tile in state.queue[:2]:
            assert owner.shows(f'data-tile="{tile}"') and owner.shows(f'hxt-tile-{tile}"'), tile
        placed = [tile["tile"] for tile in hextremadura.view(state, 0)["map"]]
        assert len(placed) == 3 and all(owner.shows(f'data-tile="{tile}"') for tile in placed)
        if game is daily:
            assert all(reached[1].shows(f'data-tile="{tile}"') for tile in placed)  # cy watches the map
            assert not any(reached[2].shows(f'data-tile="{tile}"') for tile in placed)  # bo is refused
        assert scanned > 60


# --- Hexland --------------------------------------------------------------------------------

def clickable(view: dict) -> set[str]:
    """What a seat may click on the board (its ``data-move`` attributes): what it can afford."""
    return set(re.findall(r'data-move="([^"]+)"', hexland_svg.board_svg(view, interactive=True)))


def log_events(state) -> list[tuple]:
    events, node = [], state.log
    while node is not None:
        events.append(node[0])
        node = node[1]
    return events[::-1]


def ready_to_scan(state) -> bool:
    """Ana holds a development card of a kind the others do not, may click on the board, and the
    others hold cards: every kind of Hexland secret is there to leak."""
    views = [hexland.view(state, seat) for seat in range(3)]
    kinds = [kind for kind, count in views[0]["you"]["dev_cards"].items() if count]
    return bool(kinds and clickable(views[0]) and all(sum(views[seat]["you"]["hand"].values()) for seat in (1, 2))
                and all(not views[seat]["you"]["dev_cards"][kind] for seat in (1, 2) for kind in kinds))


def test_hexland_never_shows_another_seats_hand_or_cards_nor_the_deck_or_the_seed(make_user, django_user_model):
    ana, bo, cy, dee = (make_user(name) for name in ("ana", "bo", "cy", "dee"))  # dee watches
    staff, root = staff_user(make_user, django_user_model), django_user_model.objects.create_superuser(
        "root", "root@example.com", "a-long-pass-phrase")
    users = [ana, bo, cy]
    game = services.create_game(kind="hexland", config={"players": 3, "layout": "fixed", "timers": "normal"},
                                created_by=ana, players=users, join=False, turn_seconds=120, seed=HEXLAND_SEED)
    services.start_game(game_id=game.pk)
    rng = random.Random(20)  # with this seed, the moment comes after 37 moves
    pages = None
    for _ in range(400):
        # Ana buys a development card when she can (the others never do, and nobody plays one);
        # the scan looks after a move of hers once she holds one and may click on the board.
        game.refresh_from_db()
        state = state_store.load(game)
        if pages is not None and game.awaiting == [0] and ready_to_scan(state):
            break
        seat = game.awaiting[0]
        moves = [m for m in hexland.view(state, seat)["legal_moves"] if m["type"] != "offer"]
        buy = [m for m in moves if m["type"] == "buy_dev"]
        if seat != 0 or not buy or sum(state.dev[:5]):
            moves = [m for m in moves if m["type"] not in ("buy_dev", "play_dev")]
        building = [m for m in moves if m["type"].startswith(("build", "place"))]
        move = buy[0] if seat == 0 and buy and not sum(state.dev[:5]) else rng.choice(building or moves)
        pages = {user.pk: current_page(game, user) for user in (*users, dee)} if seat == 0 else None
        services.submit_move(game_id=game.pk, user=users[seat], move=move, expected_version=game.version)
    assert pages is not None, "ana never held a development card with a move to click"
    ChatMessage.objects.create(game=game, author=bo, text="nice island")
    game.refresh_from_db()
    state = state_store.load(game)
    assert game.status == Game.Status.ACTIVE
    views = {seat: hexland.view(state, seat) for seat in range(3)}
    public_log = set(hexland.view(state, None)["log"])
    ana_dev = [kind for kind, count in views[0]["you"]["dev_cards"].items() if count]
    assert ana_dev and all(not views[seat]["you"]["dev_cards"][kind] for seat in (1, 2) for kind in ana_dev)
    assert all(sum(views[seat]["you"]["hand"].values()) for seat in (1, 2))  # the others hold cards too

    deck = [DEV_CARDS[card] for card in state.deck]
    secret = [str(HEXLAND_SEED), str(state.rng), json.dumps(deck[:4])[1:-1], str(deck[:4])[1:-1],
              ", ".join(DEV_TITLES[card] for card in state.deck[:4]), str(list(state.deck[:8]))]

    seated = {"ana": 0, "bo": 1, "cy": 2}
    reached = {name: reach(game, users[seat], name, page_before=pages[users[seat].pk]) for name, seat in seated.items()}
    reached["dee"] = reach(game, dee, "dee (spectator)", page_before=pages[dee.pk])
    reached["staff"] = reach_admin(game, staff, "staff")
    reached["root"] = reach_admin(game, root, "superuser")

    names, events = state.g.names, log_events(state)

    def private_of(owner: int, viewer: int | None) -> list[str]:
        """What betrays ``owner``'s hand and cards in a body meant for ``viewer``: read from the
        state (not from the views, which are under test), and the lines of the log that the
        owner's view has and the viewer's has not."""
        own = views[viewer] if viewer is not None else {"log": [], "you": {"dev_cards": {}}, "legal_moves": []}
        markers = [f'data-owner="{owner}"']
        for card in range(len(DEV_CARDS)):
            if state.dev[owner * 5 + card] and not (viewer is not None and state.dev[viewer * 5 + card]):
                markers += [f'data-dev="{DEV_CARDS[card]}"',
                            f"{names[owner]} bought a development card ({DEV_TITLES[card]})"]
        for event in events:  # a steal's card: for the thief and the victim only
            if event[0] == "robber" and event[3] is not None and owner in (event[1], event[3]) \
                    and viewer not in (event[1], event[3]):
                markers.append(f"stole 1 {RESOURCES[event[4]]} from {names[event[3]]}")
        markers += [line for line in set(views[owner]["log"]) - public_log - set(own["log"])]
        markers += sorted(clickable(views[owner]) - (clickable(own) if viewer is not None else set()))
        return markers

    def markers_for(seen: Reached) -> list[str]:
        viewer = seated.get(seen.who)
        return secret + [m for owner in range(3) if owner != viewer for m in private_of(owner, viewer)]

    scanned = assert_none_leaks(list(reached.values()), markers_for)

    # The positive control: each seat's own page shows what the scan looks for in the others'.
    for name, seat in seated.items():
        assert reached[name].shows(f'data-owner="{seat}"'), name
    for kind in ana_dev:
        assert reached["ana"].shows(f'data-dev="{kind}"')
    bought = [line for line in set(views[0]["log"]) - public_log if "bought a development card (" in line]
    assert bought and all(reached["ana"].shows(line) for line in bought)
    assert clickable(views[0]) and all(reached["ana"].shows(move) for move in clickable(views[0]))
    steals = [event for event in events if event[0] == "robber" and event[3] is not None]
    assert steals  # with this seed, ana steals from cy: the card is theirs to know, not bo's
    for _, thief, _, victim, card in steals:
        line = f"stole 1 {RESOURCES[card]} from {names[victim]}"
        assert all(reached[name].shows(line) for name, seat in seated.items() if seat in (thief, victim)), line
    assert reached["staff"].shows("(hidden until the game is over)")
    assert scanned > 150
