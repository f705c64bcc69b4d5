"""Opening, joining and starting games."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.errors import BadMove, GameNotActive, NotYourSeat
from games.models import Game, Seat
from games.protocol import Engine, IllegalMove
from games.services.clocks import refresh_turn
from games.services.moves import Progress, after_commit, lock_game
from games.sites import get_engine


@transaction.atomic
def create_game(
    *,
    kind: str,
    config: dict,
    created_by=None,
    title: str = "",
    visibility: str = Game.Visibility.PUBLIC,
    turn_seconds: int | None = None,
    ai_seats: dict[int, str] | None = None,
    join: bool = True,
    players: list | None = None,
    seed: int | None = None,
    league=None,
    season_index: int | None = None,
) -> Game:
    """Open a game with one seat per player: ``players`` (users, in seat order) fill the first
    seats, ``ai_seats`` map seats to AI levels, and the creator takes the first free one.
    ``seed`` shares a secret shuffle between games (a daily puzzle); ``league`` and
    ``season_index`` say where the game belongs. All or nothing: one transaction."""
    engine = get_engine(kind)
    try:
        seat_count = engine.seat_count(config)
        engine.new_state(config, 0)  # refuses a bad config before anything is written
    except (ValueError, TypeError, IllegalMove) as exc:
        raise BadMove(f"These game settings cannot be used: {exc}") from exc
    ai_seats, players = ai_seats or {}, players or []
    levels = engine.ai_levels()
    if any(level not in levels for level in ai_seats.values()):
        raise BadMove(f"Choose an AI level among {', '.join(levels)}.")
    extra = {"seed": seed} if seed is not None else {}
    game = Game.objects.create(
        kind=kind, config=config, created_by=created_by, title=title, visibility=visibility,
        turn_seconds=turn_seconds, league=league, season_index=season_index, **extra,
    )
    Seat.objects.bulk_create(
        Seat(game=game, index=i, user=players[i] if i < len(players) else None, ai_level=ai_seats.get(i, ""))
        for i in range(seat_count)
    )
    if join and created_by is not None:
        _take_free_seat(game, created_by)
    return game


def _take_free_seat(game: Game, user) -> Seat:
    seat = game.seats.select_for_update().filter(user__isnull=True, ai_level="").order_by("index").first()
    if seat is None:
        raise GameNotActive("This game is full.")
    seat.user = user
    seat.save(update_fields=["user"])
    return seat


def join_game(*, game_id: int, user) -> Seat:
    """Take the first free seat; the game starts by itself when the last seat is taken."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameNotActive("This game has already started.")
        if game.seats.filter(user=user).exists():
            raise GameNotActive("You are already playing in this game.")
        seat = _take_free_seat(game, user)
        full = not game.seats.filter(user__isnull=True, ai_level="").exists()
        if full:
            _start_locked(game)
    return seat


def start_game(*, game_id: int, by_user=None) -> Game:
    """Start an open game. Its creator may start it before it is full: the empty seats are
    dropped when the engine allows that many players; it starts by itself once full."""
    with transaction.atomic():
        game = lock_game(game_id)
        if by_user is not None and game.created_by_id != by_user.pk:
            raise NotYourSeat("Only the player who opened this game can start it.")
        if game.status != Game.Status.OPEN:
            raise GameNotActive("This game has already started.")
        if game.seats.filter(user__isnull=True, ai_level="").exists():
            if by_user is None:
                raise GameNotActive("Every seat must be taken (by a player or an AI) before the game starts.")
            _drop_empty_seats(game, get_engine(game.kind))
        _start_locked(game)
    return game


def _start_locked(game: Game) -> None:
    engine = get_engine(game.kind)
    state = engine.new_state(game.config, game.seed)
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    refresh_turn(game, engine, state, turn_changed=True, restart=True)
    game.save()
    transaction.on_commit(lambda: after_commit(game, engine, state, Progress(turn_changed=True)))


def _drop_empty_seats(game: Game, engine: Engine) -> None:
    """Close the gaps left by empty seats and tell the engine how many players there are."""
    taken = list(game.seats.exclude(user__isnull=True, ai_level="").order_by("index"))
    config = {**game.config, "players": len(taken)}
    try:
        engine.new_state(config, 0)
    except (ValueError, TypeError, IllegalMove):
        raise GameNotActive(f"This game cannot start with {len(taken)} player{'s' if len(taken) != 1 else ''}; "
                            "wait for more to join.") from None
    game.seats.filter(user__isnull=True, ai_level="").delete()
    for new_index, seat in enumerate(taken):  # two steps: indexes are unique per game
        Seat.objects.filter(pk=seat.pk).update(index=1000 + new_index)
    for new_index, seat in enumerate(taken):
        Seat.objects.filter(pk=seat.pk).update(index=new_index)
    game.config = config
