"""League standings (selectors) and their CSV exports.

Per game, duplicate-style match points: 1 for every other player of the game one outscored,
½ for each tie. A player the NMR rule put out of a game ranks below every player who finished
it, whatever the scores. The table orders by match points, then total score, then best game.
Seats the AI played have rows of their own (they are opponents like any other).
"""
from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Count
from django.utils.translation import gettext as _

from games import state_store
from games.ai_names import ai_player
from games.sites import get_engine
from games.leagues.models import League
from games.models import Game, MoveEvent, Seat
from games.ranking import competition_ranks


@dataclass
class StandingRow:
    user_id: int | None  # None: a seat the AI played
    name: str
    scores: dict[int, int] = field(default_factory=dict)  # season index -> score
    match_points: float = 0.0
    possible: float = 0.0
    total_score: int = 0
    best_game: int = 0
    nmr: int = 0
    times_out: int = 0
    rank: int = 0
    per_game: list[int | None] = field(default_factory=list)  # aligned with Standings.game_numbers
    is_ai: bool = False

    @property
    def percentage(self) -> float:
        return 100.0 * self.match_points / self.possible if self.possible else 0.0

    @property
    def games(self) -> int:
        return len(self.scores)


@dataclass
class Standings:
    league: League
    game_numbers: list[int]
    rows: list[StandingRow]


def game_match_points(scores: list[int], out: set[int]) -> list[float]:
    """Match points of each seat against the others of one game (finishers above those out)."""
    keys = [(0 if seat in out else 1, score) for seat, score in enumerate(scores)]
    counts = Counter(keys)
    below: dict[tuple, int] = {}
    running = 0
    for key in sorted(counts):
        below[key] = running
        running += counts[key]
    return [below[key] + 0.5 * (counts[key] - 1) for key in keys]


def league_standings(league: League) -> Standings:
    """Every player of the season's finished games, and every seat the AI played in them (a
    removed player's, an AI seat): they count as opponents, so they have rows too. AI rows are
    one per seat number and level ("AI (strong), seat 3")."""
    games = list(league.games.filter(status=Game.Status.FINISHED).order_by("season_index").only("pk", "season_index", "result"))
    # Plain tuples, not model instances: a season of 100 players holds a thousand seats.
    seat_holder: dict[tuple[int, int], tuple] = {}
    for game_id, index, user_id, username, display_name, ai_level in Seat.objects.filter(game__in=games).values_list(
            "game_id", "index", "user_id", "user__username", "user__display_name", "ai_level"):
        if user_id is not None:
            seat_holder[game_id, index] = (user_id, display_name or username)
        elif ai_level:
            seat_holder[game_id, index] = (("ai", ai_level, index), _ai_row_name(ai_level, index))
    nmr = Counter()
    timeouts = (
        MoveEvent.objects.filter(game__in=games, kind=MoveEvent.Kind.TIMEOUT)
        .values_list("game_id", "seat").annotate(n=Count("id"))
    )
    for game_id, seat, count in timeouts:
        if (game_id, seat) in seat_holder:
            nmr[seat_holder[game_id, seat][0]] += count
    rows: dict = {}
    for game in games:
        scores, out = game.result["scores"], set(game.result.get("out", []))
        points = game_match_points(scores, out)
        for seat, score in enumerate(scores):
            if (game.pk, seat) not in seat_holder:
                continue  # an empty seat (none in a started game)
            key, name = seat_holder[game.pk, seat]
            is_ai = isinstance(key, tuple)
            row = rows.setdefault(key, StandingRow(user_id=None if is_ai else key, name=name, is_ai=is_ai))
            row.scores[game.season_index] = score
            row.match_points += points[seat]
            row.possible += len(scores) - 1
            row.total_score += score
            row.best_game = max(row.best_game, score)
            row.times_out += seat in out
    numbers = [g.season_index for g in games]
    for key, row in rows.items():
        row.nmr = nmr[key]
        row.per_game = [row.scores.get(n) for n in numbers]
    ordered = sorted(rows.values(), key=lambda r: (-r.match_points, -r.total_score, -r.best_game, r.is_ai, r.name))
    for row, rank in zip(ordered, competition_ranks([(r.match_points, r.total_score, r.best_game) for r in ordered])):
        row.rank = rank
    return Standings(league=league, game_numbers=numbers, rows=ordered)


def _ai_row_name(level: str, index: int) -> str:
    # Translators: a row of a league's standings for a seat the AI played: "AI (strong), seat 3".
    return _("%(ai)s, seat %(seat)s") % {"ai": ai_player(level), "seat": index + 1}


def _cell(text: str) -> str:
    """A value a spreadsheet will not run as a formula."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def standings_csv(standings: Standings) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["rank", "player", *[f"game {n}" for n in standings.game_numbers],
                     "match points", "percentage", "total score", "best game", "NMRs", "times out"])
    for row in standings.rows:
        writer.writerow([row.rank, _cell(row.name), *["" if v is None else v for v in row.per_game],
                         f"{row.match_points:g}", f"{row.percentage:.1f}", row.total_score, row.best_game, row.nmr, row.times_out])
    return out.getvalue()


def boards_csv(league: League) -> str:
    """Every board of every league game as of its last closed round (never an open round)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["game", "player", "cell", "tile"])
    for game in league.games.exclude(status=Game.Status.OPEN).order_by("season_index"):
        names = {s.index: s.label for s in game.seats.select_related("user")}
        view = get_engine(game.kind).view(state_store.load(game), None)
        for seat_view in view["seats"]:
            for cell, tile in seat_view["board"].items():
                writer.writerow([game.season_index, _cell(names.get(seat_view["seat"], "")), cell, tile])
    return out.getvalue()
