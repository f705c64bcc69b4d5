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
