"""League standings (selectors) and their CSV exports.

Per game, duplicate-style match points: 1 for every other player of the game one outscored,
½ for each tie. A player the NMR rule put out of a game ranks below every player who finished
it, whatever the scores. The table orders by match points, then total score, then best game.
"""
from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Count

from games import state_store
from games.sites import get_engine
from games.leagues.models import League
from games.models import Game, MoveEvent, Seat
from games.ranking import competition_ranks


@dataclass
class StandingRow:
    user_id: int
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
    games = list(league.games.filter(status=Game.Status.FINISHED).order_by("season_index").only("pk", "season_index", "result"))
    # Plain tuples, not model instances: a season of 100 players holds a thousand seats.
    seat_user: dict[tuple[int, int], tuple[int, str]] = {
        (game_id, index): (user_id, display_name or username)
        for game_id, index, user_id, username, display_name in Seat.objects.filter(
            game__in=games, user__isnull=False
        ).values_list("game_id", "index", "user_id", "user__username", "user__display_name")
    }
    nmr = Counter()
    timeouts = (
        MoveEvent.objects.filter(game__in=games, kind=MoveEvent.Kind.TIMEOUT)
        .values_list("game_id", "seat").annotate(n=Count("id"))
    )
    for game_id, seat, count in timeouts:
        if (game_id, seat) in seat_user:
            nmr[seat_user[game_id, seat][0]] += count
    rows: dict[int, StandingRow] = {}
    for game in games:
        scores, out = game.result["scores"], set(game.result.get("out", []))
        points = game_match_points(scores, out)
        for seat, score in enumerate(scores):
            if (game.pk, seat) not in seat_user:
                continue  # an AI seat
            user_id, name = seat_user[game.pk, seat]
            row = rows.setdefault(user_id, StandingRow(user_id=user_id, name=name))
            row.scores[game.season_index] = score
            row.match_points += points[seat]
            row.possible += len(scores) - 1
            row.total_score += score
            row.best_game = max(row.best_game, score)
            row.times_out += seat in out
    numbers = [g.season_index for g in games]
    for row in rows.values():
        row.nmr = nmr[row.user_id]
        row.per_game = [row.scores.get(n) for n in numbers]
    ordered = sorted(rows.values(), key=lambda r: (-r.match_points, -r.total_score, -r.best_game, r.name))
    for row, rank in zip(ordered, competition_ranks([(r.match_points, r.total_score, r.best_game) for r in ordered])):
        row.rank = rank
    return Standings(league=league, game_numbers=numbers, rows=ordered)


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
