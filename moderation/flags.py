"""Automatic flags for staff, with their evidence (the "flagged" list of the admin).

- Leaving: a player who timed out or resigned in each of their latest ``STREAK`` finished
  games in a row.
- Matching placements: Hextension deals the same tiles to every seat, so two accounts whose
  own placements (not the AI's or the no-move rule's) put the same tile on the same cell
  unusually often, compared move by move over the games they shared, may be one person, or
  one copying the other. Flagged from ``MATCH_MIN_PLACEMENTS`` compared placements at
  ``MATCH_RATIO`` or more identical.

Flags are only hints: a moderator reads the evidence, acts or clears the flag (recorded).
"""
from __future__ import annotations

from collections import defaultdict
from itertools import combinations

from django.db import transaction

from games.hextension.engine import KIND as HEXTENSION
from games.models import Game, MoveEvent, Seat
from moderation.models import Flag

STREAK = 4
MATCH_MIN_PLACEMENTS = 19  # a whole game's worth
MATCH_RATIO = 0.9
RECENT_GAMES = 500  # finished Hextension games looked at per run


def leaving_streak(user_id: int, streak: int = STREAK) -> list[int]:
    """The user's latest finished games (newest first) in which they left, while unbroken."""
    seats = (Seat.objects.filter(user_id=user_id, game__status=Game.Status.FINISHED)
             .select_related("game").order_by("-game__finished_at")[:streak])
    left = []
    for seat in seats:
        timed_out = MoveEvent.objects.filter(game=seat.game, seat=seat.index, kind=MoveEvent.Kind.TIMEOUT).exists()
        if not (timed_out or seat.resigned_at):
            break
        left.append(seat.game_id)
    return left


def _own_placements(game: Game) -> dict[int, dict[str, str]]:
    """Per seat: tile -> cell of the placements its player made."""
    placed: dict[int, dict[str, str]] = defaultdict(dict)
    for seat, payload in game.events.filter(kind=MoveEvent.Kind.MOVE).values_list("seat", "payload"):
        for tile, cell in (payload.get("placements") or {}).items():
            placed[seat][tile] = cell  # a replaced submission keeps the last one
    return placed


def placement_matches(games) -> dict[tuple[int, int], dict]:
    """For each pair of users (lower id first): placements compared, identical, and the games."""
    pairs: dict[tuple[int, int], dict] = defaultdict(lambda: {"compared": 0, "matched": 0, "games": []})
    for game in games:
        users = dict(game.seats.filter(user__isnull=False, standin_level="").values_list("index", "user_id"))
        placed = _own_placements(game)
        for (i, a), (j, b) in combinations(sorted(users.items()), 2):
            common = placed[i].keys() & placed[j].keys()
            if not common:
                continue
            entry = pairs[tuple(sorted((a, b)))]
            entry["compared"] += len(common)
            entry["matched"] += sum(placed[i][tile] == placed[j][tile] for tile in common)
            entry["games"].append(game.pk)
    return dict(pairs)


def _raise(user_id: int, kind: str, evidence: dict, other_id: int | None = None) -> Flag:
    flag = Flag.objects.filter(user_id=user_id, kind=kind, other_user_id=other_id, cleared_at__isnull=True).first()
    if flag is None:
        return Flag.objects.create(user_id=user_id, kind=kind, other_user_id=other_id, evidence=evidence)
    flag.evidence = evidence
    flag.save(update_fields=["evidence"])
    return flag


@transaction.atomic
def compute_flags() -> int:
    """Run both checks over recent games; returns the flags raised or refreshed."""
    raised = 0
    recent = Game.objects.filter(status=Game.Status.FINISHED).order_by("-finished_at")[:RECENT_GAMES]
    users = set(Seat.objects.filter(game__in=recent, user__isnull=False).values_list("user_id", flat=True))
    for user_id in sorted(users):
        games = leaving_streak(user_id)
        if len(games) >= STREAK:
            _raise(user_id, Flag.Kind.LEAVING_STREAK,
                   {"summary": f"timed out or resigned in their last {len(games)} games in a row", "games": games})
            raised += 1
    hextension = Game.objects.filter(kind=HEXTENSION, status=Game.Status.FINISHED).order_by("-finished_at")
    for (a, b), entry in placement_matches(hextension[:RECENT_GAMES]).items():
        if entry["compared"] >= MATCH_MIN_PLACEMENTS and entry["matched"] >= MATCH_RATIO * entry["compared"]:
            summary = (f"{entry['matched']} of {entry['compared']} placements identical over "
                       f"{len(entry['games'])} game{'s' if len(entry['games']) != 1 else ''}")
            for user_id, other_id in ((a, b), (b, a)):
                _raise(user_id, Flag.Kind.PLACEMENT_MATCH, {**entry, "summary": summary}, other_id)
                raised += 1
    return raised
