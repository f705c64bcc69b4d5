"""An engine's refusal in the site's own words, in the player's language.

Engines are pure Python and refuse a move with an English sentence (``IllegalMove``). Each game
lists the sentences its engine can say as patterns with a translatable message
(``RefusalWords``, in ``games/<game>/refusals.py``, named by its GameSite); a refusal the list
does not know is shown as the engine wrote it in English, and as a general sentence in any other
language, so an untranslated engine sentence never reaches a German or Spanish page.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from django.utils import translation
from django.utils.translation import gettext as _

from games.errors import as_sentence


@dataclass(frozen=True)
class Refusal:
    """One engine sentence: ``pattern`` matches the whole text (named groups are its values);
    ``message`` is the site's wording (a lazy translation with the same named placeholders)."""

    pattern: str
    message: object  # a gettext_lazy string
    # Each value by its group name -> the text put in the message (e.g. a resource's name).
    values: dict[str, Callable[[str], str]] | None = None

    def match(self, text: str) -> str | None:
        found = re.fullmatch(self.pattern, text.strip().rstrip("."), flags=re.IGNORECASE)
        if found is None:
            return None
        values = {name: (self.values or {}).get(name, str)(value) for name, value in found.groupdict().items()}
        return str(self.message) % values if values else str(self.message)


class RefusalWords:
    """A game's refusals, tried in order; called with the engine's text."""

    def __init__(self, *refusals: Refusal):
        self.refusals = refusals

    def __call__(self, text: str) -> str:
        for refusal in self.refusals:
            message = refusal.match(text)
            if message is not None:
                return message
        return general_refusal(text)


def general_refusal(text: str) -> str:
    """A refusal no list knows: the engine's English sentence for an English page, a general
    sentence in any other language."""
    if (translation.get_language() or "en").startswith("en"):
        return as_sentence(text)
    return _("That move is not allowed now.")
