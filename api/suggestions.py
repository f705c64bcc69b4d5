"""The site's AI as a bot account's adviser: the move the AI of a level would play for the bot's
seat now (GET /api/v1/games/{id}/suggestion).

The AI is given exactly what an AI seat is given (``games.services.moves.play_ai_move``): the
seat's own view, ``engine.view(state, seat)``, never the state. Both engines' AIs decide from that
view alone (Hextension's placement from the seat's board, this round's tiles and the tiles seen;
Hexland's from a state rebuilt from the view with the hidden cards sampled), so a suggestion
tells nothing the seat may not see: tests/api/test_suggestions.py checks that two states that
differ only in what the seat may not see give the same suggestion.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from games import selectors, state_store
from games.errors import BadMove, NotYourSeat, StaleVersion
from games.models import Game
from games.sites import get_site

# The levels offered, by game: each one's suggestion costs the server at most about a second of
# CPU (measured in docs/api.md, "Suggestions"). Hextremadura's AI is not offered.
LEVELS = {"hextension": ("random", "greedy", "strong"), "hexland": ("easy", "medium", "hard")}


def levels_of(kind: str) -> tuple[str, ...]:
    return LEVELS.get(kind, ())


def suggest(engine, state, seat: int, level: str) -> dict:
    """The AI's move for ``seat``, from the seat's view alone (as an AI seat plays)."""
    return engine.choose_move(engine.view(state, seat), level)


def suggestion(game: Game, user, level: str) -> dict:
    """``{"version", "move"}``: the move the AI of ``level`` would play for ``user``'s seat now.
    Refused (GameError) for a person, a user without a seat, a level not offered, or when it is
    not the seat's move."""
    if not user.is_bot:
        raise NotYourSeat(_("Only a bot account may ask the site's AI for a move: a person plays their own moves."))
    seat = selectors.seat_of(game, user)
    if seat is None:
        raise NotYourSeat(_("You are not playing in this game."))
    offered = levels_of(game.kind)
    if level not in offered:
        if not offered:
            raise BadMove(_("The site's AI gives no suggestions in this game."))
        raise BadMove(_("There is no AI level %(level)s here; the levels are: %(levels)s.")
                      % {"level": level, "levels": ", ".join(offered)})
    if not selectors.is_to_move(game, seat):
        raise StaleVersion(_("It is not your move."))
    engine = get_site(game.kind).engine
    return {"version": game.version, "move": suggest(engine, state_store.load(game), seat, level)}
