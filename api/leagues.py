"""The API's leagues (/api/v1/leagues…): leagues, their season, entries and standings read with
the ``read`` scope, as the league pages show them to the token's user; the organiser's tools with
the ``organise`` scope, each the organiser page's own service (games/leagues/services.py), with
its checks, statuses and sentences. A private league is not found (404) by those outside it.

A league runs one season, its number 1: a next season is a new league (``POST /leagues``). The
organiser page's confirmation step is not asked: a program's call is deliberate.
"""
from __future__ import annotations

import functools

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.models import User
from api import schemas
from api import selectors as api_selectors
from api.http import Call, Problem, game_error_response, operation
from api.models import Scope
from api.new_games import _filled
from api.selectors import STATUSES
from games.errors import BadMove, GameError, GameNotFound, NotYourSeat
from games.leagues import services as leagues
from games.leagues import standings
from games.leagues.forms import LeagueForm, ReplacePlayerForm
from games.leagues.models import Announcement, League, LeagueEntry
from games.models import Game

PAGE_SIZE = 25  # as the league list's page
ONLY_SEASON = 1
MAX_PAGE = 10**6

ID = [{"name": "id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1},
       "description": "the league's id"}]
SEASON = [*ID, {"name": "number", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1},
                "description": "the season's number (a league runs one: 1)"}]
ENTRY = [*ID, {"name": "entry", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1},
               "description": "the entry's id (GET /leagues/{id}/entries)"}]
INVITATION = [*ID, {"name": "invitation", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1},
                    "description": "the invitation's id (as POST /leagues/{id}/invite answered it)"}]
PAGE = [{"name": "page", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1},
         "description": "the page, from 1 (25 leagues a page); one past the last is empty"}]
READS = (401, 403, 404)
ACTIONS = (400, 401, 403, 404, 409)


def _refusals_answered(handler):
    """A service's refusal (GameError) as its problem document: its status and its sentence."""
    @functools.wraps(handler)
    def answered(call: Call, **kwargs):
        try:
            return handler(call, **kwargs)
        except GameError as error:
            return game_error_response(error)
    return answered


def _run_by(user, league_id: int) -> League:
    """The league, if ``user`` may run it: not found for those who may not read it, refused with
    the organiser page's sentence for the others (the services check it again as they write)."""
    league = _readable(user, league_id)
    if not leagues.is_organiser(league, user):
        raise NotYourSeat(_("Only the organiser of this league can do that."))
    return league


def _readable(user, league_id: int) -> League:
    """The league, if ``user`` may read it (``services.can_read``); else not found, as if it
    did not exist, so a private league's existence is not told to those outside it."""
    league = League.objects.select_related("organiser").filter(pk=league_id).first()
    if league is None or not leagues.can_read(league, user):
        raise GameNotFound(_("There is no such league."))
    return league


# --- answers -----------------------------------------------------------------------------------


def _when(moment) -> str | None:
    return moment.isoformat() if moment is not None else None


def _page_url(request: HttpRequest, name: str, pk: int) -> str:
    return request.build_absolute_uri(reverse(name, args=[pk]))


def _summary(request: HttpRequest, league: League) -> dict:
    return {"id": league.pk, "name": league.name, "organiser": league.organiser.username, "status": league.status,
            "entry": league.entry, "private": leagues.is_private(league), "starts_at": _when(league.starts_at),
            "url": _page_url(request, "league_detail", league.pk)}


def _announcement(announcement: Announcement) -> dict:
    return {"id": announcement.pk, "author": announcement.author.username, "text": announcement.text,
            "created_at": _when(announcement.created_at)}


def _league(request: HttpRequest, league: League, user) -> dict:
    own_entry = LeagueEntry.objects.filter(league=league, user=user).values_list("status", flat=True).first()
    return {
        **_summary(request, league),
        "description": league.description,
        "settings": {name: getattr(league, name) for name in schemas.league_settings_names()},
        "you": {"organiser": leagues.is_organiser(league, user), "entry": own_entry},
        "seasons": [{"number": ONLY_SEASON, "status": league.status,
                     "started_at": _when(leagues.season_started_at(league))}],
        "announcements": [_announcement(a) for a in league.announcements.select_related("author")[:10]],
    }


def _season_game(request: HttpRequest, game: Game) -> dict:
    return {"id": game.pk, "number": game.season_index, "title": str(game), "status": STATUSES.get(game.status, "finished"),
            "paused": game.status == Game.Status.PAUSED, "deadline_at": _when(game.deadline_at),
            "url": _page_url(request, "game_detail", game.pk)}


def _standing_row(row: standings.StandingRow, usernames: dict[int, str]) -> dict:
    return {"rank": row.rank, "name": row.name, "username": usernames.get(row.user_id), "ai": row.is_ai,
            "scores": row.per_game, "match_points": row.match_points, "percentage": round(row.percentage, 1),
            "total_score": row.total_score, "best_game": row.best_game, "nmrs": row.nmr, "times_out": row.times_out}


def _season(request: HttpRequest, league: League) -> dict:
    """The season as the league page shows it: its games and the standings' table (the page's
    own computation, ``standings.league_standings``)."""
    table = standings.league_standings(league)
    players = [row.user_id for row in table.rows if row.user_id is not None]
    usernames = dict(User.objects.filter(pk__in=players).values_list("pk", "username"))
    return {
        "league": league.pk, "number": ONLY_SEASON, "status": league.status,
        "started_at": _when(leagues.season_started_at(league)),
        "games": [_season_game(request, game) for game in league.games.order_by("season_index", "pk")],
        "standings": {"games": table.game_numbers, "rows": [_standing_row(row, usernames) for row in table.rows]},
    }


def _entry(entry: LeagueEntry) -> dict:
    return {"id": entry.pk, "player": entry.user.username, "bot": entry.user.is_bot, "status": entry.status,
            "created_at": _when(entry.created_at)}


def _csv(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


def _page_number(text: str) -> int:
    if not (text.isdigit() and 1 <= int(text) <= MAX_PAGE):
        what = _("a whole number from %(low)s to %(high)s") % {"low": 1, "high": MAX_PAGE}
        raise Problem(400, _("%(field)s must be %(what)s.") % {"field": "page", "what": what})
    return int(text)


# --- reading (scope read) ------------------------------------------------------------------------


@operation("GET", "/leagues", name="listLeagues", summary="The leagues you may read", scope=Scope.READ,
           answer=schemas.ref("LeaguePage"), refusals=(400, 401, 403), parameters=PAGE,
           description="Public leagues (entry open or by approval) and the private ones you organise or entered, "
                       "as the league list shows them: newest start first, 25 a page (`?page=`).")
def list_leagues(call: Call):
    number = _page_number(call.request.GET.get("page", "1"))
    found = leagues.readable_leagues(call.user).select_related("organiser").order_by("-starts_at", "pk")
    pages = Paginator(found, PAGE_SIZE)
    shown = pages.page(number).object_list if number <= pages.num_pages else []
    return {"leagues": [_summary(call.request, league) for league in shown], "page": number, "pages": pages.num_pages,
            "count": pages.count, "next_page": number + 1 if number < pages.num_pages else None}


@operation("GET", "/leagues/{id}", name="getLeague", summary="A league: its settings, season and announcements",
           scope=Scope.READ, answer=schemas.ref("League"), refusals=READS, parameters=ID)
@_refusals_answered
def get_league(call: Call, id: int):
    return _league(call.request, _readable(call.user, id), call.user)


@operation("GET", "/leagues/{id}/seasons/{number}", name="getSeason", summary="A season: its games and standings",
           scope=Scope.READ, answer=schemas.ref("Season"), refusals=READS, parameters=SEASON,
           description="The standings are the league page's table, AI seats included.")
@_refusals_answered
def get_season(call: Call, id: int, number: int):
    league = _readable(call.user, id)
    if number != ONLY_SEASON:
        raise GameNotFound(_("This league has no season %(number)s: a league runs one season, number 1.")
                           % {"number": number})
    return _season(call.request, league)


@operation("GET", "/leagues/{id}/entries", name="listEntries", summary="A league's entries", scope=Scope.READ,
           answer=schemas.ref("Entries"), refusals=READS, parameters=ID,
           description="The organiser sees every entry with its status (waiting, playing, declined, removed); "
                       "anyone else who may read the league its players and their own entry, as the pages show.")
@_refusals_answered
def list_entries(call: Call, id: int):
    league = _readable(call.user, id)
    return {"entries": [_entry(entry) for entry in leagues.visible_entries(league, call.user)]}


CSV = {"type": "string", "description": "CSV, a header row first"}


@operation("GET", "/leagues/{id}/standings.csv", name="exportStandings", summary="The standings as CSV",
           scope=Scope.READ, answer=CSV, media_type="text/csv", refusals=READS, parameters=ID,
           description="The league page's export, byte for byte: rank, player, a column a finished game, match "
                       "points, percentage, total score, best game, NMRs, times out.")
@_refusals_answered
def export_standings(call: Call, id: int):
    league = _readable(call.user, id)
    return _csv(standings.standings_csv(standings.league_standings(league)), f"league-{league.pk}-standings.csv")


@operation("GET", "/leagues/{id}/boards.csv", name="exportBoards", summary="Every board of every game as CSV",
           scope=Scope.READ, answer=CSV, media_type="text/csv", refusals=READS, parameters=ID,
           description="The league page's export: game, player, cell, tile, each board as of its last closed round.")
@_refusals_answered
def export_boards(call: Call, id: int):
    league = _readable(call.user, id)
    return _csv(standings.boards_csv(league), f"league-{league.pk}-boards.csv")


# --- organising (scope organise) -----------------------------------------------------------------


@operation("POST", "/leagues", name="createLeague", summary="Create a league (its season takes entries)",
           scope=Scope.ORGANISE, body=schemas.league_body(), answer_status=201, answer=schemas.ref("League"),
           refusals=(400, 401, 403),
           description="The new-league page's form and defaults; for organisers (the organiser permission, "
                       "given by the staff). The season starts by itself at `starts_at`, or when you start it.")
@_refusals_answered
def create_league(call: Call):
    form = _filled(LeagueForm, call.body)
    league = leagues.create_league(organiser=call.user, **form.cleaned_data)
    return _league(call.request, league, call.user)


def _organiser_action(summary: str, path: str, name: str, **declared):
    """An organiser's action on one league: scope organise, refused as the organiser page
    refuses it (403 for another user, 409 for a season in another state)."""
    return operation("POST", path, name=name, summary=summary, scope=Scope.ORGANISE,
                     refusals=declared.pop("refusals", ACTIONS), parameters=declared.pop("parameters", ID), **declared)


@_organiser_action("Start the season now", "/leagues/{id}/start", "startSeason", answer=schemas.ref("Season"),
                   description="With at least two approved players; entries close. Answers the season.")
@_refusals_answered
def start_season(call: Call, id: int):
    league = _run_by(call.user, id)
    leagues.start_season(league_id=league.pk, by_user=call.user)
    return _season(call.request, _readable(call.user, id))


@_organiser_action("Pause the league (clocks stop)", "/leagues/{id}/pause", "pauseLeague",
                   answer=schemas.ref("League"))
@_refusals_answered
def pause_league(call: Call, id: int):
    leagues.set_paused(league_id=_run_by(call.user, id).pk, by_user=call.user, paused=True)
    return _league(call.request, _readable(call.user, id), call.user)


@_organiser_action("Resume the league", "/leagues/{id}/resume", "resumeLeague", answer=schemas.ref("League"),
                   description="Each game gets back the time it had left.")
@_refusals_answered
def resume_league(call: Call, id: int):
    leagues.set_paused(league_id=_run_by(call.user, id).pk, by_user=call.user, paused=False)
    return _league(call.request, _readable(call.user, id), call.user)


def _decide(call: Call, league_id: int, entry_id: int, approve: bool) -> dict:
    league = _run_by(call.user, league_id)
    entry = leagues.decide_entry(league_id=league.pk, entry_id=entry_id, by_user=call.user, approve=approve)
    return _entry(LeagueEntry.objects.select_related("user").get(pk=entry.pk))


@_organiser_action("Approve an entry", "/leagues/{id}/entries/{entry}/approve", "approveEntry",
                   answer=schemas.ref("Entry"), parameters=ENTRY,
                   description="An entry waiting for approval, before the season starts.")
@_refusals_answered
def approve_entry(call: Call, id: int, entry: int):
    return _decide(call, id, entry, approve=True)


@_organiser_action("Decline an entry", "/leagues/{id}/entries/{entry}/decline", "declineEntry",
                   answer=schemas.ref("Entry"), parameters=ENTRY,
                   description="An entry waiting for approval, before the season starts; for good.")
@_refusals_answered
def decline_entry(call: Call, id: int, entry: int):
    return _decide(call, id, entry, approve=False)


def _players_named(body: dict) -> tuple:
    """The users the body names, looked up by the organiser page's form (its sentences)."""
    form = ReplacePlayerForm(data={"player": body["player"], "replacement": body.get("replacement", "")})
    if not form.is_valid():
        raise BadMove(next(iter(form.errors.values()))[0])
    return form.cleaned_data["player"], form.cleaned_data["replacement"]


@_organiser_action("Replace a player", "/leagues/{id}/replace", "replacePlayer", body=schemas.replace_body(),
                   answer=schemas.ref("Handover"),
                   description="`replacement` takes `player`'s seats in the season's unfinished games and plays on; "
                               "only a player of the season is replaced, by someone who asked to join the league "
                               "and does not play in it. Both are told by e-mail.")
@_refusals_answered
def replace_player(call: Call, id: int):
    league = _run_by(call.user, id)
    old, new = _players_named(call.body)
    return {"seats": leagues.replace_player(league_id=league.pk, by_user=call.user, old_user=old, new_user=new)}


@_organiser_action("Remove a player (the AI plays their seats)", "/leagues/{id}/remove", "removePlayer",
                   body=schemas.remove_body(), answer=schemas.ref("Handover"),
                   description="The strong AI plays the player's seats in the season's unfinished games to their end.")
@_refusals_answered
def remove_player(call: Call, id: int):
    league = _run_by(call.user, id)
    old, _none = _players_named(call.body)
    return {"seats": leagues.replace_player(league_id=league.pk, by_user=call.user, old_user=old, new_user=None)}


@_organiser_action("Extend a running round's deadline", "/leagues/{id}/extend", "extendDeadline",
                   body=schemas.extend_body(), answer=schemas.ref("Extended"),
                   description="`game` is one of the season's running games; `hours` from 1 to 336.")
@_refusals_answered
def extend_deadline(call: Call, id: int):
    league = _run_by(call.user, id)
    if not league.games.filter(pk=call.body["game"]).exists():
        raise GameNotFound(_("That game is not in this league."))
    game = leagues.extend_deadline(game_id=call.body["game"], by_user=call.user, hours=call.body["hours"])
    return {"game": game.pk, "deadline_at": _when(game.deadline_at)}


@_organiser_action("Announce to the league", "/leagues/{id}/announcements", "announce",
                   body=schemas.announcement_body(), answer_status=201, answer=schemas.ref("Announcement"),
                   refusals=(400, 401, 403, 404),
                   description="Shown on the league page and sent to every player.")
@_refusals_answered
def announce(call: Call, id: int):
    league = _run_by(call.user, id)
    announcement = leagues.announce(league_id=league.pk, by_user=call.user, text=call.body["text"])
    return _announcement(Announcement.objects.select_related("author").get(pk=announcement.pk))


@_organiser_action("Invite a player by username", "/leagues/{id}/invite", "invitePlayerToLeague",
                   body=schemas.invite_body(), answer_status=201, answer=schemas.ref("Invitation"),
                   description="While the league takes entries; a bot account only where the league admits bots. "
                               "The player sees it on their dashboard and in their events stream, and on accepting "
                               "enters as the league's entry rules say. At most 20 of your invitations wait for an "
                               "answer at once.")
@_refusals_answered
def invite(call: Call, id: int):
    league = _run_by(call.user, id)
    return api_selectors.invitation_json(leagues.invite(league_id=league.pk, by_user=call.user,
                                                        username=call.body["username"]))


@_organiser_action("Cancel an invitation", "/leagues/{id}/invitations/{invitation}/cancel", "cancelLeagueInvitation",
                   answer=schemas.ref("Invitation"), parameters=INVITATION,
                   description="One you sent that still waits for an answer.")
@_refusals_answered
def cancel_invitation(call: Call, id: int, invitation: int):
    league = _run_by(call.user, id)
    return api_selectors.invitation_json(leagues.cancel_invitation(league_id=league.pk, invitation_id=invitation,
                                                                   by_user=call.user))
