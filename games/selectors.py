"""Reads for the edges: who may see what, and the page context built from a seat's view."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch

from games import state_store
from games.errors import GameNotFound, NotYourSeat
from games.models import ChatMessage, Game, Rating, RatingChange, Seat
from games.sites import get_site, offered_sites


def game_for_viewer(game_id: int, user) -> Game:
    """The game, if ``user`` may watch it: public games, or private ones they sit at."""
    game = Game.objects.filter(pk=game_id).prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user"))).first()
    if game is None:
        raise GameNotFound("There is no such game.")
    if not can_watch(game, user):
        raise NotYourSeat("This game is private: only its players can see it.")
    return game


def plays_in(game: Game, user) -> bool:
    return bool(user and user.is_authenticated and any(seat.user_id == user.pk for seat in game.seats.all()))


def can_watch(game: Game, user) -> bool:
    """Public games: anyone. Private ones: their players. A game's site may decide otherwise
    (a daily puzzle shows the day's secret shuffle)."""
    site_rule = get_site(game.kind).can_watch
    decided = site_rule(game, user) if site_rule else None
    if decided is not None:
        return decided
    return game.visibility == Game.Visibility.PUBLIC or plays_in(game, user)


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
            "board_template": get_site(self.game.kind).board_template,
            "your_seat": next((s for s in self.seats if s.index == self.seat), None),
            "may_resign": self.game.status == Game.Status.ACTIVE and bool(get_site(self.game.kind).standin_level),
            **(open_game_context(self.game) if self.game.status == Game.Status.OPEN else {}),
        }


def open_game_context(game: Game) -> dict:
    """What the page of a game not yet started shows: its seats and, for its host, the tools."""
    site = get_site(game.kind)
    form_class = site.settings_form
    settings_form = None
    if form_class is not None:
        initial = form_class.initial_from(game.config) if hasattr(form_class, "initial_from") else {}
        settings_form = form_class(initial=initial)
    return {"ai_levels": site.engine.ai_levels(), "settings_form": settings_form,
            "free_seats": sum(1 for seat in game.seats.all() if not seat.user_id and not seat.ai_level)}


def board_context(game: Game, user) -> BoardContext:
    """What one user sees of a game: their own seat's view, or a spectator's."""
    seat = seat_of(game, user)
    view = {}
    if game.status != Game.Status.OPEN:
        view = get_site(game.kind).engine.view(state_store.load(game), seat)
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


@dataclass(frozen=True)
class PlayerStats:
    games: int
    average_score: float | None
    best_score: int | None
    average_rank: float | None
    rating: Rating | None
    history: list[RatingChange]


def player_stats(user) -> PlayerStats:
    """Games, average and best score, average rank (from finished rated games), and the rating history."""
    scores, ranks = [], []
    rated = [site.kind for site in offered_sites() if site.rated]
    seats = Seat.objects.filter(user=user, game__kind__in=rated, game__status=Game.Status.FINISHED).select_related("game")
    for seat in seats:
        result = seat.game.result or {}
        if seat.index < len(result.get("scores", [])):
            scores.append(result["scores"][seat.index])
            ranks.append(result["ranks"][seat.index])
    return PlayerStats(
        games=len(scores),
        average_score=sum(scores) / len(scores) if scores else None,
        best_score=max(scores) if scores else None,
        average_rank=sum(ranks) / len(ranks) if ranks else None,
        rating=Rating.objects.filter(user=user).first(),
        history=list(RatingChange.objects.filter(user=user).order_by("created_at")),
    )


@dataclass(frozen=True)
class ProfileSection:
    title: str
    template: str
    stats: object


def profile_sections(user) -> list[ProfileSection]:
    """Each game's own part of a player's page (e.g. solo records)."""
    return [
        ProfileSection(site.title, template, stats_for(user))
        for site in offered_sites()
        for template, stats_for in site.profile_sections
    ]


CHAT_SHOWN = 100


def may_chat(game: Game, user) -> bool:
    """Players write in a game's chat; spectators too when the game's config says so."""
    if not (user and user.is_authenticated):
        return False
    return plays_in(game, user) or bool(game.config.get("spectator_chat"))


def chat_context(game: Game, user) -> dict:
    """The latest visible chat messages of a game (oldest first) and whether ``user`` may write."""
    latest = (ChatMessage.objects.filter(game=game, hidden_at__isnull=True).select_related("author")
              .order_by("-created_at", "-pk")[:CHAT_SHOWN])
    return {"game": game, "chat_messages": list(reversed(latest)), "chat_may_post": may_chat(game, user)}


@dataclass
class ReplayStep:
    board: BoardContext
    at: int
    last: int
    event: object | None


def replay_step(game: Game, user, at: int) -> ReplayStep:
    """A finished game as it stood after its first ``at`` events: the spectator's view, or the
    viewer's own seat's view if they played (nobody else's cards, ever)."""
    if game.status != Game.Status.FINISHED:
        raise NotYourSeat("A game can be replayed once it is over.")
    last = game.version
    at = max(0, min(at, last))
    seat = seat_of(game, user)
    engine = get_site(game.kind).engine
    view = engine.view(state_store.replay(game, upto=at), seat)
    event = game.events.filter(seq=at).select_related("created_by").first() if at else None
    board = BoardContext(game=game, seat=seat, view=view, your_move=False, seats=list(game.seats.all()))
    return ReplayStep(board=board, at=at, last=last, event=event)
