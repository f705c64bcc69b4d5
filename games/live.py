"""The live game page: one model for every game (docs/architecture.md, "The live page").

A game page is made of named **regions**, each a template whose root element carries the
region's id. The platform declares the regions every game has (the status bar, presence, chat,
the waiting room of a game not yet started); a game's site declares its own
(``GameSite.regions``), and a game that declares none has one region, its whole board.

A region is drawn for an **audience**:

- ``PUBLIC``: from the spectator's view, without a user: one drawing per version serves every
  socket of the process (and every page), since it holds nothing that only a seat may see;
- ``SEAT``: from the viewer's seat's view (spectators share the seat ``None``);
- ``USER``: for one user (what depends on who they are, not only on their seat).

Each region names what its drawing ``depends`` on (default: the game's version). With the
audience and the game's turn token (status, clock, revision, hindsight figures) that makes the
region's **key**: a socket sends a region only when its key differs from the one it sent last,
and a drawing is cached by key, so a region that did not change for a viewer is neither drawn
nor sent again. The client applies a region only when its **stamp** (version, revision) is
newer than what it shows, or the same stamp with other content, and morphs it in (static/js/live.js).
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
# Not functools': on Python 3.11 it holds one lock for every instance, so the threads of a page
# or socket process would take turns computing any viewer's view (state reads included).
from django.utils.functional import cached_property

from games import selectors, state_store
from games.models import Game
from games.regions import ALL_STATUSES, PUBLIC, SEAT, USER, Region  # noqa: F401 (re-exported)
from games.services.lifecycle import rematch_refusal
from games.sites import all_sites as offered_sites_and_extras, get_site

logger = logging.getLogger(__name__)

# No frame a socket sends is larger: a region that alone would be is fetched over HTTP.
MAX_FRAME_BYTES = 64 * 1024


def _status_depends(live: "LiveView") -> tuple:
    """The status bar changes with the viewer's turn, the seats (stand-ins, resignations) and,
    after the end, the rematch; not with every move."""
    game = live.game
    seats = selectors.shared(game, "status_seats", lambda: tuple(
        (s.index, s.user_id, s.standin_level, s.resigned_at) for s in game.seats.all()))
    rematch = None
    if live.game.status == Game.Status.FINISHED and live.seat is not None:
        rematch = (tuple(Game.objects.filter(rematch_of=live.game).values_list("pk", "status")),
                   rematch_refusal(live.game, live.user, list(game.seats.all())) is None)  # a play ban, say
    return (live.your_move, live.game.turn_started_version > 0, seats, rematch)


def _status_viewers(live: "LiveView") -> tuple:
    """While a game is played, the seats whose own seat has no notice (no stand-in, not
    resigned) see the status bar alike, but for whether it is their move."""
    if live.seat is not None and live.game.status == Game.Status.ACTIVE:
        game = live.game
        own = selectors.shared(game, "seats_by_index", lambda: {s.index: s for s in game.seats.all()}).get(live.seat)
        if own is not None and not own.standin_level and not own.resigned_at:
            return ("seated", live.your_move)
    return ("seat", live.seat)


# The platform's regions, on every game page.
STATUS = Region("game-status", "games/regions/status.html", SEAT, depends=_status_depends, statuses=ALL_STATUSES,
                viewers=_status_viewers)
WAITING_ROOM = Region("game-waiting", "games/regions/waiting.html", USER, statuses=(Game.Status.OPEN,))


def _seat_holders(live: "LiveView") -> tuple:
    game = live.game
    return selectors.shared(game, "seat_holders", lambda: tuple(s.user_id for s in game.seats.all()))


# Links to report the game's other players (moderation's): they change when a seat changes hands.
REPORTS = Region("game-reports", "games/regions/reports.html", USER, depends=_seat_holders, turn_bound=False,
                 statuses=ALL_STATUSES)
PRESENCE = Region("game-presence", "games/_presence.html", PUBLIC, versioned=False, statuses=ALL_STATUSES)
CHAT = Region("game-chat", "games/_chat.html", USER, versioned=False, statuses=ALL_STATUSES)


# A game that declares no regions of its own: its whole board, for the seat.
WHOLE_BOARD = Region("game-main", "games/regions/main.html", SEAT)


def game_regions(game: Game) -> list[Region]:
    """The regions the platform pushes on a version announcement, in page order."""
    return [STATUS, WAITING_ROOM, *(get_site(game.kind).regions or (WHOLE_BOARD,)), REPORTS]


def region_by_id(game: Game, region_id: str) -> Region | None:
    return next((r for r in [*game_regions(game), PRESENCE, CHAT] if r.id == region_id), None)


def region_named(region_id: str) -> Region | None:
    """A region of any game (a board template drawn from a context alone, e.g. in a replay)."""
    everyone = [STATUS, WAITING_ROOM, WHOLE_BOARD, REPORTS, PRESENCE, CHAT,
                *(r for site in offered_sites_and_extras() for r in site.regions)]
    return next((r for r in everyone if r.id == region_id), None)


_PAGE_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


def page_id(value: str | None) -> str | None:
    """The name a live page gives itself (live.js: its socket's ``?page=`` and its requests'
    ``X-Live-Page`` header), or None when it is not one."""
    return value if isinstance(value, str) and _PAGE_ID.fullmatch(value) else None


def stamp_of(game: Game) -> str:
    """What the client orders regions by: the version, then the revision (seats, settings)."""
    return f"{game.version}.{game.revision}"


# --- views, shared by the sockets of a process ----------------------------------------------

_VIEWS_SIZE = 512
_views: OrderedDict[tuple, dict] = OrderedDict()
_views_lock = threading.Lock()


def _game_key(game: Game) -> tuple:
    return (game.pk, game.created_at, game.version)


def cached_view(game: Game, seat: int | None) -> dict:
    """The engine's view of ``seat`` at the game's version, computed once per process."""
    if game.status == Game.Status.OPEN:
        return {}
    key = (*_game_key(game), seat)
    with _views_lock:
        if key in _views:
            _views.move_to_end(key)
            return _views[key]
    view = get_site(game.kind).engine.view(state_store.load(game), seat)
    with _views_lock:
        _views[key] = view
        while len(_views) > _VIEWS_SIZE:
            _views.popitem(last=False)
    return view


class LiveView:
    """One viewer's page of one game at its current version: what regions are drawn from."""

    def __init__(self, game: Game, user, *, request=None):
        self.game = game
        self.user = user  # None: nobody in particular (a public region's drawing)
        self.request = request  # a page's or an answer's: its USER regions are drawn with it
        self.seat = selectors.seat_of(game, user)

    @cached_property
    def seat_view(self) -> dict:
        return cached_view(self.game, self.seat)

    @cached_property
    def public_view(self) -> dict:
        return cached_view(self.game, None)

    @cached_property
    def your_move(self) -> bool:
        return selectors.is_to_move(self.game, self.seat)

    @cached_property
    def layout(self) -> str:
        """What the page around the regions is drawn from for this viewer (games/game.html:
        whether there is a board at all, the chat and presence, the notify choice): the status,
        whether the game has several seats, whether the viewer holds one. The status bar carries
        it (``data-layout``), so an open page whose layout is no longer the game's reads itself
        again as a whole (static/js/live.js) instead of morphing regions it does not have."""
        several = len(selectors.seats_with_users(self.game)) > 1
        return f"{self.game.status}.{int(several)}.{int(self.seat is not None)}"

    def audience(self, region: Region) -> str:
        return region.audience(self) if callable(region.audience) else region.audience

    def key(self, region: Region) -> tuple:
        """Equal keys, equal drawings."""
        if region.audience == PUBLIC:  # the same for every viewer of a read (selectors.shared)
            return selectors.shared(self.game, ("key", region.id), lambda: self._key(region))
        return self._key(region)

    def _key(self, region: Region) -> tuple:
        who: Any = None
        audience = self.audience(region)
        if audience == SEAT:
            who = region.viewers(self) if region.viewers else ("seat", self.seat)
        elif audience == USER:
            who = ("user", getattr(self.user, "pk", None))
        if self.game.status not in region.statuses:
            return (region.id, who, "absent", self.game.status)
        depends = region.depends(self) if region.depends else self.game.version
        return (region.id, who, selectors.turn_token(self.game) if region.turn_bound else self.game.status, depends)

    def context(self, region: Region) -> dict:
        """The template context of ``region`` for this viewer (a public region's holds no user)."""
        public = self.audience(region) == PUBLIC
        seat = None if public else self.seat
        view = self.public_view if public else self.seat_view
        your_move = False if public else self.your_move
        board = selectors.BoardContext(game=self.game, seat=seat, view=view, your_move=your_move,
                                       seats=selectors.seats_with_users(self.game),
                                       viewer=None if public else self.user)
        context = board.as_dict()
        context["csrf_token"] = CSRF_MARK
        context["region_shown"] = self.game.status in region.statuses
        if region is STATUS:
            context["layout"] = self.layout
        if region.body_template:
            context["region_body_url"] = body_url(self.game, region, self.key(region))
        if region is PRESENCE:
            context.update(selectors.presence_context(self.game))
        elif region is CHAT:
            context.update(selectors.chat_context(self.game, self.user))
        elif region is WAITING_ROOM and self.game.status == Game.Status.OPEN:
            context.update(selectors.open_game_context(self.game, self.user))
        if self.request is not None and self.audience(region) == USER:
            context["request"] = self.request
        return context


def body_url(game: Game, region: Region, key: tuple) -> str:
    """Where a lazy region's content is read: the address changes with the content."""
    return reverse("game_region_body", args=[game.pk, region.id]) + "?k=" + body_digest(key)


def body_digest(key: tuple) -> str:
    """A lazy region's content at ``key`` in the active language: its address and ETag."""
    return digest_of(repr((translation.get_language(), key)))


# --- drawings, shared by key -----------------------------------------------------------------

_DRAWN_SIZE = 1024
_drawn: OrderedDict[tuple, "Drawn"] = OrderedDict()
_drawn_lock = threading.Lock()


# Drawings are shared, and a CSRF token is not: a region's forms are drawn with this mark for
# the token. A page or an HTTP answer gets the request's token in its place; a socket frame
# gets none (its forms post through htmx, which sends the token from the page's hx-headers).
CSRF_MARK = "hexsite-csrf-mark"
_CSRF_INPUT = f'<input type="hidden" name="csrfmiddlewaretoken" value="{CSRF_MARK}">'


@dataclass(frozen=True)
class Drawn:
    id: str
    html: str  # with CSRF_MARK where a form's token goes
    digest: str

    def with_token(self, token: str | None) -> str:
        """The HTML for a request (``token``: its CSRF token) or for a socket (None)."""
        if token is None:
            return self.html.replace(_CSRF_INPUT, "")
        return self.html.replace(CSRF_MARK, token)

    def as_json(self, token: str | None = None) -> dict:
        return {"id": self.id, "html": self.with_token(token), "digest": self.digest}


# A run of whitespace with a line break in it renders as one space, so it is sent as one line
# break: templates keep their indentation and a push does not carry it (a tenth to a sixth of a
# game's bytes). Not inside <pre> or <textarea>, where whitespace is content; only ASCII
# whitespace, so a no-break space stays.
_INDENT = re.compile(r"\n[ \t\r\n\f]*")  # starting at the line break: the regex scans fast
_WHITESPACE_IS_CONTENT = re.compile(r"<(pre|textarea)\b.*?</\1\s*>", re.S | re.I)
_OPENS_CONTENT = re.compile(r"<(?:pre|textarea)\b", re.I)


def compact(html: str) -> str:
    """``html`` drawn the same with its indentation and blank lines dropped."""
    if not _OPENS_CONTENT.search(html):
        return _INDENT.sub("\n", html)  # the common case: one pass
    parts, start = [], 0
    for kept in _WHITESPACE_IS_CONTENT.finditer(html):
        parts += [_INDENT.sub("\n", html[start:kept.start()]), kept.group(0)]
        start = kept.end()
    parts.append(_INDENT.sub("\n", html[start:]))
    return "".join(parts)


def digest_of(html: str) -> str:
    return hashlib.blake2b(html.encode(), digest_size=8).hexdigest()


def draw(live: LiveView, region: Region, key: tuple | None = None) -> Drawn:
    """The region drawn for ``live``: once per key in this process (a region drawn on its own
    announcements, chat or presence, only when given a key)."""
    cacheable = (region.versioned or key is not None) and not (live.request and live.audience(region) == USER)
    key = key or live.key(region)
    # Drawn per language and time zone (a deadline's time is the viewer's).
    cache_key = (live.game.pk, live.game.created_at, translation.get_language(), timezone.get_current_timezone_name(), key)
    if cacheable:
        with _drawn_lock:
            if cache_key in _drawn:
                _drawn.move_to_end(cache_key)
                return _drawn[cache_key]
    html = compact(render_to_string(region.template, live.context(region))).strip()
    if not html.startswith("<") or f'id="{region.id}"' not in html[:200]:
        raise ValueError(f"region {region.id}: its template's root element must carry id=\"{region.id}\"")
    drawn = Drawn(region.id, html, digest_of(html))
    if cacheable:
        with _drawn_lock:
            _drawn[cache_key] = drawn
            while len(_drawn) > _DRAWN_SIZE:
                _drawn.popitem(last=False)
    return drawn


def forget_drawings() -> None:
    """Empty this process's caches (benchmarks, tests: as a fresh process has them)."""
    with _drawn_lock:
        _drawn.clear()
    with _views_lock:
        _views.clear()


# --- what a viewer is sent ---------------------------------------------------------------------

@dataclass
class Update:
    """Regions to send one viewer, and the keys its page then shows."""

    stamp: str
    regions: list[Drawn]
    keys: dict[str, tuple]


def changed_regions(live: LiveView, sent: dict[str, tuple] | None, keys: dict[str, tuple] | None = None) -> Update:
    """The versioned regions whose key differs from ``sent`` (None: all of them); ``keys``: the
    current ones, when already known (``current_keys``)."""
    keys = keys if keys is not None else current_keys(live)
    regions = [draw(live, region, keys[region.id]) for region in game_regions(live.game)
               if sent is None or sent.get(region.id) != keys[region.id]]
    return Update(stamp_of(live.game), regions, keys)


def own_region_changed(live: LiveView, sent: dict[str, tuple], keys: dict[str, tuple]) -> bool:
    """Has a region that is not the same for every viewer changed since ``sent``?"""
    return any(sent.get(region.id) != keys[region.id] and live.audience(region) != PUBLIC
               for region in game_regions(live.game))


def current_keys(live: LiveView) -> dict[str, tuple]:
    """The keys of a page that shows the current version (nothing drawn)."""
    return {region.id: live.key(region) for region in game_regions(live.game)}


def page_regions(live: LiveView, token: str, *, chat: bool = True) -> dict[str, str]:
    """Every region's HTML for a full page, by id (the page template places them), its forms
    with the request's CSRF ``token``; presence and chat only where there is more than one seat."""
    regions = {region.id: draw(live, region).with_token(token) for region in game_regions(live.game)}
    if chat:
        for region in (PRESENCE, CHAT):
            regions[region.id] = draw(live, region).with_token(token)
    return regions


def frames(stamp: str | None, regions: list[Drawn]) -> list[str]:
    """The socket frames carrying ``regions``: none over MAX_FRAME_BYTES. A region that alone
    is larger goes in a ``fetch`` frame: the client reads it over HTTP (``regions`` view)."""
    out, batch, size, too_large = [], [], 0, []
    head = len(json.dumps({"type": "regions", "stamp": stamp, "regions": []}))
    for drawn in regions:
        encoded = len(json.dumps(drawn.as_json()).encode()) + 1
        if head + encoded > MAX_FRAME_BYTES:
            too_large.append(drawn.id)
            continue
        if batch and head + size + encoded > MAX_FRAME_BYTES:
            out.append(_frame(stamp, batch))
            batch, size = [], 0
        batch.append(drawn)
        size += encoded
    if batch:
        out.append(_frame(stamp, batch))
    if too_large:
        out.append(json.dumps({"type": "fetch", "stamp": stamp, "ids": too_large}))
    return out


def _frame(stamp: str | None, regions: list[Drawn]) -> str:
    return json.dumps({"type": "regions", "stamp": stamp, "regions": [d.as_json() for d in regions]},
                      separators=(",", ":"))


def answer(live: LiveView, token: str, region_ids: list[str] | None = None, page: str | None = None) -> dict:
    """An HTTP answer carrying regions for ``live`` (all the versioned ones by default), its
    forms with the request's CSRF ``token``. ``page``: the live page that asked (``page_id``);
    when it gets every region, their keys are kept a while for its socket (``answered_keys``)."""
    wanted = [r for r in game_regions(live.game) if region_ids is None or r.id in region_ids]
    keys = {region.id: live.key(region) for region in wanted}
    if page and region_ids is None:
        _remember_answer(live.game, page, keys)
    wanted += [r for r in (PRESENCE, CHAT) if region_ids is not None and r.id in region_ids]
    return {"type": "regions", "stamp": stamp_of(live.game),
            "regions": [draw(live, region, keys.get(region.id)).as_json(token) for region in wanted]}


# The version and region keys of the latest answer a page's own move got, for its socket: when a
# read of that socket finds the viewer's own regions changed, it sends only what changed since
# that answer. Best effort: missing (not yet kept) or unreadable, the socket sends as usual.
ANSWER_KEYS_SECONDS = 60


def _answer_cache_key(game_id: int, page: str) -> str:
    return f"live-answer:{game_id}:{page}"


def _remember_answer(game: Game, page: str, keys: dict[str, tuple]) -> None:
    try:
        cache.set(_answer_cache_key(game.pk, page), (game.version, keys), ANSWER_KEYS_SECONDS)
    except Exception as error:  # Redis away: the move is played; its socket will send it again
        logger.warning("answer keys of game %s not kept: %s: %s", game.pk, type(error).__name__, error)


def answered_keys(game_id: int, page: str) -> tuple[int, dict[str, tuple]] | None:
    """The version and region keys of the latest answer ``page`` got, while kept."""
    try:
        kept = cache.get(_answer_cache_key(game_id, page))
    except Exception:  # Redis away: send as usual
        return None
    return kept if isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[1], dict) else None
