"""Hextension's writes: after a game, what the strong AI would have scored with the same draw,
and the best score any placement of those tiles could reach (shown beside each player's score)."""
from __future__ import annotations

from games import services, state_store
from games.hextension import engine
from games.hextension.engine import CELLS, ai, score_board
from games.hextension.engine.optimum import best_possible
from games.models import Game


def open_game(user, data: dict) -> Game:
    """A game from the new-game form's cleaned data (the page's and the API's): the creator in
    the first seat, the AI in the last ``ai_seats``; started at once when only AI seats remain.
    The caller holds the transaction, so the game is opened and started together or not at all."""
    players, ai_seats = data["players"], data["ai_seats"]
    game = services.create_game(
        kind=engine.KIND,
        config={"players": players, "tiles_per_round": data["tiles_per_round"]},
        created_by=user,
        title=data["title"],
        visibility=data["visibility"],
        turn_seconds=data["round_deadline"],
        ai_seats={index: data["ai_level"] for index in range(players - ai_seats, players)},
    )
    if players - ai_seats == 1:
        services.start_game(game_id=game.pk)  # only AI opponents: full already
    return game


def hindsight(draw: list[str], tiles_per_round: int) -> dict:
    """The strong AI's score on ``draw`` (round by round, as players saw it) and the optimum."""
    board: dict[str, str] = {}
    for start in range(0, len(draw), tiles_per_round):
        tiles = draw[start:start + tiles_per_round]
        for tile, cell in ai.place(board, tiles, "strong", seen=draw[:start]).items():
            board[cell] = tile
    best, _ = best_possible(draw)
    return {"ai_score": score_board(board), "best_score": best}


def analyse_game(game: Game) -> dict | None:
    """Store the hindsight figures of a finished Hextension game once; return them."""
    if game.status != Game.Status.FINISHED:
        return None
    if game.analysis:
        return game.analysis
    view = engine.view(state_store.load(game), None)  # at the end every tile is public
    if len(view["earlier"]) < len(CELLS):  # the game ended early: every player was out
        return None
    game.analysis = hindsight(view["earlier"], view["tiles_per_round"])
    Game.objects.filter(pk=game.pk).update(analysis=game.analysis)
    return game.analysis
