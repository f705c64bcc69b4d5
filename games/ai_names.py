"""The AI levels as a player reads them. Engines name their levels with codes (``AI_LEVELS``:
"easy", "strong" …), which forms post and seats store; pages and messages show the level's
name in the active language. A code not listed here is shown as it is."""
from __future__ import annotations

from django.utils.translation import gettext, pgettext_lazy

LEVEL_NAMES = {
    # Translators: the levels of the computer players (AI), shown as "AI (easy)".
    "easy": pgettext_lazy("AI level", "easy"),
    "medium": pgettext_lazy("AI level", "medium"),
    "hard": pgettext_lazy("AI level", "hard"),
    "random": pgettext_lazy("AI level", "random"),
    "greedy": pgettext_lazy("AI level", "greedy"),
    "strong": pgettext_lazy("AI level", "strong"),
    "hint": pgettext_lazy("AI level", "hint"),
}


def level_name(code: str) -> str:
    """The name of an AI level in the active language ("easy" -> "leicht")."""
    return str(LEVEL_NAMES.get(code, code))


def ai_player(code: str) -> str:
    """A seat played by the AI of level ``code``, in the active language: "AI (easy)". Every
    page, panel, log and e-mail names an AI seat with this (an engine that keeps a name from
    the start shows this one instead through its site's ``shown_view``)."""
    # Translators: a seat given to an AI player of this level, e.g. "AI (medium)".
    return gettext("AI (%(level)s)") % {"level": level_name(code)}


def level_list(codes) -> str:
    """Levels named one after the other: "easy, medium, hard"."""
    return gettext(", ").join(level_name(code) for code in codes)
