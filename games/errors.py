"""What a service can refuse, each with the HTTP status the edges answer with."""
from django.utils.translation import gettext, gettext_lazy as _

from games.protocol import IllegalMove


def as_sentence(text: str) -> str:
    """An engine's refusal as a sentence a player reads: a capital first, a full stop last
    ("you do not hold 2 wood" -> "You do not hold 2 wood."). Sentences stay as they are."""
    text = text.strip()
    if not text:
        return gettext("That move is not allowed now.")
    text = text[:1].upper() + text[1:]
    return text if text[-1] in ".!?…" else text + "."


class GameError(Exception):
    status = 400

    def __init__(self, message: str):
        message = str(message)  # a lazy translation, in the language of the request that raised it
        super().__init__(message)
        self.message = message


class GameNotFound(GameError):
    status = 404


class NotYourSeat(GameError):
    status = 403


class StaleVersion(GameError):
    """A move chosen at an older version whose meaning has changed since (or of a game whose
    engine cannot tell). Pages are live: the player looks again, nothing to reload."""

    status = 409
    default_message = _("The game has moved on since you chose that move: look at the board and choose again.")

    def __init__(self, message: str | None = None):
        super().__init__(message or self.default_message)


class GameNotActive(GameError):
    status = 409


class BadMove(GameError):
    """An illegal or malformed move, carrying the engine's readable message."""

    status = 400


class RateLimited(GameError):
    """Too many requests of one kind in a short time (``games.ratelimit``); try again shortly."""

    status = 429

    default_message = _("You are sending moves too fast; wait a few seconds.")

    def __init__(self, message: str | None = None, retry_after: int = 10):
        super().__init__(message or self.default_message)
        self.retry_after = retry_after


__all__ = ["GameError", "GameNotFound", "NotYourSeat", "StaleVersion", "GameNotActive", "BadMove", "RateLimited",
           "IllegalMove", "as_sentence"]
