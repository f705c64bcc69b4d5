"""The one exception type every engine raises for a refused move."""


class IllegalMove(ValueError):
    """A move the rules refuse. ``str(exc)`` is a sentence a player can read."""
