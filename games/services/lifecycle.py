"""Opening, joining and starting games."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _, ngettext

from games import policy, realtime
from games.ai_names import level_list
from games.errors import BadMove, GameError, GameNotActive, NotYourSeat
from games.models import Game, Seat
from games.protocol import Engine, IllegalMove
from games.refusals import general_refusal
from games.services import invitations
from games.services.clocks import refresh_turn
from games.services.moves import Progress, after_commit, lock_game
from games.sites import get_engine, get_site


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
    if created_by is not None:
        policy.check_may_play(created_by)  # a play ban: refused, with until when and why
    engine = get_engine(kind)
    try:
        seat_count = engine.seat_count(config)
        engine.new_state(config, 0)  # refuses a bad config before anything is written
    except (ValueError, TypeError, IllegalMove) as exc:
        raise _settings_refused(kind, exc) from exc
    ai_seats, players = ai_seats or {}, players or []
    levels = engine.ai_levels()
    if any(level not in levels for level in ai_seats.values()):
        raise _choose_a_level(levels)
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


def _choose_a_level(levels) -> BadMove:
    return BadMove(_("Choose an AI level among %(levels)s.") % {"levels": level_list(levels)})


def _settings_refused(kind: str, exc: Exception) -> BadMove:
    """Settings the engine refuses, with its reason: as the engine wrote it on an English page,
    in the site's words (its refusals) in another language, or left out where it has none."""
    if (translation.get_language() or "en").startswith("en"):
        return BadMove(_("These game settings cannot be used: %(reason)s") % {"reason": exc})
    reason = get_site(kind).readable_refusal(str(exc))
    if reason == general_refusal(""):
        return BadMove(_("These game settings cannot be used."))
    return BadMove(_("These game settings cannot be used: %(reason)s") % {"reason": reason})


def _take_free_seat(game: Game, user) -> Seat:
    seat = game.seats.select_for_update().filter(user__isnull=True, ai_level="").order_by("index").first()
    if seat is None:
        raise GameNotActive(_("This game is full."))
    seat.user = user
    seat.save(update_fields=["user"])
    game.touch()
    return seat


def join_game(*, game_id: int, user) -> Seat:
    """Take the first free seat; the game starts by itself when the last seat is taken."""
    policy.check_may_play(user)
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameNotActive(_("This game has already started."))
        if game.seats.filter(user=user).exists():
            raise GameNotActive(_("You are already playing in this game."))
        seat = _take_free_seat(game, user)
        full = not game.seats.filter(user__isnull=True, ai_level="").exists()
        if full:
            _start_locked(game)
        else:  # open pages of the room show the new player (a start is announced by its write)
            transaction.on_commit(lambda: _announce(game))
    return seat


def start_game(*, game_id: int, by_user=None, fill_with_ai: str = "") -> Game:
    """Start an open game. It starts by itself once full; its creator may start it earlier:
    the empty seats then go to an AI of level ``fill_with_ai``, or are dropped when that is
    empty and the engine allows that many players."""
    with transaction.atomic():
        game = lock_game(game_id)
        if by_user is not None and game.created_by_id != by_user.pk:
            raise NotYourSeat(_("Only the player who opened this game can start it."))
        if game.status != Game.Status.OPEN:
            raise GameNotActive(_("This game has already started."))
        empty = game.seats.filter(user__isnull=True, ai_level="")
        if empty.exists():
            if by_user is None:
                raise GameNotActive(_("Every seat must be taken (by a player or an AI) before the game starts."))
            engine = get_engine(game.kind)
            if fill_with_ai:
                if fill_with_ai not in engine.ai_levels():
                    raise _choose_a_level(engine.ai_levels())
                empty.update(ai_level=fill_with_ai)
            else:
                _drop_empty_seats(game, engine)
        _start_locked(game)
    return game


def _start_locked(game: Game) -> None:
    site = get_site(game.kind)
    engine = site.engine
    if site.config_at_start is not None:
        seats = list(game.seats.select_related("user").order_by("index"))
        game.config = site.config_at_start(game.config, seats)
    state = engine.new_state(game.config, game.seed)
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    refresh_turn(game, engine, state, turn_changed=True, restart=True)
    game.save()
    invitations.expire_if_closed(game)
    transaction.on_commit(lambda: after_commit(game, engine, state, Progress(turn_changed=True)))


def _drop_empty_seats(game: Game, engine: Engine) -> None:
    """Close the gaps left by empty seats and tell the engine how many players there are."""
    taken = list(game.seats.exclude(user__isnull=True, ai_level="").order_by("index"))
    config = {**game.config, "players": len(taken)}
    try:
        engine.new_state(config, 0)
    except (ValueError, TypeError, IllegalMove):
        raise GameNotActive(ngettext("This game cannot start with %(count)s player; wait for more to join.",
                                     "This game cannot start with %(count)s players; wait for more to join.",
                                     len(taken)) % {"count": len(taken)}) from None
    game.seats.filter(user__isnull=True, ai_level="").delete()
    for new_index, seat in enumerate(taken):  # two steps: indexes are unique per game
        Seat.objects.filter(pk=seat.pk).update(index=1000 + new_index)
    for new_index, seat in enumerate(taken):
        Seat.objects.filter(pk=seat.pk).update(index=new_index)
    game.config = config


# --- before the start: the host's seat and settings tools -------------------------------------


def _hosted(game_id: int, by_user) -> Game:
    game = lock_game(game_id)
    if by_user is None or game.created_by_id != by_user.pk:
        raise NotYourSeat(_("Only the player who opened this game can change it."))
    if game.status != Game.Status.OPEN:
        raise GameNotActive(_("This game has already started; its seats and settings are fixed."))
    return game


def set_seat(*, game_id: int, by_user, index: int, ai_level: str = "") -> Seat:
    """The host opens a seat (``ai_level`` empty: anyone may take it) or gives it to an AI;
    a player seated there is removed (not the host's own seat)."""
    with transaction.atomic():
        game = _hosted(game_id, by_user)
        seat = game.seats.select_for_update().filter(index=index).first()
        if seat is None:
            raise BadMove(_("There is no such seat."))
        if seat.user_id == by_user.pk:
            raise BadMove(_("You cannot remove yourself; cancel the game instead."))
        levels = get_engine(game.kind).ai_levels()
        if ai_level and ai_level not in levels:
            raise _choose_a_level(levels)
        seat.user, seat.ai_level = None, ai_level
        seat.save(update_fields=["user", "ai_level"])
        game.touch()
        invitations.expire_if_closed(game)  # its last free seat given to the AI
        transaction.on_commit(lambda: _announce(game))
    return seat


def update_settings(*, game_id: int, by_user, config: dict, turn_seconds: int | None = None,
                    visibility: str | None = None, title: str | None = None) -> Game:
    """The host changes the settings before the start. A new number of players adds open
    seats or drops the empty ones at the end; it cannot drop a seated player."""
    with transaction.atomic():
        game = _hosted(game_id, by_user)
        engine = get_engine(game.kind)
        try:
            count = engine.seat_count(config)
            engine.new_state(config, 0)
        except (ValueError, TypeError, IllegalMove) as exc:
            raise _settings_refused(game.kind, exc) from exc
        seats = list(game.seats.select_for_update().order_by("index"))
        if any(seat.user_id or seat.ai_level for seat in seats[count:]):
            raise BadMove(_("Free the seats at the end first: a player or an AI sits there."))
        Seat.objects.filter(game=game, index__gte=count).delete()
        Seat.objects.bulk_create(Seat(game=game, index=i) for i in range(len(seats), count))
        game.config = config
        if turn_seconds is not None:
            game.turn_seconds = turn_seconds
        if visibility is not None:
            game.visibility = visibility
        if title is not None:
            game.title = title
        game.revision += 1
        game.save(update_fields=["config", "turn_seconds", "visibility", "title", "revision"])
        invitations.expire_if_closed(game)  # fewer seats: perhaps none free
        transaction.on_commit(lambda: _announce(game))
    return game


def leave_game(*, game_id: int, user) -> None:
    """A player leaves a game that has not started (the host cancels it instead)."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameNotActive(_("This game has already started."))
        if game.created_by_id == user.pk:
            raise BadMove(_("You opened this game: cancel it instead of leaving."))
        if not Seat.objects.filter(game=game, user=user).update(user=None):
            raise NotYourSeat(_("You are not seated in this game."))
        game.touch()
        transaction.on_commit(lambda: _announce(game))


def cancel_game(*, game_id: int, by_user) -> Game:
    """The host calls off a game that has not started."""
    with transaction.atomic():
        game = _hosted(game_id, by_user)
        game.status = Game.Status.CANCELLED
        old_game = Game.objects.filter(pk=game.rematch_of_id).first() if game.rematch_of_id else None
        # A cancelled rematch frees its finished game for another one, whose page offers it again.
        game.rematch_of = None
        game.save(update_fields=["status", "rematch_of"])
        invitations.expire_if_closed(game)
        transaction.on_commit(lambda: _announce(game))
        if old_game is not None:
            transaction.on_commit(lambda: _announce(old_game))
    return game


def _announce(game: Game) -> None:
    realtime.announce_version(game.pk, game.version)


def rematch_refusal(game: Game, user, seats=None) -> GameError | None:
    """Why ``user`` may not ask for a rematch of ``game`` (None: they may). The service refuses
    with it, and the status bar offers the button only when it is None: no button the player
    cannot use. A league game has none (its season goes on with its next game, not a casual game
    outside it); a play ban refuses it, with until when and why."""
    if game.status != Game.Status.FINISHED:
        return GameNotActive(_("A rematch can be asked once the game is over."))
    if game.league_id is not None:
        return GameNotActive(_("A league game has no rematch: the season goes on with its own games."))
    seats = list(game.seats.all()) if seats is None else seats
    if not any(seat.user_id == getattr(user, "pk", None) for seat in seats):
        return NotYourSeat(_("Only the players of this game can ask for a rematch."))
    if len(seats) < 2:
        return GameNotActive(_("A rematch is for games of several players; start a new game instead."))
    try:
        policy.check_may_play(user)
    except GameError as banned:
        return banned
    return None


def rematch(*, game_id: int, user) -> Game:
    """A new game with the finished one's settings and seats: its AI seats keep their levels,
    the asking player takes their old seat, the other players' seats wait for them (they are
    told on the old game's page). One rematch per game: a second asker joins the first's."""
    with transaction.atomic():
        old = lock_game(game_id)
        seats = list(old.seats.order_by("index"))
        refused = rematch_refusal(old, user, seats)
        if refused is not None:
            raise refused
        mine = next(seat for seat in seats if seat.user_id == user.pk)
        existing = Game.objects.filter(rematch_of=old).values_list("pk", flat=True).first()
        if existing is not None:
            game = lock_game(existing)  # Games by id: the old one first
            if policy.has_blocked(user, game.created_by_id):
                raise NotYourSeat(_("You have blocked the player who opened this rematch."))
            if game.status == Game.Status.OPEN and not game.seats.filter(user=user).exists():
                _take_seat(game, user, mine.index)
                transaction.on_commit(lambda: _announce(old))  # its page says whether the rematch has started
            return game
        config = {key: value for key, value in old.config.items() if key not in ("names", "order")}
        game = create_game(kind=old.kind, config=config, created_by=user, title=old.title, visibility=old.visibility,
                           turn_seconds=old.turn_seconds, join=False,
                           ai_seats={seat.index: seat.ai_level for seat in seats if seat.ai_level})
        game.rematch_of = old
        game.save(update_fields=["rematch_of"])
        _take_seat(game, user, mine.index)
        transaction.on_commit(lambda: _announce(old))
    return game


def _take_seat(game: Game, user, index: int) -> None:
    """Sit at seat ``index`` if it is free, else at the first free one."""
    seat = game.seats.select_for_update().filter(index=index, user__isnull=True, ai_level="").first()
    if seat is None:
        seat = game.seats.select_for_update().filter(user__isnull=True, ai_level="").order_by("index").first()
    if seat is None:
        raise GameNotActive(_("The rematch is full."))
    seat.user = user
    seat.save(update_fields=["user"])
    game.touch()
    if not game.seats.filter(user__isnull=True, ai_level="").exists():
        _start_locked(game)  # full: it starts by itself, as a joined game does
    else:
        transaction.on_commit(lambda: _announce(game))  # its open pages show the player who sat down
