"""The live page model (games.live, games.consumers.catch_up): what each viewer is sent, what is
drawn once for all, how large a frame may be, and that every form a push carries can be posted.

A page's socket state is a ``consumers.Page``; ``catch_up`` gives the frames a socket sends and
brings the page up to date, as the consumer does on an announcement."""
from __future__ import annotations

import json
import random
import re
from html.parser import HTMLParser

import pytest
from hypothesis import example, given, strategies as st
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse

from games import consumers, live, services, state_store
from games.models import Game, MoveEvent, Seat
from games.sites import get_engine
from tests.support.factories import awaited_view, hexland_room, hextension_place, toy_game

pytestmark = pytest.mark.django_db


def hextension_game(users, tiles_per_round=1, **config) -> Game:
    game = services.create_game(kind="hextension", config={"players": len(users), "tiles_per_round": tiles_per_round,
                                                           **config},
                                created_by=None, players=users, turn_seconds=86400)
    services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


place = hextension_place


def current_page(game: Game, user) -> consumers.Page:
    """The socket state of a page that shows the game as it is now (as after a connect)."""
    page = consumers.Page()
    assert consumers.catch_up(game.pk, user, page, page_stamp=live.stamp_of(Game.objects.get(pk=game.pk))) == []
    return page


def regions_in(frames: list[str]) -> dict[str, str]:
    out = {}
    for frame in frames:
        message = json.loads(frame)
        assert message["type"] == "regions", message
        out.update({region["id"]: region["html"] for region in message["regions"]})
    return out


def test_a_submission_sends_the_others_only_who_has_moved(make_user):
    ana, bo, cy, dee = (make_user(name) for name in ("ana", "bo", "cy", "dee"))  # dee watches
    game = hextension_game([ana, bo, cy])
    place(game, cy, 2)  # the round is under way
    pages = {user.username: current_page(game, user) for user in (ana, bo, cy, dee)}
    (tile, cell), = place(game, ana, 0).items()

    sent = {name: regions_in(consumers.catch_up(game.pk, user, pages[name]))
            for name, user in (("ana", ana), ("bo", bo), ("cy", cy), ("dee", dee))}
    for name in ("bo", "cy", "dee"):
        assert set(sent[name]) == {"hx-progress"}, name  # not the round's tiles, which are unchanged
        assert "2 of 3 have moved" in sent[name]["hx-progress"] and "Moved: ana, cy." in sent[name]["hx-progress"]
        assert "Waiting for: bo." in sent[name]["hx-progress"]
        assert f"{cell}: " not in "".join(sent[name].values())  # nobody else sees where she placed
    assert "hx-play" in sent["ana"] and 'data-state="pending"' in sent["ana"]["hx-play"]
    # Nothing more happened: nothing more is sent.
    assert all(consumers.catch_up(game.pk, user, pages[user.username]) == [] for user in (ana, bo, cy, dee))


@pytest.mark.slow
def test_at_a_large_table_who_has_moved_is_counted_past_a_dozen_names(make_user):
    """Every viewer gets the progress after every submission: names while a list is short,
    a count past a dozen, so that a round does not cost the square of the seats in bytes."""
    users = [make_user(f"player{i:02}") for i in range(30)]
    game = hextension_game(users)
    watcher = make_user("watcher")
    page = current_page(game, watcher)
    place(game, users[3], 3)
    progress = regions_in(consumers.catch_up(game.pk, watcher, page))["hx-progress"]
    assert "1 of 30 have moved" in progress and "Moved: player03." in progress
    assert "Waiting for: 29 players." in progress and "player04" not in progress
    for seat in range(4, 21):
        place(game, users[seat], seat)
    progress = regions_in(consumers.catch_up(game.pk, watcher, page))["hx-progress"]  # 18 moved, 12 waiting
    assert "Moved: 18 players." in progress and "player05" not in progress
    waiting = ", ".join(f"player{seat:02}" for seat in (0, 1, 2, *range(21, 30)))
    assert f"Waiting for: {waiting}." in progress


def test_a_socket_sends_its_page_only_what_changed_since_the_answer_to_the_pages_own_move(make_user):
    """The answer to an htmx move carries every region at its version; when the page's socket
    reads the game after more moves came in (answering this announcement or an earlier one), it
    sends only what changed since that answer."""
    ana, bo, cy = (make_user(name) for name in ("ana", "bo", "cy"))
    game = hextension_game([ana, bo, cy])
    page = current_page(game, ana)
    page.name = "ana-page-0001"
    client = Client()
    client.force_login(ana)
    move = {"type": "place", "placements": dict(zip(awaited_view(game)[1]["drawn"], ["E1"]))}
    answer = client.post(f"/games/{game.pk}/move/", {"move": json.dumps(move), "version": game.version},
                         HTTP_HX_REQUEST="true", HTTP_X_LIVE_PAGE=page.name)
    assert answer.status_code == 200 and "hx-play" in {region["id"] for region in answer.json()["regions"]}
    place(game, bo, 1)  # before Ana's socket reads the game (for any announcement)
    sent = regions_in(consumers.catch_up(game.pk, ana, page))
    assert set(sent) == {"hx-progress"}, set(sent)  # not her board again: the answer had it
    assert "2 of 3 have moved" in sent["hx-progress"]


@pytest.mark.slow
def test_at_a_large_table_a_close_pushes_the_first_standings_and_each_seat_its_rank(make_user):
    """A round's close pushes the standings to every socket: their first rows only past ten
    players, the whole table when the viewer opens it, and each seat's own board its rank."""
    users = [make_user(f"player{i:02}") for i in range(14)]
    game = hextension_game(users)
    pages = {user.pk: current_page(game, user) for user in users}
    for seat, user in enumerate(users):
        place(game, user, seat)
    game.refresh_from_db()
    full = Client()
    full.force_login(users[0])
    region = live.region_by_id(game, "hx-standings")
    table = full.get(live.body_url(game, region, live.LiveView(game, users[0]).key(region))).content.decode()
    ranked = re.findall(r'<tr data-seat="(\d+)"[^>]*>\s*<td>(\d+)</td>', table)
    assert len(ranked) == 14  # the whole table, over HTTP
    rank_of = {int(seat): int(rank) for seat, rank in ranked}
    for seat, user in enumerate(users):
        sent = regions_in(consumers.catch_up(game.pk, user, pages[user.pk]))
        assert len(re.findall(r"<tr data-seat=", sent["hx-standings"])) == 10
        assert "All 14 players" in sent["hx-standings"] and "data-live-lazy" in sent["hx-standings"]
        assert f"Your rank: {rank_of[seat]} of 14." in sent["hx-play"]
    # A table of ten or fewer is pushed whole, and the board names no rank.
    small = [make_user(f"small{i}") for i in range(10)]
    game = hextension_game(small)
    pages = {user.pk: current_page(game, user) for user in small}
    for seat, user in enumerate(small):
        place(game, user, seat)
    sent = regions_in(consumers.catch_up(game.pk, small[0], pages[small[0].pk]))
    assert len(re.findall(r"<tr data-seat=", sent["hx-standings"])) == 10 and "data-live-lazy" not in sent["hx-standings"]
    assert "Your rank" not in sent["hx-play"]


def test_a_round_close_sends_each_their_board_the_standings_and_a_loader_for_the_diagrams(make_user):
    users = [make_user(f"p{i}") for i in range(3)]
    game = hextension_game(users)
    pages = [current_page(game, user) for user in users]
    for seat, user in enumerate(users):
        place(game, user, seat)
    for seat, user in enumerate(users):
        sent = regions_in(consumers.catch_up(game.pk, user, pages[seat]))
        assert {"hx-play", "hx-round", "hx-progress", "hx-head", "hx-standings", "hx-diagrams", "hx-history"} <= set(sent)
        assert "Round 2 of" in sent["hx-head"]
        assert "<svg" not in sent["hx-diagrams"] and "data-live-lazy" in sent["hx-diagrams"]  # loaded when seen
        assert "<svg" not in sent["hx-history"] and "data-live-lazy" in sent["hx-history"]  # so are the tiles so far


def test_a_region_every_viewer_sees_alike_is_drawn_once_a_version(make_user, monkeypatch):
    users = [make_user(f"p{i}") for i in range(4)]
    watchers = [make_user(f"w{i}") for i in range(3)]
    game = hextension_game(users)
    pages = {user.pk: current_page(game, user) for user in users + watchers}
    place(game, users[0], 0)
    drawn = []
    real = live.render_to_string
    monkeypatch.setattr(live, "render_to_string", lambda name, context: drawn.append(name) or real(name, context))
    live.forget_drawings()
    for user in users + watchers:
        consumers.catch_up(game.pk, user, pages[user.pk], announcement="one")
    assert drawn.count("hextension/regions/progress.html") == 1  # seven sockets, one drawing
    assert drawn.count("hextension/regions/round.html") == 0  # the round's tiles are unchanged
    assert drawn.count("hextension/regions/play.html") == 1  # only the seat that moved


def test_at_a_round_close_the_seats_without_a_notice_share_one_status_bar(make_user, monkeypatch):
    users = [make_user(f"p{i}") for i in range(5)]
    watcher = make_user("watcher")
    game = hextension_game(users)
    pages = {user.pk: current_page(game, user) for user in users + [watcher]}
    for seat, user in enumerate(users):
        place(game, user, seat)
    Seat.objects.filter(game=game, index=4).update(standin_level="easy")  # p4 timed out twice meanwhile
    drawn = []
    real = live.render_to_string
    monkeypatch.setattr(live, "render_to_string", lambda name, context: drawn.append(name) or real(name, context))
    live.forget_drawings()
    sent = {user.username: regions_in(consumers.catch_up(game.pk, user, pages[user.pk], announcement="close"))
            for user in users + [watcher]}
    status = {name: regions.get("game-status") for name, regions in sent.items()}
    # p0 to p3 alike, p4 (the AI stands in) its own, the watcher's: three drawings, not six.
    assert drawn.count("games/regions/status.html") == 3
    assert status["p0"] == status["p1"] == status["p2"] == status["p3"]
    assert "Your move" in status["p0"] and "p4 is away; the AI" in status["p0"] and "Take my seat back" not in status["p0"]
    assert "Your time ran out twice in a row" in status["p4"] and "Take my seat back" in status["p4"]
    assert "p4 is away" in status["watcher"] and "Your move" not in status["watcher"] and "data-seated" not in status["watcher"]


@pytest.mark.slow
def test_no_frame_of_a_hundred_seat_round_close_is_over_64_kib(make_user):
    users = [make_user(f"p{i:03}") for i in range(100)]
    game = hextension_game(users, tiles_per_round=3)
    for _round in range(3):  # boards with tiles: diagrams and standings of substance
        for seat, user in enumerate(users):
            place(game, user, seat)
    pages = {user.pk: current_page(game, user) for user in users[:5]}
    for seat, user in enumerate(users):
        place(game, user, seat)
    largest = 0
    for user in users[:5]:
        frames = consumers.catch_up(game.pk, user, pages[user.pk])
        assert frames and all(json.loads(frame)["type"] == "regions" for frame in frames)
        largest = max(largest, *(len(frame.encode()) for frame in frames))
    assert largest <= live.MAX_FRAME_BYTES
    # The whole page over HTTP, diagrams included, is far larger than any frame.
    client = Client()
    client.force_login(users[0])
    game.refresh_from_db()
    body = client.get(live.body_url(game, live.region_by_id(game, "hx-diagrams"),
                                    live.LiveView(game, users[0]).key(live.region_by_id(game, "hx-diagrams"))))
    assert body.status_code == 200 and body.content.count(b"<svg") >= 100


def test_a_region_too_large_for_a_frame_is_fetched_over_http():
    small = live.Drawn("a", "<div id=\"a\"></div>", "1")
    huge = live.Drawn("b", "<div id=\"b\">" + "x" * live.MAX_FRAME_BYTES + "</div>", "2")
    frames = [json.loads(frame) for frame in live.frames("3.0", [small, huge, small])]
    assert [f["type"] for f in frames] == ["regions", "fetch"] and frames[1]["ids"] == ["b"]
    many = [live.Drawn(f"r{i}", "<div>" + "y" * 20000 + "</div>", str(i)) for i in range(7)]
    sizes = [len(frame.encode()) for frame in live.frames("3.0", many)]
    assert len(sizes) > 1 and max(sizes) <= live.MAX_FRAME_BYTES


def test_an_older_shared_read_never_takes_a_page_back(make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    page = current_page(game, bo)
    services.submit_move(game_id=game.pk, user=ana, move={"type": "add", "n": 2}, expected_version=0)
    consumers.catch_up(game.pk, bo, consumers.Page(), announcement="slow")  # the announcement's read, at 1
    services.submit_move(game_id=game.pk, user=bo, move={"type": "add", "n": 1}, expected_version=1)
    assert consumers.catch_up(game.pk, bo, page)  # the page caught up by itself: version 2
    assert page.version == 2
    assert consumers.catch_up(game.pk, bo, page, announcement="slow") == []


def test_the_tiles_drawn_so_far_load_when_seen_and_name_each_round(client, make_user):
    users = [make_user(f"p{i}") for i in range(2)]
    game = hextension_game(users, tiles_per_round=2)
    drawn = []
    for _round in range(2):
        drawn.append(awaited_view(game)[1]["drawn"])
        for seat, user in enumerate(users):
            place(game, user, seat)
    client.force_login(users[1])
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    history = page.split('id="hx-history"', 1)[1]
    address = history.split('data-live-lazy="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    body = client.get(address)
    assert body.status_code == 200 and body.content.decode().count("<svg") == 4
    rows = re.findall(r'<th scope="row">(\d+)</th>(.*?)</tr>', body.content.decode(), re.S)
    assert [number for number, _ in rows] == ["2", "1"]  # newest first
    for (number, cells), tiles in zip(rows, drawn[::-1]):
        assert all(f"<span>{tile}</span>" in cells for tile in tiles), number


def test_the_diagrams_are_cacheable_by_their_address_and_etag(client, make_user):
    users = [make_user(f"p{i}") for i in range(2)]
    game = hextension_game(users)
    for seat, user in enumerate(users):
        place(game, user, seat)
    client.force_login(users[0])
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    address = page.split('data-live-lazy="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    first = client.get(address)
    assert first.status_code == 200 and b"<svg" in first.content and "max-age" in first["Cache-Control"]
    again = client.get(address, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    missing = client.get(reverse("game_region_body", args=[game.pk, "nothing-here"]))
    assert missing.status_code == 404


def test_a_region_body_sent_compressed_is_not_sent_again_to_a_browser_that_has_it(client, make_user):
    """Compressed, its ETag is weak (W/"…", GZipMiddleware), and a browser asks again with that
    form: If-None-Match is compared weakly (RFC 9110), either form against either."""
    users = [make_user(f"p{i}") for i in range(2)]
    game = hextension_game(users)
    for seat, user in enumerate(users):
        place(game, user, seat)
    client.force_login(users[0])
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    address = page.split('data-live-lazy="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    compressed = client.get(address, HTTP_ACCEPT_ENCODING="gzip")
    assert compressed.status_code == 200 and compressed["Content-Encoding"] == "gzip"
    weak = compressed["ETag"]
    assert weak.startswith('W/"')
    strong = weak.removeprefix("W/")
    for asked in (weak, strong, f'"other", {weak}'):
        for encoding in ("gzip", "identity"):
            again = client.get(address, HTTP_IF_NONE_MATCH=asked, HTTP_ACCEPT_ENCODING=encoding)
            assert again.status_code == 304 and again.content == b"", (asked, encoding)
            assert again["ETag"].removeprefix("W/") == strong
    assert client.get(address, HTTP_IF_NONE_MATCH='W/"other"').status_code == 200


def test_a_move_answered_over_http_carries_the_regions_at_the_new_stamp(client, make_user):
    ana, bo = make_user(), make_user()
    game = toy_game(ana, bo)
    client.force_login(ana)
    response = client.post(reverse("game_move", args=[game.pk]), {"version": 0, "move": '{"type": "add", "n": 2}'},
                           HTTP_HX_REQUEST="true")
    answer = response.json()
    assert response.status_code == 200 and answer["type"] == "regions" and answer["stamp"].startswith("1.")
    assert {"game-status", "game-main"} <= {region["id"] for region in answer["regions"]}
    refused = client.post(reverse("game_move", args=[game.pk]), {"version": 1, "move": '{"type": "add", "n": 2}'},
                          HTTP_HX_REQUEST="true")
    assert refused.status_code == 400 and refused.json() == {"type": "error", "message": refused.json()["message"]}
    assert "turn" in refused.json()["message"]


# --- every form a push can carry posts without a CSRF failure --------------------------------

class Forms(HTMLParser):
    """The POST forms of some HTML, each with the fields a browser would send."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self._form = None
        self._select = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and (a.get("method") or "").lower() == "post":
            self._form = {"action": a.get("action"), "htmx": "hx-post" in a, "data": {}}
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag == "input" and a.get("name") and a.get("type") not in ("checkbox", "radio", "submit"):
            self._form["data"].setdefault(a["name"], a.get("value") or ("1" if a.get("type") == "number" else ""))
        elif tag == "input" and a.get("name") and "checked" in a:
            self._form["data"][a["name"]] = a.get("value", "on")
        elif tag == "select" and a.get("name"):
            self._select = a["name"]
        elif tag == "option" and self._select and self._select not in self._form["data"]:
            self._form["data"][self._select] = a.get("value", "")
        elif tag == "textarea" and a.get("name"):
            self._form["data"][a["name"]] = "hello"

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


class Rollback(Exception):
    pass


def post_every_pushed_form(game: Game, user) -> int:
    """Post every form of every region a socket would push to ``user`` now, each undone after,
    as a browser with the page's CSRF header (htmx) or the form's own fields would. No 403."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    browser.get(reverse("game_detail", args=[game.pk]))  # the page: it sets the CSRF cookie
    token = browser.cookies["csrftoken"].value
    html = "".join(regions_in(consumers.catch_up(game.pk, user, consumers.Page())).values())
    parser = Forms()
    parser.feed(html)
    for form in parser.forms:
        headers = {"HTTP_X_CSRFTOKEN": token, "HTTP_HX_REQUEST": "true"} if form["htmx"] else {}
        try:
            with transaction.atomic():
                response = browser.post(form["action"], form["data"], **headers)
                raise Rollback
        except Rollback:
            pass
        # What the undone request cached of its own uncommitted version must not outlive it.
        state_store.forget_local()
        live.forget_drawings()
        cache.clear()
        assert response.status_code != 403, (form, response.content[:300])
    return len(parser.forms)


@pytest.mark.slow
def test_every_form_of_every_pushed_region_posts_without_a_csrf_failure(make_user, settings):
    settings.GAME_MOVE_RATE_LIMIT = (10000, 10)
    ana, bo = make_user("ana"), make_user("bo")
    posted = 0
    # A room waiting for its start: the host's and the guest's tools.
    room = services.create_game(kind="hexland", config={"players": 3, "layout": "fixed"}, created_by=ana,
                                players=[ana, bo], join=False, turn_seconds=120)
    posted += post_every_pushed_form(room, ana) + post_every_pushed_form(room, bo)

    # Hexland through its phases: every seat's forms at every few positions.
    game = hexland_room(ana, bo, timers="normal")
    engine, rng, users, phases = get_engine("hexland"), random.Random(3), {0: ana, 1: bo}, set()
    for step in range(140):
        if (awaited := awaited_view(game)) is None:
            break
        seat, view = awaited
        if view["phase"] not in phases or step % 15 == 0:
            phases.add(view["phase"])
            posted += post_every_pushed_form(game, ana) + post_every_pushed_form(game, bo)
        moves = view["legal_moves"]
        building = [m for m in moves if m["type"].startswith(("build", "place", "buy"))]
        offers = [m for m in moves if m["type"] == "offer"]
        move = rng.choice(offers if offers and rng.random() < .1 else building or moves)
        services.submit_move(game_id=game.pk, user=users[seat], move=move, expected_version=game.version)
    assert {"setup_settlement", "roll", "main"} <= phases

    # Hextension: a round open, a submission made, the end (the rematch).
    duel = hextension_game([ana, bo], tiles_per_round=3)
    posted += post_every_pushed_form(duel, ana)
    while Game.objects.get(pk=duel.pk).status == Game.Status.ACTIVE:
        place(duel, ana, 0)
        posted += post_every_pushed_form(duel, ana) if MoveEvent.objects.filter(game=duel).count() == 1 else 0
        place(duel, bo, 1)
    posted += post_every_pushed_form(duel, ana)

    # Hextremadura, a casual solo game with undo.
    from games.hextremadura.services import start_casual_game

    solo = start_casual_game(user=ana)
    posted += post_every_pushed_form(solo, ana)
    solo.refresh_from_db()
    move = get_engine("hextremadura").legal_moves(state_store.load(solo), 0)[0]
    services.submit_move(game_id=solo.pk, user=ana, move=move, expected_version=solo.version)
    posted += post_every_pushed_form(solo, ana)
    assert posted > 40


def test_a_pages_forms_carry_its_own_csrf_token_and_a_frame_none(client, make_user):
    """The drawings are shared; the token is the request's: a page without JavaScript posts its
    plain forms with it, and no socket frame carries anyone's token."""
    ana, bo = make_user(), make_user()
    game = hexland_room(ana, bo)
    client.force_login(ana)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    token = client.cookies["csrftoken"].value
    assert live.CSRF_MARK not in page and page.count('name="csrfmiddlewaretoken"') >= 2
    assert all(value != "" for value in re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', page))
    frames = "".join(consumers.catch_up(game.pk, ana, consumers.Page()))
    assert "csrfmiddlewaretoken" not in frames and live.CSRF_MARK not in frames and token not in frames
    # What a socket could not carry is read over HTTP, with the same regions.
    answer = client.get(reverse("game_regions", args=[game.pk]) + "?ids=hl-private,game-status",
                        HTTP_HX_REQUEST="true").json()
    assert [region["id"] for region in answer["regions"]] == ["game-status", "hl-private"]
    assert "Your move" in answer["regions"][1]["html"] or "Your cards" in answer["regions"][1]["html"]


def test_every_region_a_socket_may_push_is_on_the_page(client, make_user):
    """A push for a region the page lacks would be lost: each game's page has every region."""
    from games.hextremadura.services import start_casual_game

    ana, bo = make_user(), make_user()
    games = [toy_game(ana, bo), hextension_game([ana, bo]), start_casual_game(user=ana),
             hexland_room(ana, bo)]
    client.force_login(ana)
    for game in games:
        game.refresh_from_db()
        page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
        expected = [region.id for region in live.game_regions(game)]
        if game.seats.count() > 1:
            expected += [live.PRESENCE.id, live.CHAT.id]
        for region_id in expected:
            assert page.count(f'id="{region_id}"') == 1, (game.kind, region_id)


def test_the_hexland_island_is_sent_once_and_its_pieces_only_when_they_change(make_user):
    """A spectator's socket in a room: the island (sea, hexes, harbours) never comes again after
    the page, and the pieces come with a new piece, not with a roll, a trade or a new turn."""
    from games.consumers import Page, catch_up
    from games.hexland.engine import ai

    ana, bo, watcher = make_user(), make_user(), make_user()
    game = hexland_room(ana, bo)
    page = Page()
    catch_up(game.pk, watcher, page)  # the page as it was drawn
    engine, rng = get_engine("hexland"), random.Random(5)
    sent, placed = [], 0
    def pieces() -> tuple:
        public = engine.view(state_store.load(Game.objects.get(pk=game.pk)), None)
        return public["buildings"], public["roads"], public["robber"]

    for step in range(60):
        seat, view = awaited_view(game)
        before = pieces()
        legal = [m for m in view["legal_moves"] if m["type"] != "offer"]
        services.submit_move(game_id=game.pk, user=[ana, bo][seat], move=ai.choose_weighted(legal, rng),
                             expected_version=game.version)
        changed = before != pieces()
        placed += changed
        ids = [r["id"] for f in catch_up(game.pk, watcher, page, announcement=f"a{step}")
               for r in json.loads(f).get("regions", [])]
        sent.append((changed, ids))
    assert not any("hl-island" in ids for _, ids in sent)
    assert all(("hl-board" in ids) == changed for changed, ids in sent), sent
    assert 0 < placed < len(sent)  # some moves placed pieces, some did not


_RUN = re.compile(r"[ \t\r\n\f]+")
_CONTENT = re.compile(r"<(pre|textarea)\b[^>]*>(.*?)</\1>", re.S)


@given(st.lists(st.sampled_from(["<p>", "</p>", "<b>x</b>", "a", "b", " ", "  ", "\n", "\n    ", "\t", "\r\n",
                                 "\u00a0", "<pre>", "</pre>", "<textarea name=t>", "</textarea>", "<svg><text>1</text>"]),
                max_size=40).map("".join))
@example("\n<textarea name=t></textarea> ")  # whitespace on both sides of a kept block
def test_a_drawing_without_its_indentation_reads_the_same(html):
    """live.compact drops indentation and blank lines: every run of whitespace still renders as
    one space, a no-break space stays, and what a <pre> or <textarea> holds is kept whole."""
    compacted = live.compact(html)
    # A <pre> or <textarea> stands in as one mark, so whitespace on its two sides stays apart.
    outside, outside_before = _CONTENT.sub("\x00", compacted), _CONTENT.sub("\x00", html)
    assert "\n " not in outside and "\n\n" not in outside
    assert _RUN.sub(" ", outside) == _RUN.sub(" ", outside_before)
    assert _CONTENT.findall(compacted) == _CONTENT.findall(html)
    assert compacted.count("\u00a0") == html.count("\u00a0")


def test_pushed_regions_carry_no_indentation(make_user):
    """The templates are indented for people; what a socket sends is not (a tenth to a sixth
    of a game's bytes), for every game, with the page and the push drawn alike."""
    ana, bo = make_user(), make_user()
    for game in (hexland_room(ana, bo), hextension_game([ana, bo])):
        regions = regions_in(consumers.catch_up(game.pk, ana, consumers.Page()))
        assert set(regions) >= {region.id for region in live.game_regions(game) if region.id != "hl-island"}
        for region_id, html in regions.items():
            outside = _CONTENT.sub("", html)
            assert not re.search(r"\n[ \t]", outside), (region_id, html[:300])
