"""HTTP edges: read the request, call a selector or a service, render. Nothing else."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from games import move_input, ratelimit, selectors, services
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
        # Show the message in the board's error slot; the board itself stays as it was.
        response = reswap(retarget(render(request, "games/_error.html", context, status=error.status), "#move-error"),
                          "outerHTML")
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
    board = selectors.board_context(game, request.user)
    if request.htmx:
        return render(request, "games/_board.html", board.as_dict())
    chat = selectors.chat_context(game, request.user) if len(board.seats) > 1 else {}
    return render(request, "games/game.html", {**board.as_dict(), **chat})


@login_required
@require_POST
def game_move(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        game = selectors.game_for_viewer(game_id, request.user)
        ratelimit.check_move(request.user, game.pk)  # every attempt counts, refused ones too
        services.submit_move(
            game_id=game.pk,
            user=request.user,
            move=move_input.read_move(get_site(game.kind), request.POST),  # checked by schema
            expected_version=move_input.parse_version(request.POST),
        )
    except GameError as error:
        return error_response(request, error, game_id)
    return game_board_response(request, game_id, "Your move has been played.")


def game_board_response(request: HttpRequest, game_id: int, done: str) -> HttpResponse:
    """After a write: the fresh board for htmx, or a redirect to the game page with a note."""
    if request.htmx:
        game = selectors.game_for_viewer(game_id, request.user)
        return render(request, "games/_board.html", selectors.board_context(game, request.user).as_dict())
    messages.success(request, done)
    return redirect("game_detail", game_id=game_id)


@login_required
@require_POST
def game_start(request: HttpRequest, game_id: int) -> HttpResponse:
    try:
        services.start_game(game_id=game_id, by_user=request.user)
    except GameError as error:
        return error_response(request, error, game_id)
    messages.success(request, "The game has started.")
    return redirect("game_detail", game_id=game_id)


@login_required
def game_join(request: HttpRequest, token: str) -> HttpResponse:
    """The invitation link: shows the game and a button to take a seat."""
    game = Game.objects.filter(invite_token=token).first()
    if game is None:
        return error_response(request, GameNotFound("This invitation link is not valid."))
    if request.method == "POST":
        try:
            services.join_game(game_id=game.pk, user=request.user)
        except GameError as error:
            return error_response(request, error, game.pk)
        messages.success(request, "You have joined the game.")
        return redirect("game_detail", game_id=game.pk)
    return render(request, "games/join.html", {"game": game})


@login_required
@require_GET
def game_hint(request: HttpRequest, game_id: int) -> HttpResponse:
    """A suggestion for the player's move, in games whose site gives hints."""
    try:
        game = selectors.game_for_viewer(game_id, request.user)
        site = get_site(game.kind)
        if site.hint is None:
            raise BadMove("This game gives no hints.")
        seat = selectors.seat_of(game, request.user)
        if seat is None:
            raise NotYourSeat("You are not playing in this game.")
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
    return game_board_response(request, game_id, "Your last move was taken back.")


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
        return error_response(request, BadMove("Give the step as a whole number."), game_id)
    except GameError as error:
        return error_response(request, error, game_id)
    return render(request, "games/replay.html", {**step.board.as_dict(), "step": step, "replaying": True})
