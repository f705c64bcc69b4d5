"""Reads for the edges: who may see what, and the page context built from a seat's view."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch

from games import state_store
from games.engines import get_engine
from games.errors import GameNotFound, NotYourSeat
from games.models import Game, Seat


def game_for_viewer(game_id: int, user) -> Game:
    """The game, if ``user`` may watch it: public games, or private ones they sit at."""
    game = Game.objects.filter(pk=game_id).prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user"))).first()
    if game is None:
        raise GameNotFound("There is no such game.")
    if not can_watch(game, user):
        raise NotYourSeat("This game is private: only its players can see it.")
    return game


def can_watch(game: Game, user) -> bool:
    """Public games: anyone. Private ones: their players. A daily puzzle shows the day's secret
    shuffle, so only its player, and those who have finished that day's puzzle, may watch it."""
    plays = bool(user and user.is_authenticated and any(seat.user_id == user.pk for seat in game.seats.all()))
    if game.daily_id:
        return plays or bool(user and user.is_authenticated and Game.objects.filter(
            daily_id=game.daily_id, created_by=user, status=Game.Status.FINISHED).exists())
    return game.visibility == Game.Visibility.PUBLIC or plays


def seat_of(game: Game, user) -> int | None:
    if not (user and user.is_authenticated):
        return None
    return next((seat.index for seat in game.seats.all() if seat.user_id == user.pk), None)


@dataclass
class BoardContext:
    game: Game
    seat: int | None
    view: dict
    your_move: bool
    seats: list[Seat] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "game": self.game,
            "seat": self.seat,
            "view": self.view,
            "your_move": self.your_move,
            "seats": self.seats,
            "analysis": self.game.analysis,
            "board_template": [f"games/boards/{self.game.kind}.html", "games/boards/generic.html"],
        }


def board_context(game: Game, user) -> BoardContext:
    """What one user sees of a game: their own seat's view, or a spectator's."""
    seat = seat_of(game, user)
    view = {}
    if game.status != Game.Status.OPEN:
        view = get_engine(game.kind).view(state_store.load(game), seat)
    your_move = game.status == Game.Status.ACTIVE and seat is not None and seat in game.awaiting
    return BoardContext(game=game, seat=seat, view=view, your_move=your_move, seats=list(game.seats.all()))


@dataclass
class Dashboard:
    your_move: list[Game]
    waiting: list[Game]
    open: list[Game]
    finished: list[Game]


def dashboard(user, finished_limit: int = 20) -> Dashboard:
    """The user's games, those waiting for their move first."""
    seats = dict(Seat.objects.filter(user=user).values_list("game_id", "index"))
    games = list(
        Game.objects.filter(pk__in=seats, status__in=[Game.Status.OPEN, Game.Status.ACTIVE]).order_by("deadline_at", "-created_at")
    )
    your_move = [g for g in games if g.status == Game.Status.ACTIVE and seats[g.pk] in g.awaiting]
    waiting = [g for g in games if g.status == Game.Status.ACTIVE and seats[g.pk] not in g.awaiting]
    open_games = [g for g in games if g.status == Game.Status.OPEN]
    finished = list(Game.objects.filter(pk__in=seats, status=Game.Status.FINISHED).order_by("-finished_at")[:finished_limit])
    return Dashboard(your_move=your_move, waiting=waiting, open=open_games, finished=finished)
