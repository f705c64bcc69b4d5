"""What a region of the live game page is (``games.live`` draws and pushes them). Game sites
declare theirs with these names; this module imports nothing of the models, since sites are
read while apps load."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from games.live import LiveView

# Audiences: who sees a drawing alike.
PUBLIC = "public"  # every viewer: drawn from the spectator's view, without a user, once a version
SEAT = "seat"      # the viewer's seat (spectators share the seat None)
USER = "user"      # one user

ALL_STATUSES = ("open", "active", "paused", "finished", "cancelled")
PLAYED_STATUSES = ("active", "paused", "finished", "cancelled")


@dataclass(frozen=True)
class Region:
    """One named part of a game page. ``id`` is the DOM id of the template's root element,
    which the template always draws (empty when the region has nothing to show)."""

    id: str
    template: str
    # PUBLIC, SEAT or USER, or a function of the LiveView choosing one (a board that is
    # interactive for the seat to move only).
    audience: str | Callable[["LiveView"], str] = SEAT
    # What the drawing depends on beyond the game's turn token, from a LiveView; None: the
    # version (drawn again after every move).
    depends: Callable[["LiveView"], Any] | None = None
    # False: drawn again only when ``depends`` (or the status) changes, not on every new turn or
    # clock; for a region whose ``depends`` says all it shows (a board drawn once a game, say).
    turn_bound: bool = True
    # Drawn for games in these statuses (others get the empty root element, as ``region_shown``).
    statuses: tuple[str, ...] = PLAYED_STATUSES
    # Sent on the game's version announcements; False for those with announcements of their own.
    versioned: bool = True
    # For a SEAT region: which seats see it alike, as a key from a LiveView (None: each seat its
    # own). Seats with the same key share one drawing, so a change that reaches every seat at once
    # (the close of a round every seat plays at once) draws it once per kind of seat, not per seat.
    viewers: Callable[["LiveView"], Any] | None = None
    # A region too large to push whole: the template draws a loader; this template draws its
    # content, read over HTTP when the viewer opens it (``region_body_url``), cacheable by key.
    body_template: str = ""
