"""League use cases (Hextension): entries, the season's games, organiser tools.

Every function that changes something takes the acting user and checks that they may. Row
locks follow the site's one order: League, then Game (by id), then Seat.
"""
from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Min, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from django.dispatch import receiver

from games import policy, realtime, selectors, services, signals
from games.errors import GameError, GameNotActive, GameNotFound, NotYourSeat
from games.hextension.engine import KIND as HEXTENSION
from games.leagues.models import Announcement, League, LeagueEntry
from games.models import Game, Seat
from games.models import Invitation
from games.services import invitations, notifications

ORGANISER_PERMISSION = "leagues.organise_leagues"
AI_STAND_IN = "strong"  # who plays the seat of a removed player


def can_organise(user) -> bool:
    return bool(user and user.is_authenticated and user.has_perm(ORGANISER_PERMISSION))


def is_private(league: League) -> bool:
    """A league taking players by invitation only is private: its page, standings and exports
    are for those in it. Open and approval leagues are public: anyone reads them, signed in or
    not (their standings are what organisers share)."""
    return league.entry == League.Entry.INVITATION


def can_read(league: League, user) -> bool:
    if not is_private(league):
        return True
    if not (user and user.is_authenticated):
        return False
    return (league.organiser_id == user.pk or user.is_staff
            or LeagueEntry.objects.filter(league=league, user=user).exists())


def is_organiser(league: League, user) -> bool:
    """May ``user`` run ``league`` (its organiser page and tools)? Its organiser, or staff."""
    return bool(user and user.is_authenticated and (league.organiser_id == user.pk or user.is_staff))


def visible_entries(league: League, user):
    """The entries of ``league`` that ``user`` (who may read it) sees, oldest first: every one
    for its organiser; for anyone else the players, as the league page lists them, and their own
    entry whatever its status."""
    entries = league.entries.select_related("user").order_by("created_at", "pk")
    if is_organiser(league, user):
        return entries
    own = Q(user=user) if user and user.is_authenticated else Q(pk__in=[])
    return entries.filter(Q(status=LeagueEntry.Status.APPROVED) | own)


def season_started_at(league: League):
    """When the season really began (its first game opened), which an early start moves before
    the planned ``starts_at``; None while it takes entries."""
    return league.games.aggregate(first=Min("created_at"))["first"]


def readable_leagues(user):
    """The leagues ``user`` may read (``can_read``), as a queryset to list."""
    leagues = League.objects.all()
    if user and user.is_authenticated and user.is_staff:
        return leagues
    public = ~Q(entry=League.Entry.INVITATION)
    if not (user and user.is_authenticated):
        return leagues.filter(public)
    entered = LeagueEntry.objects.filter(user=user).values("league_id")
    return leagues.filter(public | Q(organiser=user) | Q(pk__in=entered))


def left_the_season(game: Game, user) -> bool:
    """Did the organiser take ``user`` out of ``game``'s league (replaced or removed)? Read once
    per read of the game for all its viewers (``selectors.shared``)."""
    if game.league_id is None or not (user and user.is_authenticated):
        return False
    removed = selectors.shared(game, "league_removed", lambda: frozenset(LeagueEntry.objects.filter(
        league_id=game.league_id, status=LeagueEntry.Status.REMOVED).values_list("user_id", flat=True)))
    return user.pk in removed


def _organised(league_id: int, user, *, lock: bool = True) -> League:
    leagues = League.objects.select_for_update() if lock else League.objects
    league = leagues.filter(pk=league_id).first()
    if league is None:
        raise GameNotFound(_("There is no such league."))
    if not is_organiser(league, user):
        raise NotYourSeat(_("Only the organiser of this league can do that."))
    return league


def create_league(*, organiser, **fields) -> League:
    if not can_organise(organiser):
        raise NotYourSeat(_("Only organisers can create leagues; ask the staff for the organiser permission."))
    return League.objects.create(organiser=organiser, **fields)


@transaction.atomic
def enter_league(*, league_id: int, user, token: str | None = None, invited: bool = False) -> LeagueEntry:
    """Enter as the league's entry rules say: at once, or waiting for approval. ``invited``: by
    an invitation of its organiser (``accept_invitation``), which stands for the invitation link."""
    policy.check_may_play(user)  # a play ban keeps a player out of new seasons too
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise GameNotFound(_("There is no such league."))
    if league.status != League.Status.ENROLLING:
        raise GameNotActive(_("This league's season has started; entries are closed."))
    if league.entry == League.Entry.INVITATION and token != league.invite_token and not invited:
        raise NotYourSeat(_("This league takes players by invitation only."))
    if user.is_bot and not league.admits_bots:
        raise NotYourSeat(_("This league does not admit bot accounts."))
    if LeagueEntry.objects.filter(league=league, user=user).exists():
        raise GameNotActive(_("You have already entered this league."))
    status = LeagueEntry.Status.PENDING if league.entry == League.Entry.APPROVAL else LeagueEntry.Status.APPROVED
    return LeagueEntry.objects.create(league=league, user=user, status=status)


def invite(*, league_id: int, by_user, username: str) -> Invitation:
    """The organiser invites ``username`` while the league takes entries; a bot account only
    where the league admits bots."""
    invited = invitations.user_named(username)
    with transaction.atomic():
        league = _organised(league_id, by_user)
        if league.status != League.Status.ENROLLING:
            raise GameNotActive(_("This league's season has started; entries are closed."))
        if invited.is_bot and not league.admits_bots:
            raise NotYourSeat(_("This league does not admit bot accounts: %(player)s is one.")
                              % {"player": invited.username})
        if LeagueEntry.objects.filter(league=league, user=invited).exists():
            raise GameNotActive(_("%(player)s has already entered this league.") % {"player": invited.username})
        return invitations.create(invited=invited, by_user=by_user, league=league)


def accept_invitation(invitation_id: int, user) -> LeagueEntry:
    """An organiser's invitation accepted: an entry as the league's rules say (at once, or
    waiting for approval in a league by approval), with ``enter_league``'s refusals."""
    league_id = Invitation.objects.filter(pk=invitation_id).values_list("league_id", flat=True).first()
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league_id).first()  # the league first, then the invitation
        invitation = invitations.locked_pending(invitation_id)
        entry = enter_league(league_id=league_id, user=user, invited=True)
        invitations.close(invitation, Invitation.Status.ACCEPTED)
    return entry


invitations.register_league_acceptor(accept_invitation)


def pending_invitations(league: League) -> list[Invitation]:
    """The league's invitations waiting for an answer, oldest first (its organiser page's list)."""
    return list(Invitation.objects.filter(league=league, status=Invitation.Status.PENDING)
                .select_related("invited", "invited_by").order_by("created_at", "pk"))


def cancel_invitation(*, league_id: int, invitation_id: int, by_user) -> Invitation:
    """Whoever sent one of the league's invitations calls it off (``invitations.cancel``'s rule);
    an invitation of another league is not found here."""
    if not Invitation.objects.filter(pk=invitation_id, league_id=league_id).exists():
        raise GameNotFound(_("There is no such invitation."))
    return invitations.cancel(invitation_id=invitation_id, by_user=by_user)


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
        invitations.expire_for_league(league)
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


class ReplacementRefused(GameError):
    """A replacement refused because of one of the two people named: ``field`` says which
    ("player" or "replacement"; "" for neither), so the form shows it beside that name."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.field = field


def _replacement_refused(league: League, old_entry: LeagueEntry | None, new_user, new_entry: LeagueEntry | None,
                         old_user) -> ReplacementRefused | None:
    """Why replacing ``old_user`` (by ``new_user``, or by the AI when None) is refused, or None.
    Only a player of the season is replaced, and only by someone who asked to join the league
    and does not play in it (waiting for approval, or declined): nobody is put in a season they
    never asked to play."""
    if league.status == League.Status.FINISHED:
        return ReplacementRefused(_("The season is over: nobody can be replaced or removed now."))
    if old_entry is None or old_entry.status != LeagueEntry.Status.APPROVED:
        return ReplacementRefused(_("%(player)s is not a player of this season: only a player of the season can be "
                                    "replaced or removed.") % {"player": old_user}, "player")
    if new_user is None:
        return None
    if new_user.pk == old_user.pk:
        return ReplacementRefused(_("Name someone else as the replacement."), "replacement")
    if new_entry is None:
        return ReplacementRefused(_("%(player)s has not asked to join this league: a replacement must be someone "
                                    "who asked to join it.") % {"player": new_user}, "replacement")
    if new_entry.status == LeagueEntry.Status.APPROVED:
        return ReplacementRefused(_("%(player)s already plays in this league.") % {"player": new_user}, "replacement")
    if new_entry.status == LeagueEntry.Status.REMOVED:
        return ReplacementRefused(_("%(player)s was removed from this league and cannot come back as a "
                                    "replacement.") % {"player": new_user}, "replacement")
    return None


def check_replacement(*, league_id: int, by_user, old_user, new_user=None) -> None:
    """Raise what ``replace_player`` would refuse, writing nothing (the organiser's confirmation
    step asks first, and says what will happen only for a replacement that will be accepted)."""
    league = _organised(league_id, by_user, lock=False)
    entries = {entry.user_id: entry for entry in LeagueEntry.objects.filter(
        league=league, user__in=[u for u in (old_user, new_user) if u is not None])}
    refused = _replacement_refused(league, entries.get(old_user.pk), new_user,
                                   entries.get(new_user.pk) if new_user is not None else None, old_user)
    if refused is not None:
        raise refused
    if new_user is not None:
        policy.check_may_play(new_user)


def replace_player(*, league_id: int, by_user, old_user, new_user=None) -> int:
    """Hand a player's seats in the league's unfinished games to another entrant, or to the AI
    when ``new_user`` is None (removal); returns the number of seats handed over. Open pages of
    those games change at once (the games' revision, announced); both players are told."""
    if new_user is not None:
        policy.check_may_play(new_user)  # a play ban: no new seat, a league's included
    with transaction.atomic():
        league = _organised(league_id, by_user)
        entries = {entry.user_id: entry for entry in LeagueEntry.objects.select_for_update().filter(
            league=league, user__in=[u for u in (old_user, new_user) if u is not None])}
        old_entry = entries.get(old_user.pk)
        new_entry = entries.get(new_user.pk) if new_user is not None else None
        refused = _replacement_refused(league, old_entry, new_user, new_entry, old_user)
        if refused is not None:
            raise refused
        old_entry.status = LeagueEntry.Status.REMOVED
        old_entry.save(update_fields=["status"])
        if new_entry is not None:
            new_entry.status = LeagueEntry.Status.APPROVED
            new_entry.save(update_fields=["status"])
        unfinished = [Game.Status.ACTIVE, Game.Status.PAUSED, Game.Status.OPEN]
        # League, then the games (by id), then their seats: the same order as every other write.
        games = {game.pk: game for game in Game.objects.select_for_update().filter(
            league=league, status__in=unfinished, seats__user=old_user).order_by("pk")}
        seats = Seat.objects.select_for_update().filter(
            game__league=league, user=old_user, game__status__in=unfinished
        ).order_by("game_id")
        handed = 0
        for seat in seats:
            if new_user is not None and Seat.objects.filter(game=seat.game_id, user=new_user).exists():
                raise GameError(_("%(player)s already plays in %(game)s.") % {"player": new_user, "game": seat.game})
            if new_user is not None:  # theirs from now on: no stand-in, no resignation of the player before
                seat.user, seat.ai_level, seat.standin_level, seat.resigned_at = new_user, "", "", None
            else:
                seat.user, seat.ai_level = None, AI_STAND_IN
            seat.save(update_fields=["user", "ai_level", "standin_level", "resigned_at"])
            games[seat.game_id].touch()  # who holds a seat is part of every open page's stamp
            handed += 1
        changed = list(games.values())
        transaction.on_commit(lambda: _after_handover(league, changed, old_user, new_user))
    return handed


def _after_handover(league: League, games: list[Game], old_user, new_user) -> None:
    """Open pages of the games show who holds the seats now (the player replaced loses the
    placement form, and reads why); the AI moves where it now owes one; both players are told."""
    for game in games:
        realtime.announce_version(game.pk, game.version)
        if new_user is None:
            services.schedule_ai_moves(game.pk)
    _tell_handover(league, old_user, new_user, games)


def _tell_handover(league: League, old_user, new_user, games: list[Game]) -> None:
    """E-mail (as each chose for game news) the player replaced and their replacement."""
    links = "".join(f"\n{game}: {notifications._game_url(game)}" for game in games)
    with notifications.in_language_of(old_user):
        names = {"league": league, "organiser": league.organiser, "player": new_user}
        body = (_("The organiser of %(league)s (%(organiser)s) has replaced you: %(player)s plays your seats in the "
                  "season's unfinished games.") if new_user is not None else
                _("The organiser of %(league)s (%(organiser)s) has removed you from the season: the AI plays your "
                  "seats in its unfinished games.")) % names
        notifications.deliver(old_user, _("%(league)s: you no longer play in the season") % names, body + "\n" + links)
    if new_user is not None:
        with notifications.in_language_of(new_user):
            names = {"league": league, "organiser": league.organiser, "player": old_user}
            body = _("The organiser of %(league)s (%(organiser)s) has given you the seats of %(player)s: you now play "
                     "in the season. If you cannot play, tell the organiser, who can hand the seats to the AI.") % names
            notifications.deliver(new_user, _("%(league)s: you replace %(player)s") % names, body + "\n" + links)


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
