"""League pages: list, creation, the league page with standings, entries and organiser tools.

Public leagues (open or approval entry) are read by anyone, signed in or not; private ones
(invitation entry) by those in them (``services.can_read``). What cannot be undone (starting the
season, pausing, declining an entry, replacing or removing a player) asks first: the first POST
answers a page saying what will happen, whose button posts again with ``confirm=1``. A refused
organiser form comes back with the error beside its field and what was typed kept (400; for
htmx, the site's JSON error).
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import Min
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.http import require_GET, require_POST

from games.errors import GameError, GameNotFound, NotYourSeat
from games.forms import InviteForm
from games.leagues import services as leagues
from games.leagues import standings
from games.leagues.forms import AnnouncementForm, ExtendDeadlineForm, LeagueForm, ReplacePlayerForm
from games.leagues.models import League, LeagueEntry
from games.models import Game
from games.views import error_response


@require_GET
def league_list(request: HttpRequest) -> HttpResponse:
    readable = leagues.readable_leagues(request.user).select_related("organiser")
    leagues_with_start = readable.annotate(started_at=Min("games__created_at")).order_by("-starts_at", "pk")
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


def _readable(request: HttpRequest, league_id: int) -> League | HttpResponse:
    """The league, or the answer for someone who may not read it: the log-in page for a visitor
    (they may be in it), a refusal for a signed-in user who is not."""
    league = get_object_or_404(League.objects.select_related("organiser"), pk=league_id)
    if leagues.can_read(league, request.user):
        return league
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return error_response(request, NotYourSeat(_("This league is private: only its players and its organiser can see it.")))


@require_GET
def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _readable(request, league_id)
    if isinstance(league, HttpResponse):
        return league
    signed_in = request.user.is_authenticated
    is_organiser = signed_in and _is_organiser(league, request.user)
    context = {
        "league": league,
        "started_at": _started_at(league),
        "is_organiser": is_organiser,
        "entry": LeagueEntry.objects.filter(league=league, user=request.user).first() if signed_in else None,
        "players": leagues.players(league),
        "pending_count": league.entries.filter(status=LeagueEntry.Status.PENDING).count() if is_organiser else 0,
        "announcements": league.announcements.select_related("author")[:10],
        "games": league.games.order_by("season_index"),
        "standings": standings.league_standings(league),
    }
    return render(request, "leagues/detail.html", context)


def _is_organiser(league: League, user) -> bool:
    return leagues.is_organiser(league, user)


def _started_at(league: League):
    return leagues.season_started_at(league)


@login_required
@require_GET
def league_organise(request: HttpRequest, league_id: int) -> HttpResponse:
    """The organiser's one page: the season, entries, running games, players, announcements and
    exports, each in its own section."""
    league = get_object_or_404(League.objects.select_related("organiser"), pk=league_id)
    if not _is_organiser(league, request.user):
        return error_response(request, NotYourSeat(_("Only the organiser of this league can see its tools.")))
    return _organise_page(request, league)


def _organise_page(request: HttpRequest, league: League, *, status: int = 200, extend_form: ExtendDeadlineForm | None = None,
                   replace_form: ReplacePlayerForm | None = None,
                   announcement_form: AnnouncementForm | None = None, invite_form: InviteForm | None = None,
                   refusals: dict | None = None) -> HttpResponse:
    """The organiser's page, with a refused form (bound, its errors beside its fields) in place of
    the empty one."""
    games = list(league.games.order_by("season_index"))
    active_games = [game for game in games if game.status == Game.Status.ACTIVE]
    extend_forms = [(game, extend_form if extend_form is not None and extend_form.game_id == game.pk
                     else ExtendDeadlineForm(initial={"game": game.pk}, game_id=game.pk)) for game in active_games]
    context = {
        "league": league,
        "started_at": _started_at(league),
        "players": leagues.players(league),
        "pending": league.entries.filter(status=LeagueEntry.Status.PENDING).select_related("user"),
        "games": games,
        "extend_forms": extend_forms,
        "announcement_form": announcement_form or AnnouncementForm(),
        "replace_form": replace_form or ReplacePlayerForm(),
        "invite_form": invite_form or InviteForm(),
        "invitations": leagues.pending_invitations(league),
        "invite_url": request.build_absolute_uri(f"{reverse('league_enter', args=[league.pk])}?token={league.invite_token}"),
        "refusals": refusals or {},  # a refused action's sentence, by the section it belongs to
    }
    return render(request, "leagues/organise.html", context, status=status)


def _organised_league(request: HttpRequest, league_id: int) -> League | HttpResponse:
    league = get_object_or_404(League.objects.select_related("organiser"), pk=league_id)
    if not _is_organiser(league, request.user):
        return error_response(request, NotYourSeat(_("Only the organiser of this league can do that.")))
    return league


def _form_refused(request: HttpRequest, league: League, form, status: int = 400, **forms) -> HttpResponse:
    """A refused organiser form: for htmx its first error as the site's JSON error; otherwise
    the organiser's page with this form bound, the error beside its field."""
    if request.htmx:
        error = GameError((form.errors.get("__all__") or next(iter(form.errors.values())))[0])
        error.status = status
        return error_response(request, error)
    return _organise_page(request, league, status=status, **forms)


def _league_action(request: HttpRequest, league: League, action, success: str, section: str) -> HttpResponse:
    """Run an organiser's action and go back to their page; a refusal is shown there, in the
    ``section`` of the page the action belongs to (htmx: the site's JSON error)."""
    try:
        action()
    except GameError as error:
        if request.htmx:
            return error_response(request, error)
        return _organise_page(request, league, status=error.status, refusals={section: error.message})
    messages.success(request, success)
    return redirect("league_organise", league_id=league.pk)


def _confirmed(request: HttpRequest) -> bool:
    return request.POST.get("confirm") == "1"


def _confirm_page(request: HttpRequest, league: League, *, title: str, consequences: list[str], button: str) -> HttpResponse:
    """The step before an action that cannot be undone: what will happen, and a button posting
    the same fields again with ``confirm=1`` (no JavaScript needed)."""
    fields = [(name, value) for name, value in request.POST.items() if name not in ("csrfmiddlewaretoken", "confirm")]
    context = {"league": league, "title": title, "consequences": consequences, "button": button,
               "fields": fields, "action": request.path}
    return render(request, "leagues/confirm.html", context)


@login_required
def league_enter(request: HttpRequest, league_id: int) -> HttpResponse:
    token = request.POST.get("token") or request.GET.get("token")
    if request.method != "POST":
        league = get_object_or_404(League, pk=league_id)
        return render(request, "leagues/enter.html", {"league": league, "token": token or ""})
    try:
        entry = leagues.enter_league(league_id=league_id, user=request.user, token=token)
    except GameError as error:
        return error_response(request, error)
    if entry.status == LeagueEntry.Status.PENDING:
        messages.success(request, _("You have asked to join the league: the organiser decides, and your entry waits "
                                    "for approval until then."))
    else:
        messages.success(request, _("You have entered the league."))
    return redirect("league_detail", league_id=league_id)


@login_required
@require_POST
def league_decide(request: HttpRequest, league_id: int, entry_id: int) -> HttpResponse:
    approve = request.POST.get("decision") == "approve"
    league = _organised_league(request, league_id)
    if isinstance(league, HttpResponse):
        return league
    if not approve and not _confirmed(request):
        entry = LeagueEntry.objects.filter(pk=entry_id, league=league, status=LeagueEntry.Status.PENDING).select_related("user").first()
        if entry is None:
            return error_response(request, GameNotFound(_("There is no entry waiting for a decision with that number.")))
        return _confirm_page(request, league, title=_("Decline %(player)s's entry?") % {"player": entry.user},
                             consequences=[_("%(player)s will not play this season and cannot enter this league again.")
                                           % {"player": entry.user},
                                           _("You cannot change a decision once it is made.")],
                             button=_("Decline the entry"))
    return _league_action(
        request, league, lambda: leagues.decide_entry(league_id=league_id, entry_id=entry_id, by_user=request.user, approve=approve),
        _("Entry approved.") if approve else _("Entry declined."), "entries",
    )


@login_required
@require_POST
def league_start(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _organised_league(request, league_id)
    if isinstance(league, HttpResponse):
        return league
    if not _confirmed(request):
        count = len(leagues.players(league))
        games = league.season_games if league.schedule == League.Schedule.PARALLEL else 1
        return _confirm_page(request, league, title=_("Start the season now?"), consequences=[
            ngettext("The season starts now with the %(count)s approved player.",
                     "The season starts now with the %(count)s approved players.", count) % {"count": count},
            ngettext("%(games)s game opens at once; its first round's clock starts.",
                     "%(games)s games open at once; their first rounds' clocks start.", games) % {"games": games},
            _("Entries close: nobody else can join, and entries still waiting are not played."),
            _("A season once started cannot be taken back."),
        ], button=_("Start the season"))
    return _league_action(request, league, lambda: leagues.start_season(league_id=league_id, by_user=request.user),
                          _("The season has started."), "season")


@login_required
@require_POST
def league_pause(request: HttpRequest, league_id: int) -> HttpResponse:
    paused = request.POST.get("paused") == "1"
    league = _organised_league(request, league_id)
    if isinstance(league, HttpResponse):
        return league
    if paused and not _confirmed(request):
        return _confirm_page(request, league, title=_("Pause the league?"), consequences=[
            _("Every running game's clock stops, and moves wait until you resume."),
            _("The players see that the league is paused; each game gets back the time it had left when you resume."),
        ], button=_("Pause the league"))
    return _league_action(
        request, league, lambda: leagues.set_paused(league_id=league_id, by_user=request.user, paused=paused),
        _("The league is paused: clocks are stopped.") if paused else _("The league has resumed."), "season",
    )


@login_required
@require_POST
def league_extend(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _organised_league(request, league_id)
    if isinstance(league, HttpResponse):
        return league
    game_id = request.POST.get("game", "")
    game = league.games.filter(pk=int(game_id)).first() if game_id.isdigit() and len(game_id) < 12 else None
    if game is None:
        return error_response(request, GameNotFound(_("That game is not in this league.")))
    form = ExtendDeadlineForm(request.POST, game_id=game.pk)
    if not form.is_valid():
        return _form_refused(request, league, form, extend_form=form)
    hours = form.cleaned_data["hours"]
    try:
        leagues.extend_deadline(game_id=game.pk, by_user=request.user, hours=hours)
    except GameError as error:
        form.add_error("hours", error.message)
        return _form_refused(request, league, form, status=error.status, extend_form=form)
    messages.success(request, ngettext("The deadline is %(hours)s hour later.", "The deadline is %(hours)s hours later.",
                                       hours) % {"hours": hours})
    return redirect("league_organise", league_id=league_id)


@login_required
@require_POST
def league_replace(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _organised_league(request, league_id)
    if isinstance(league, HttpResponse):
        return league
    form = ReplacePlayerForm(request.POST)
    if not form.is_valid():
        return _form_refused(request, league, form, replace_form=form)
    old, new = form.cleaned_data["player"], form.cleaned_data["replacement"]
    try:
        if not _confirmed(request):
            leagues.check_replacement(league_id=league.pk, by_user=request.user, old_user=old, new_user=new)
            return _confirm_page(request, league, **_replacement_words(league, old, new))
        leagues.replace_player(league_id=league.pk, by_user=request.user, old_user=old, new_user=new)
    except GameError as error:
        form.add_error(getattr(error, "field", "") or None, error.message)
        return _form_refused(request, league, form, status=error.status, replace_form=form)
    messages.success(request, _("%(player)s has been replaced by %(replacement)s.") % {"player": old, "replacement": new}
                     if new is not None else _("The player has been removed; the AI plays their seats."))
    return redirect("league_organise", league_id=league_id)


def _replacement_words(league: League, old, new) -> dict:
    """The confirmation of a replacement or a removal: who, how many games, for good."""
    unfinished = league.games.filter(seats__user=old).exclude(status__in=[Game.Status.FINISHED, Game.Status.CANCELLED]).count()
    names = {"player": old, "replacement": new, "count": unfinished}
    if new is None:
        return {"title": _("Remove %(player)s from the league?") % names, "button": _("Remove the player"),
                "consequences": [
                    ngettext("The strong AI plays %(player)s's seat in %(count)s unfinished game to its end.",
                             "The strong AI plays %(player)s's seats in %(count)s unfinished games to their end.",
                             unfinished) % names,
                    _("%(player)s no longer plays in this season and cannot come back; they are told by e-mail.") % names,
                    _("This cannot be undone."),
                ]}
    return {"title": _("Replace %(player)s by %(replacement)s?") % names, "button": _("Replace the player"),
            "consequences": [
                ngettext("%(replacement)s takes %(player)s's seat in %(count)s unfinished game and plays the rest of "
                         "the season.",
                         "%(replacement)s takes %(player)s's seats in %(count)s unfinished games and plays the rest of "
                         "the season.", unfinished) % names,
                _("%(player)s no longer plays in this season and cannot come back; both are told by e-mail.") % names,
                _("This cannot be undone."),
            ]}


@login_required
@require_POST
def league_announce(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _organised_league(request, league_id)
    if isinstance(league, HttpResponse):
        return league
    form = AnnouncementForm(request.POST)
    if not form.is_valid():
        return _form_refused(request, league, form, announcement_form=form)
    try:
        leagues.announce(league_id=league.pk, by_user=request.user, text=form.cleaned_data["text"])
    except GameError as error:
        form.add_error("text", error.message)
        return _form_refused(request, league, form, status=error.status, announcement_form=form)
    messages.success(request, _("Your announcement has been posted and sent."))
    return redirect("league_organise", league_id=league_id)


@login_required
@require_POST
def league_invite(request: HttpRequest, league_id: int) -> HttpResponse:
    """The organiser invites a player by username; a refusal comes back beside the field, the
    name typed kept."""
    league = _organised_league(request, league_id)
    if isinstance(league, HttpResponse):
        return league
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _form_refused(request, league, form, invite_form=form)
    name = form.cleaned_data["username"].strip()
    try:
        leagues.invite(league_id=league.pk, by_user=request.user, username=name)
    except GameError as error:
        form.add_error("username", error.message)
        return _form_refused(request, league, form, status=error.status, invite_form=form)
    messages.success(request, _("%(player)s is invited: they see it on their dashboard.") % {"player": name})
    return redirect(f"{reverse('league_organise', args=[league.pk])}#invitations-title")


@login_required
@require_POST
def league_invitation_cancel(request: HttpRequest, league_id: int, invitation_id: int) -> HttpResponse:
    """Cancelling can be undone by inviting again, so it asks nothing first."""
    league = _organised_league(request, league_id)
    if isinstance(league, HttpResponse):
        return league
    try:
        cancelled = leagues.cancel_invitation(league_id=league.pk, invitation_id=invitation_id, by_user=request.user)
    except GameError as error:
        if request.htmx:
            return error_response(request, error)
        return _organise_page(request, league, status=error.status, refusals={"invitations": error.message})
    messages.success(request, _("The invitation of %(player)s is cancelled.") % {"player": cancelled.invited.username})
    return redirect(f"{reverse('league_organise', args=[league.pk])}#invitations-title")


@require_GET
def league_standings_csv(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _readable(request, league_id)
    if isinstance(league, HttpResponse):
        return league
    return _csv(standings.standings_csv(standings.league_standings(league)), f"league-{league.pk}-standings.csv")


@require_GET
def league_boards_csv(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _readable(request, league_id)
    if isinstance(league, HttpResponse):
        return league
    return _csv(standings.boards_csv(league), f"league-{league.pk}-boards.csv")


def _csv(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
