"""League use cases (Hextension): entries, the season's games, organiser tools.

Every function that changes something takes the acting user and checks that they may. Row
locks follow the site's one order: League, then Game (by id), then Seat.
"""
from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from django.dispatch import receiver

from games import realtime, services, signals
from games.errors import GameError, GameNotActive, GameNotFound, NotYourSeat
from games.hextension.engine import KIND as HEXTENSION
from games.leagues.models import Announcement, League, LeagueEntry
from games.models import Game, Seat
from games.services import notifications
from moderation import sanctions

ORGANISER_PERMISSION = "leagues.organise_leagues"
AI_STAND_IN = "strong"  # who plays the seat of a removed player


def can_organise(user) -> bool:
    return bool(user and user.is_authenticated and user.has_perm(ORGANISER_PERMISSION))


def _organised(league_id: int, user) -> League:
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise GameNotFound(_("There is no such league."))
    if league.organiser_id != user.pk and not user.is_staff:
        raise NotYourSeat(_("Only the organiser of this league can do that."))
    return league


def create_league(*, organiser, **fields) -> League:
    if not can_organise(organiser):
        raise NotYourSeat(_("Only organisers can create leagues; ask the staff for the organiser permission."))
    return League.objects.create(organiser=organiser, **fields)


@transaction.atomic
def enter_league(*, league_id: int, user, token: str | None = None) -> LeagueEntry:
    sanctions.check_may_play(user)  # a play ban keeps a player out of new seasons too
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise GameNotFound(_("There is no such league."))
    if league.status != League.Status.ENROLLING:
        raise GameNotActive(_("This league's season has started; entries are closed."))
    if league.entry == League.Entry.INVITATION and token != league.invite_token:
        raise NotYourSeat(_("This league takes players by invitation only."))
    if LeagueEntry.objects.filter(league=league, user=user).exists():
        raise GameNotActive(_("You have already entered this league."))
    status = LeagueEntry.Status.PENDING if league.entry == League.Entry.APPROVAL else LeagueEntry.Status.APPROVED
    return LeagueEntry.objects.create(league=league, user=user, status=status)


@transaction.atomic
def decide_entry(*, league_id: int, entry_id: int, by_user, approve: bool) -> LeagueEntry:
    league = _organised(league_id, by_user)
    entry = LeagueEntry.objects.filter(pk=entry_id, league=league).first()
    if entry is None:
        raise GameNotFound(_("There is no such entry in this league."))
    if entry.status != LeagueEntry.Status.PENDING or league.status != League.Status.ENROLLING:
        raise GameNotActive(_("Only entries waiting for approval, before the season starts, can be decided."))
    entry.status = LeagueEntry.Status.APPROVED if approve else LeagueEntry.Status.DECLINED
    entry.save(update_fields=["status"])
    return entry


def players(league: League) -> list:
    entries = league.entries.filter(status=LeagueEntry.Status.APPROVED).select_related("user").order_by("created_at")
    return [entry.user for entry in entries]


def start_season(*, league_id: int, by_user=None) -> list[Game]:
    """Open the season's games: all at once, or the first of a sequence."""
    with transaction.atomic():
        league = _organised(league_id, by_user) if by_user else League.objects.select_for_update().get(pk=league_id)
        if league.status != League.Status.ENROLLING:
            raise GameNotActive(_("This league's season has already started."))
        entrants = players(league)
        if len(entrants) < 2:
            raise GameError(_("A season needs at least two approved players."))
        league.status = League.Status.RUNNING
        league.save(update_fields=["status"])
        count = league.season_games if league.schedule == League.Schedule.PARALLEL else 1
        games = [_open_league_game(league, entrants, index) for index in range(1, count + 1)]
    return games


def _open_league_game(league: League, entrants: list, index: int) -> Game:
    game = services.create_game(
        kind=HEXTENSION,
        config={"players": len(entrants), "tiles_per_round": league.tiles_per_round},
        title=f"{league.name} — game {index}",
        turn_seconds=league.round_hours * 3600,
        join=False,
        players=entrants,
        league=league,
        season_index=index,
    )
    services.start_game(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def start_due_leagues(now=None) -> int:
    now = now or timezone.now()
    started = 0
    for league_id in League.objects.filter(status=League.Status.ENROLLING, starts_at__lte=now).values_list("pk", flat=True):
        try:
            start_season(league_id=league_id)
            started += 1
        except GameError:
            continue  # too few players yet: it starts once two are approved and the time is past
    return started


@receiver(signals.game_finished, dispatch_uid="leagues.after_league_game")
def after_league_game(sender, game: Game, **kwargs) -> None:
    """A league game ended: open the next one (sequential seasons) or close the season."""
    if game.league_id is None:
        return
    with transaction.atomic():
        _continue_season(League.objects.select_for_update().get(pk=game.league_id))


def _continue_season(league: League) -> None:
    """Open the next game of a sequential season when none is running; close a season whose
    games are all played (or that has too few players left to go on). A paused league waits."""
    if league.status != League.Status.RUNNING:
        return
    played = league.games.count()
    unfinished = league.games.exclude(status=Game.Status.FINISHED).exists()
    entrants = players(league)
    if league.schedule == League.Schedule.SEQUENTIAL and played < league.season_games and len(entrants) >= 2:
        if not unfinished:
            _open_league_game(league, entrants, played + 1)
        return
    if not unfinished:
        league.status = League.Status.FINISHED
        league.save(update_fields=["status"])


def set_paused(*, league_id: int, by_user, paused: bool) -> League:
    """Pause: every running game keeps the time it had left; resume gives it back."""
    with transaction.atomic():
        league = _organised(league_id, by_user)
        wanted_from = League.Status.RUNNING if paused else League.Status.PAUSED
        if league.status != wanted_from:
            raise GameNotActive(_("Only a running season can be paused.") if paused else _("This league is not paused."))
        league.status = League.Status.PAUSED if paused else League.Status.RUNNING
        league.save(update_fields=["status"])
        now = timezone.now()
        games = list(Game.objects.select_for_update().filter(
            league=league, status=Game.Status.ACTIVE if paused else Game.Status.PAUSED).order_by("pk"))
        for game in games:
            (services.pause_clock if paused else services.resume_clock)(game, now)
            game.save(update_fields=["status", "deadline_at", "remind_at", "paused_remaining"])
        if not paused:
            _continue_season(league)  # a game that ended during the pause is followed now
        transaction.on_commit(lambda: _after_clock_change(games, ask_ai=not paused))
    return league


def _after_clock_change(games: list[Game], *, ask_ai: bool) -> None:
    """Boards show the new status or deadline; AI seats move again after a resume."""
    for game in games:
        realtime.announce_version(game.pk, game.version)
        if ask_ai:
            services.schedule_ai_moves(game.pk)


def extend_deadline(*, game_id: int, by_user, hours: int) -> Game:
    if not 1 <= hours <= 14 * 24:
        raise GameError(_("Extend by 1 hour to 14 days."))
    with transaction.atomic():
        league_id = Game.objects.filter(pk=game_id).values_list("league_id", flat=True).first()
        if league_id is None:
            raise GameNotFound(_("There is no such league game."))
        _organised(league_id, by_user)  # the league first: League, then Game
        game = services.lock_game(game_id)
        if game.status != Game.Status.ACTIVE or game.deadline_at is None:
            raise GameNotActive(_("Only a running round's deadline can be extended."))
        remaining = game.deadline_at - timezone.now() + timedelta(hours=hours)
        services.set_clock(game, remaining, remind=game.remind_at is not None)
        game.save(update_fields=["deadline_at", "remind_at"])
        transaction.on_commit(lambda: _after_clock_change([game], ask_ai=False))
    return game


def replace_player(*, league_id: int, by_user, old_user, new_user=None) -> int:
    """Hand a player's seats in the league's unfinished games to another player, or to the AI
    when ``new_user`` is None (removal); returns the number of seats handed over."""
    with transaction.atomic():
        league = _organised(league_id, by_user)
        entry = LeagueEntry.objects.filter(league=league, user=old_user).first()
        if entry is None:
            raise GameNotFound(_("That player is not in this league."))
        entry.status = LeagueEntry.Status.REMOVED
        entry.save(update_fields=["status"])
        if new_user is not None:
            LeagueEntry.objects.update_or_create(league=league, user=new_user, defaults={"status": LeagueEntry.Status.APPROVED})
        unfinished = [Game.Status.ACTIVE, Game.Status.PAUSED, Game.Status.OPEN]
        # League, then the games (by id), then their seats: the same order as every other write.
        list(Game.objects.select_for_update().filter(league=league, status__in=unfinished,
                                                     seats__user=old_user).order_by("pk").values_list("pk"))
        seats = Seat.objects.select_for_update().filter(
            game__league=league, user=old_user, game__status__in=unfinished
        ).order_by("game_id")
        handed, given_to_ai = 0, set()
        for seat in seats:
            if new_user is not None and Seat.objects.filter(game=seat.game_id, user=new_user).exists():
                raise GameError(_("%(player)s already plays in %(game)s.") % {"player": new_user, "game": seat.game})
            seat.user, seat.ai_level = (new_user, "") if new_user is not None else (None, AI_STAND_IN)
            seat.save(update_fields=["user", "ai_level"])
            handed += 1
            if new_user is None:
                given_to_ai.add(seat.game_id)
    for game_id in given_to_ai:
        services.schedule_ai_moves(game_id)
    return handed


def announce(*, league_id: int, by_user, text: str) -> Announcement:
    text = text.strip()
    if not text:
        raise GameError(_("Write something to announce."))
    with transaction.atomic():
        league = _organised(league_id, by_user)
        announcement = Announcement.objects.create(league=league, author=by_user, text=text)
        recipients = players(league)
        transaction.on_commit(lambda: notifications.league_announcement(league, text, recipients))
    return announcement
