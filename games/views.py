"""HTTP edges: read the request, call a selector or a service, render. Nothing else."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.middleware.csrf import get_token
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import live, move_input, ratelimit, realtime, selectors, services
from games.errors import BadMove, GameError, GameNotFound, NotYourSeat, RateLimited
from games.models import Game
from games.sites import get_site


def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("dashboard")
    return render(request, "home.html")


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    return render(request, "games/dashboard.html", {"dashboard": selectors.dashboard(request.user)})


@login_required
def finished_games(request: HttpRequest) -> HttpResponse:
    games = Game.objects.filter(seats__user=request.user, status=Game.Status.FINISHED).order_by("-finished_at")
    page = Paginator(games, 25).get_page(request.GET.get("page"))
    return render(request, "games/finished.html", {"page": page})


def error_response(request: HttpRequest, error: GameError, game_id: int | None = None) -> HttpResponse:
    context = {"error": error.message, "game_id": game_id}
    if not request.htmx:
        response = render(request, "games/error.html", context, status=error.status)
    else:
        # The live page shows the message beside the control that was used (static/js/live.js).
        response = JsonResponse({"type": "error", "message": error.message}, status=error.status)
    if isinstance(error, RateLimited):
        response["Retry-After"] = str(error.retry_after)
    return response


@login_required
@require_GET
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = selectors.game_for_viewer(game_id, request.user)
    except GameError as error:
        return error_response(request, error)
    if request.htmx:
        return live_answer(request, game)
    view = live.LiveView(game, request.user, request=request)
    board = selectors.board_context(game, request.user)
    several = len(board.seats) > 1
    regions = {region_id: mark_safe(html) for region_id, html in live.page_regions(view, get_token(request),
                                                                                  chat=several).items()}
    return render(request, "games/game.html", {**board.as_dict(), "regions": regions, "several_seats": several,
                                               "stamp": live.stamp_of(game), "layout": view.layout,
                                               "has_own_regions": bool(get_site(game.kind).regions)})


def live_answer(request: HttpRequest, game: Game, notice: str = "", region_ids: list[str] | None = None) -> JsonResponse:
    """The live page's regions for this viewer at the game's version (an htmx request's answer)."""
    page = live.page_id(request.headers.get("X-Live-Page"))
    answer = live.answer(live.LiveView(game, request.user, request=request), get_token(request), region_ids, page)
    if notice:
        answer["notice"] = notice
    return JsonResponse(answer)


@login_required
@require_GET
def game_regions(request: HttpRequest, game_id: int) -> HttpResponse:
    """Regions of the live page over HTTP (``?ids=a,b``; all by default): what a socket could
    not carry in one frame, or a page that lost its socket reads to catch up."""
    try:
        game = selectors.game_for_viewer(game_id, request.user)
    except GameError as error:
        return error_response(request, error, game_id)
    ids = [part for part in request.GET.get("ids", "").split(",") if part] or None
    return live_answer(request, game, region_ids=ids)


@login_required
@require_GET
def game_region_body(request: HttpRequest, game_id: int, region_id: str) -> HttpResponse:
    """The content of a region the page loads when the viewer opens it (``Region.body_template``).
    Its address carries the drawing's key, so a browser may keep it; the ETag says the same."""
    try:
        game = selectors.game_for_viewer(game_id, request.user)
    except GameError as error:
        return error_response(request, error, game_id)
    region = live.region_by_id(game, region_id)
    if region is None or not region.body_template:
        return error_response(request, GameNotFound(_("This part of the game page does not exist.")), game_id)
    view = live.LiveView(game, request.user)
    key = view.key(region)
    etag = f'"{live.body_digest(key)}"'
    # Compared as RFC 9110 says (weakly, for a GET): the compression sends the ETag as W/"…",
    # and a browser asks again with that form.
    response = get_conditional_response(request, etag=etag)
    if response is None:
        body = render_to_string(region.body_template, view.context(region))
        response = HttpResponse(body.replace(live.CSRF_MARK, get_token(request)))
    response["ETag"] = etag
    response["Cache-Control"] = "private, max-age=3600" if request.GET.get("k") == etag.strip('"') else "private, no-cache"
    return response


@login_required
@require_POST
def game_move(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = selectors.game_for_viewer(game_id, request.user)
        ratelimit.check_move(request.user, game.pk)  # every attempt counts, refused ones too
        # An htmx move is answered with every region at its version: the page's socket need not send them.
        answered = live.page_id(request.headers.get("X-Live-Page")) if request.htmx else None
        with realtime.answered_over_http(answered):
            applied = services.submit_move(
                game_id=game.pk,
                user=request.user,
                move=move_input.read_move(get_site(game.kind), request.POST),  # checked by schema
                expected_version=move_input.parse_version(request.POST),
            )
    except GameError as error:
        return error_response(request, error, game_id)
    if applied.repeated:
        # Not refused (the player's move is in), but not played now either: say why nothing moved.
        return game_board_response(request, game_id, _("That move had already been played, from another tab "
                                                       "or window or by a second click: the board shows it now."),
                                   game=selectors.game_as_written(game, applied.game), notice=True)
    return game_board_response(request, game_id, _("Your move has been played."),
                               game=selectors.game_as_written(game, applied.game))


def game_board_response(request: HttpRequest, game_id: int, done: str, game: Game | None = None,
                        notice: bool = False) -> HttpResponse:
    """After a write: the live page's regions for htmx (drawn from ``game`` when the write gives
    it, with its seats, else read again; ``notice``: with ``done`` beside the control), or a
    redirect to the game page with ``done`` as a note."""
    if request.htmx:
        return live_answer(request, game or selectors.game_for_viewer(game_id, request.user),
                           notice=done if notice else "")
    messages.success(request, done)
    return redirect("game_detail", game_id=game_id)


@login_required
def game_join(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation link: shows the game and a button to take a seat."""
    game = Game.objects.filter(invite_token=token).first()
    if game is None:
        return error_response(request, GameNotFound(_("This invitation link is not valid.")))
    if request.method == "POST":
        try:
            services.join_game(game_id=game.pk, user=request.user)
        except GameError as error:
            return error_response(request, error, game.pk)
        messages.success(request, _("You have joined the game."))
        return redirect("game_detail", game_id=game.pk)
    return render(request, "games/join.html", selectors.join_context(game, request.user))


@login_required
@require_GET
def game_hint(request: HttpRequest, game_id: int) -> HttpResponse:
    """A suggestion for the player's move, in games whose site gives hints."""
    try:
        game = selectors.game_for_viewer(game_id, request.user)
        site = get_site(game.kind)
        if site.hint is None:
            raise BadMove(_("This game gives no hints."))
        seat = selectors.seat_of(game, request.user)
        if seat is None:
            raise NotYourSeat(_("You are not playing in this game."))
        move = site.hint(game, seat)
    except GameError as error:
        return error_response(request, error, game_id)
    return render(request, site.hint_template, {"game": game, "hint": move})


@login_required
@require_POST
def game_undo(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        selectors.game_for_viewer(game_id, request.user)
        version = move_input.parse_version(request.POST)
        services.undo_last_move(game_id=game_id, user=request.user, expected_version=version)
    except GameError as error:
        return error_response(request, error, game_id)
    return game_board_response(request, game_id, _("Your last move was taken back."))


@login_required
@require_GET
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a game move by move (``?at=N``: after N events): a finished one, or for its
    players the closed turns of a running one."""
    try:
        game = selectors.game_for_viewer(game_id, request.user)
        at = request.GET.get("at")
        step = selectors.replay_step(game, request.user, None if at in (None, "") else int(at))
    except ValueError:
        return error_response(request, BadMove(_("Give the step as a whole number.")), game_id)
    except GameError as error:
        return error_response(request, error, game_id)
    return render(request, "games/replay.html", {**step.board.as_dict(), "step": step, "replaying": True})
