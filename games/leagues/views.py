"""League pages: list, creation, the league page with standings, entries and organiser tools."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Min
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import require_POST

from accounts.models import User
from games.leagues import services as leagues
from games.leagues import standings
from games.errors import GameError, GameNotFound, NotYourSeat
from games.leagues.forms import AnnouncementForm, ExtendDeadlineForm, LeagueForm, ReplacePlayerForm
from games.leagues.models import League, LeagueEntry
from games.models import Game
from games.views import error_response


@login_required
def league_list(request: HttpRequest) -> HttpResponse:
    leagues_with_start = League.objects.select_related("organiser").annotate(started_at=Min("games__created_at")).order_by("-starts_at", "pk")
    page = Paginator(leagues_with_start, 25).get_page(request.GET.get("page"))
    return render(request, "leagues/list.html", {"page": page, "can_organise": leagues.can_organise(request.user)})


@login_required
def league_new(request: HttpRequest) -> HttpResponse:
    if not leagues.can_organise(request.user):
        return error_response(request, NotYourSeat(_("Only organisers can create leagues; ask the staff for the organiser permission.")))
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        league = leagues.create_league(organiser=request.user, **form.cleaned_data)
        messages.success(request, _("Your league is open for entries."))
        return redirect("league_detail", league_id=league.pk)
    return render(request, "leagues/new.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = get_object_or_404(League.objects.select_related("organiser"), pk=league_id)
    is_organiser = _is_organiser(league, request.user)
    entry = LeagueEntry.objects.filter(league=league, user=request.user).first()
    context = {
        "league": league,
        "started_at": _started_at(league),
        "is_organiser": is_organiser,
        "entry": entry,
        "players": leagues.players(league),
        "pending_count": league.entries.filter(status=LeagueEntry.Status.PENDING).count() if is_organiser else 0,
        "announcements": league.announcements.select_related("author")[:10],
        "games": league.games.order_by("season_index"),
        "standings": standings.league_standings(league),
    }
    return render(request, "leagues/detail.html", context)


def _is_organiser(league: League, user) -> bool:
    return league.organiser_id == user.pk or user.is_staff


def _started_at(league: League):
    """When the season really began (its first game opened), which an early start moves
    before the planned ``starts_at``; None while it takes entries."""
    return league.games.aggregate(first=Min("created_at"))["first"]


@login_required
def league_organise(request: HttpRequest, league_id: int) -> HttpResponse:
    """The organiser's one page: the season, entries, running games, players, announcements and
    exports, each in its own section."""
    league = get_object_or_404(League.objects.select_related("organiser"), pk=league_id)
    if not _is_organiser(league, request.user):
        return error_response(request, NotYourSeat(_("Only the organiser of this league can see its tools.")))
    games = list(league.games.order_by("season_index"))
    context = {
        "league": league,
        "started_at": _started_at(league),
        "players": leagues.players(league),
        "pending": league.entries.filter(status=LeagueEntry.Status.PENDING).select_related("user"),
        "games": games,
        "active_games": [game for game in games if game.status == Game.Status.ACTIVE],
        "announcement_form": AnnouncementForm(),
        "replace_form": ReplacePlayerForm(),
        "invite_url": request.build_absolute_uri(f"{reverse('league_enter', args=[league.pk])}?token={league.invite_token}"),
    }
    return render(request, "leagues/organise.html", context)


def _league_action(request: HttpRequest, league_id: int, action, success: str, to: str = "league_organise") -> HttpResponse:
    """Run an organiser's (or with ``to="league_detail"`` a player's) action and go back to the
    page it came from, or show why it was refused."""
    try:
        action()
    except GameError as error:
        return error_response(request, error)
    messages.success(request, success)
    return redirect(to, league_id=league_id)


@login_required
def league_enter(request: HttpRequest, league_id: int) -> HttpResponse:
    token = request.POST.get("token") or request.GET.get("token")
    if request.method != "POST":
        league = get_object_or_404(League, pk=league_id)
        return render(request, "leagues/enter.html", {"league": league, "token": token or ""})
    return _league_action(
        request, league_id, lambda: leagues.enter_league(league_id=league_id, user=request.user, token=token),
        _("You have entered the league."), to="league_detail",
    )


@login_required
@require_POST
def league_decide(request: HttpRequest, league_id: int, entry_id: int) -> HttpResponse:
    approve = request.POST.get("decision") == "approve"
    return _league_action(
        request, league_id, lambda: leagues.decide_entry(league_id=league_id, entry_id=entry_id, by_user=request.user, approve=approve),
        _("Entry approved.") if approve else _("Entry declined."),
    )


@login_required
@require_POST
def league_start(request: HttpRequest, league_id: int) -> HttpResponse:
    return _league_action(request, league_id, lambda: leagues.start_season(league_id=league_id, by_user=request.user),
                          _("The season has started."))


@login_required
@require_POST
def league_pause(request: HttpRequest, league_id: int) -> HttpResponse:
    paused = request.POST.get("paused") == "1"
    return _league_action(
        request, league_id, lambda: leagues.set_paused(league_id=league_id, by_user=request.user, paused=paused),
        _("The league is paused: clocks are stopped.") if paused else _("The league has resumed."),
    )


@login_required
@require_POST
def league_extend(request: HttpRequest, league_id: int) -> HttpResponse:
    form = ExtendDeadlineForm(request.POST)
    if not form.is_valid():
        return error_response(request, GameError(_("Give the game and a number of hours from 1 to 336.")))
    data = form.cleaned_data

    def extend():
        if not Game.objects.filter(pk=data["game"], league_id=league_id).exists():
            raise GameNotFound(_("That game is not in this league."))
        leagues.extend_deadline(game_id=data["game"], by_user=request.user, hours=data["hours"])

    return _league_action(request, league_id, extend, ngettext("The deadline is %(hours)s hour later.", "The deadline is %(hours)s hours later.",
                                                               data["hours"]) % {"hours": data["hours"]})


@login_required
@require_POST
def league_replace(request: HttpRequest, league_id: int) -> HttpResponse:
    form = ReplacePlayerForm(request.POST)
    if not form.is_valid():
        return error_response(request, GameError(_("Name the player to replace.")))
    data = form.cleaned_data

    def replace():
        old = User.objects.filter(username=data["player"]).first()
        new = User.objects.filter(username=data["replacement"]).first() if data["replacement"] else None
        if old is None or (data["replacement"] and new is None):
            raise GameNotFound(_("There is no player with that username."))
        leagues.replace_player(league_id=league_id, by_user=request.user, old_user=old, new_user=new)

    return _league_action(request, league_id, replace, _("The player has been replaced.") if data["replacement"]
                          else _("The player has been removed; the AI plays their seats."))


@login_required
@require_POST
def league_announce(request: HttpRequest, league_id: int) -> HttpResponse:
    text = request.POST.get("text", "")
    return _league_action(request, league_id, lambda: leagues.announce(league_id=league_id, by_user=request.user, text=text),
                          _("Your announcement has been posted and sent."))


@login_required
def league_standings_csv(request: HttpRequest, league_id: int) -> HttpResponse:
    league = get_object_or_404(League, pk=league_id)
    return _csv(standings.standings_csv(standings.league_standings(league)), f"league-{league.pk}-standings.csv")


@login_required
def league_boards_csv(request: HttpRequest, league_id: int) -> HttpResponse:
    league = get_object_or_404(League, pk=league_id)
    return _csv(standings.boards_csv(league), f"league-{league.pk}-boards.csv")


def _csv(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
