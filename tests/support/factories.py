"""Building games for tests through the services, as the site does."""
from games import services
from games.models import Game


def toy_game(*users, ai_seats=None, target: int = 15, turn_seconds=None, visibility=Game.Visibility.PUBLIC, start=True) -> Game:
    ai_seats = ai_seats or {}
    players = len(users) + len(ai_seats)
    game = services.create_game(
        kind="toy",
        config={"players": players, "target": target},
        created_by=users[0] if users else None,
        ai_seats=ai_seats,
        turn_seconds=turn_seconds,
        visibility=visibility,
    )
    for user in users[1:]:
        services.join_game(game_id=game.pk, user=user)
    game.refresh_from_db()
    if start and game.status == Game.Status.OPEN:
        services.start_game(game_id=game.pk)
        game.refresh_from_db()
    return game


def awaited_view(game: Game) -> tuple[int, dict] | None:
    """``game`` read again and, while it is active, its first awaited seat with that seat's view
    (what a playout needs before each move); None once it is over."""
    from games import state_store
    from games.sites import get_engine

    game.refresh_from_db()
    if game.status != Game.Status.ACTIVE:
        return None
    seat = game.awaiting[0]
    return seat, get_engine(game.kind).view(state_store.load(game), seat)


def hexland_room(*users, **config) -> Game:
    """A started Hexland room of ``users`` on the fixed map (``config`` adds to its settings)."""
    game = services.create_game(kind="hexland", config={"players": len(users), "layout": "fixed", **config},
                                created_by=users[0], players=list(users), join=False, turn_seconds=120)
    services.start_game(game_id=game.pk)
    game.refresh_from_db()
    return game


def hextension_place(game: Game, user, seat: int, cells: list[str] | None = None) -> dict:
    """``seat`` places this round's tiles on ``cells`` (default: its first empty cells)."""
    from games import state_store
    from games.hextension import engine as hextension

    current = Game.objects.get(pk=game.pk)
    view = hextension.view(state_store.load(current), seat)
    free = [cell for cell in hextension.CELLS if cell not in view["seats"][seat]["board"]]
    placements = dict(zip(view["drawn"], cells or free))
    services.submit_move(game_id=game.pk, user=user, move={"type": "place", "placements": placements},
                         expected_version=current.version)
    return placements
