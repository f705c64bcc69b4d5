"""The registry of games on the site: kind -> GameSite.

A game is one folder ``games/<game>/``: a Django app whose ``apps.py`` is a ``GameAppConfig``
naming its ``site`` (a ``GameSite`` in ``games/<game>/site.py``). Adding a game is that folder
and one line in ``INSTALLED_APPS``; no platform module names a game. What differs per game is
asked of its GameSite, whose fields below have the platform's defaults.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable

from django.apps import AppConfig, apps
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from games.protocol import Engine, load_engine

if TYPE_CHECKING:
    from django.http import QueryDict

    from games.models import Game
    from games.regions import Region


@dataclass(frozen=True, eq=False)
class GameSite:
    """What the platform needs to know of one game."""

    kind: str
    engine_path: str  # dotted path of the engine package
    # The page: the template that draws the board (from the context of selectors.board_context).
    board_template: str = "games/generic_board.html"
    # The board in a replay (selectors.replay_step: a past view, never a move form). "": the board.
    replay_template: str = ""
    # A submitted form -> a move dict (the JSON ``move`` field always works too).
    parse_form: Callable[["QueryDict"], dict] | None = None
    # Finished games change players' site-wide ratings.
    rated: bool = False
    # Steps after a game ends (each given the game); e.g. hindsight figures.
    after_game: tuple[Callable[["Game"], Any], ...] = ()
    # "Round 3 of 10": the label of a new turn in e-mails, from a spectator's view.
    turn_label: Callable[[dict], str] | None = None
    # May this user watch this game? None: the platform's rule (public, or a player).
    can_watch: Callable[["Game", Any], bool | None] | None = None
    # A suggestion for the player's move from their view, or None when the game has no hints.
    hint: Callable[["Game", int], dict] | None = None
    hint_template: str = ""
    # URLs of the game's own pages, mounted under /games/<kind>/, and its lobby's URL name.
    urls: str | None = None
    lobby_url_name: str | None = None
    # Leaving: after this many timeouts in a row a player's seat is handed to an AI of level
    # ``standin_level`` until they move again (None: the game's own rules handle missed turns).
    standin_after_timeouts: int | None = None
    standin_level: str = ""
    # The config a game starts with, from its settings and its seats in order (e.g. names).
    config_at_start: Callable[[dict, list], dict] | None = None
    # A form class for the settings the host may change before the start (its cleaned_data
    # is turned into a config by the form's ``config()`` method), and the panel showing them.
    settings_form: type | None = None
    # The view as a reader of the active language reads it, from the engine's view and the
    # game's seats: words the engine keeps from the start that depend on the reader's language
    # (an AI seat's name). Views are cached for every language; this runs where one is drawn.
    # None: the engine's view as it is.
    shown_view: Callable[[dict, list], dict] | None = None
    # The JSON Schema of what shown_view gives, from the engine's VIEW_SCHEMA (the fields it
    # adds). None: shown_view adds no field, the engine's schema holds.
    shown_view_schema: Callable[[dict], dict] | None = None
    # A check that a view can be drawn (raises if not); run on the write path before commit.
    check_view: Callable[[dict], Any] | None = None
    # The regions of the live page (games.regions.Region, in page order), which the board
    # template places with {% region %}. None declared: the whole board is one region.
    regions: tuple["Region", ...] = ()
    # The settings a player should know before taking a seat, in words: (label, value) pairs
    # from the game (the invitation page, the waiting room). None: nothing beyond the seats.
    describe_settings: Callable[["Game"], list[tuple[str, str]]] | None = None
    # An engine's refusal (IllegalMove's English text) in the site's words and the active
    # language (games/refusals.py: a RefusalWords). None: the English text, or a general sentence.
    refusals: Callable[[str], str] | None = None
    # Profile sections: (template, callable(user) -> context) shown on player pages.
    profile_sections: tuple[tuple[str, Callable[[Any], dict]], ...] = field(default_factory=tuple)

    @cached_property
    def engine(self) -> Engine:
        return load_engine(self.engine_path)

    @property
    def title(self) -> str:
        return self.engine.TITLE

    def view_schema(self) -> dict | None:
        """The JSON Schema of the view a reader is shown (None: the engine declares none)."""
        schema = self.engine.VIEW_SCHEMA
        if schema is None or self.shown_view_schema is None:
            return schema
        return self.shown_view_schema(schema)

    def label_for_turn(self, view: dict) -> str:
        return self.turn_label(view) if self.turn_label else _("A new turn")

    def readable_refusal(self, text: str) -> str:
        """The engine's refusal as a player of the active language reads it."""
        if self.refusals is not None:
            return self.refusals(text)
        from games.refusals import general_refusal

        return general_refusal(text)


class GameAppConfig(AppConfig):
    """The app config of a game's folder: registers its site when Django is ready."""

    site_path: str = ""  # dotted path of the GameSite instance

    def ready(self) -> None:
        register(import_string(self.site_path))


_SITES: dict[str, GameSite] = {}
_EXTRA: dict[str, GameSite] = {}


def register(site: GameSite, *, offered: bool = True) -> None:
    """Make a game known; ``offered=False`` for engines that only tests use."""
    (_SITES if offered else _EXTRA)[site.kind] = site


def get_site(kind: str) -> GameSite:
    """The site of ``kind``; KeyError when unknown."""
    apps.check_apps_ready()
    return _SITES.get(kind) or _EXTRA[kind]


def get_engine(kind: str) -> Engine:
    return get_site(kind).engine


def offered_sites() -> list[GameSite]:
    """The games offered on the site, in INSTALLED_APPS order."""
    apps.check_apps_ready()
    return list(_SITES.values())


def all_sites() -> list[GameSite]:
    """Every registered site, those only tests use included."""
    apps.check_apps_ready()
    return [*_SITES.values(), *_EXTRA.values()]


def site_kinds() -> list[str]:
    return [site.kind for site in offered_sites()]


def warm_up_bots() -> None:
    """Get every offered game's bots ready to move (``Engine.warm_up``). A Celery worker
    process runs this before it takes a task; a bot that fails here is logged, and the worker
    still starts (its first move then pays for the warm-up, or fails as it would have)."""
    import logging
    import time

    logger = logging.getLogger(__name__)
    for site in offered_sites():
        began = time.monotonic()
        try:
            site.engine.warm_up()
        except Exception:
            logger.exception("warming up the bots of %s failed", site.kind)
        else:
            logger.info("the bots of %s warmed up in %.1f s", site.kind, time.monotonic() - began)
