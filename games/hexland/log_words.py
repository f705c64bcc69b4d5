"""The game log in the player's language.

The engine's view carries its log as English sentences only (``engine/view.py``, ``describe``),
not as the events they were written from; the engine is pure Python and stays English. The
site reads each sentence back here (the players' names are known from the view, the rest are
the engine's fixed words and numbers) and writes it again with translatable wording. An English
page shows the engine's sentence as it is; a sentence this list does not know (none, while it
follows ``describe``: tests/web/test_hexland_log_words.py reads whole games back) stays as the
engine wrote it.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Iterable, Mapping

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.hexland import words

_RES = "(?:wood|brick|sheep|wheat|ore)"
_AMOUNTS = rf"(?:nothing|\d+ {_RES}(?:, \d+ {_RES})*)"
_SPOT = rf"(?:desert|\d+ {_RES})"
_NODE = rf"{_SPOT}(?: / {_SPOT})*"
_DEV = "(?:Knight|Road Building|Year of Plenty|Monopoly|Victory Point)"
_DEV_CODES = {"Knight": "knight", "Road Building": "road_building", "Year of Plenty": "year_of_plenty",
              "Monopoly": "monopoly", "Victory Point": "victory_point"}


# --- the engine's pieces of sentences, read back -------------------------------------------------

def _amounts(text: str) -> str:
    """"1 wood, 2 ore" (cards) or "nothing"."""
    if text == "nothing":
        return str(words.NOTHING)
    pairs = [part.split(" ", 1) for part in text.split(", ")]
    return words.amounts((code, int(count)) for count, code in pairs)


def _node(text: str) -> str:
    """A corner by its hexes: "6 wheat / 8 ore / desert"."""
    parts = []
    for part in text.split(" / "):
        if part == "desert":
            parts.append(words.terrain("desert"))
        else:
            number, code = part.split(" ", 1)
            parts.append(words.spot(number, code))
    return " / ".join(parts)


def _resources(text: str) -> str:
    return words.resource_list(text.split(", "))


def _gains(text: str, names: str, renamed: Mapping[str, str]) -> str:
    """"ana +1 wood, bo +2 ore": what a roll produced, by player."""
    found = re.finditer(rf"(?P<name>{names}) \+(?P<count>\d+) (?P<resource>{_RES})", text)
    # Translators: what a roll gave one player, e.g. "ana +1 wood" (name: the player's name).
    return ", ".join(pgettext("hexland gain", "%(name)s +%(count)s %(resource)s")
                     % {"name": renamed.get(m["name"], m["name"]), "count": m["count"], "resource": words.resource(m["resource"])}
                     for m in found)


# --- the sentences ------------------------------------------------------------------------------

def _roll(g: dict, names: str, renamed: Mapping[str, str]) -> str:
    values = {"who": g["who"], "total": g["total"]}
    if g.get("gains"):
        values["gains"] = _gains(g["gains"], names, renamed)
    if g.get("short"):
        values["short"] = _resources(g["short"])
        if g.get("gains"):
            return _("%(who)s rolled %(total)s — %(gains)s (the bank ran short of %(short)s)") % values
        return _("%(who)s rolled %(total)s — nothing produced (the bank ran short of %(short)s)") % values
    if g.get("gains"):
        return _("%(who)s rolled %(total)s — %(gains)s") % values
    return _("%(who)s rolled %(total)s — nothing produced") % values


def _robber(g: dict) -> str:
    values = {"who": g["who"], "victim": g.get("victim")}
    desert = g.get("number") is None
    if not desert:
        values.update(number=g["number"], resource=words.resource(g["resource"]))
    if g.get("card"):
        values["card"] = words.resource(g["card"])
        if desert:
            return _("%(who)s moved the robber to the desert and stole 1 %(card)s from %(victim)s") % values
        return _("%(who)s moved the robber to the %(number)s %(resource)s and stole 1 %(card)s "
                 "from %(victim)s") % values
    if g.get("victim"):
        if desert:
            return _("%(who)s moved the robber to the desert and stole a card from %(victim)s") % values
        return _("%(who)s moved the robber to the %(number)s %(resource)s and stole a card from %(victim)s") % values
    if desert:
        return _("%(who)s moved the robber to the desert") % values
    return _("%(who)s moved the robber to the %(number)s %(resource)s") % values


def _played(g: dict) -> str:
    card = _DEV_CODES[g["card"]]
    if card == "year_of_plenty" and g.get("took") is not None:
        return _("%(who)s played Year of Plenty and took %(took)s") % {"who": g["who"], "took": _amounts(g["took"])}
    if card == "monopoly" and g.get("resource"):
        count = int(g["count"])
        return ngettext("%(who)s played Monopoly on %(resource)s and took %(count)s",
                        "%(who)s played Monopoly on %(resource)s and took %(count)s", count) % {
            "who": g["who"], "resource": words.resource(g["resource"]), "count": count}
    return _("%(who)s played %(card)s") % {"who": g["who"], "card": words.dev_title(card)}


def _turn_limit(g: dict) -> str:
    points = int(g["points"])
    if g.get("who"):
        return _("The turn limit is reached: %(who)s wins with the most points (%(points)s)") % {
            "who": g["who"], "points": points}
    return ngettext("The turn limit is reached: the game ends in a tie at %(points)s point",
                    "The turn limit is reached: the game ends in a tie at %(points)s points", points) % {"points": points}


# (pattern, writer): {who} and {names} stand for any player's name. The order is describe()'s.
_SENTENCES: tuple[tuple[str, Callable[[dict], str]], ...] = (
    (rf"{{who}} placed a settlement at (?P<node>{_NODE})",
     lambda g: _("%(who)s placed a settlement at %(corner)s") % {"who": g["who"], "corner": _node(g["node"])}),
    (r"{who} placed a road", lambda g: _("%(who)s placed a road") % g),
    (rf"{{who}} received (?P<cards>{_AMOUNTS}) as a starting hand",
     lambda g: _("%(who)s received %(cards)s as a starting hand") % {"who": g["who"], "cards": _amounts(g["cards"])}),
    (r"{who}'s time ran out: a settlement and road were placed for them",
     lambda g: _("%(who)s's time ran out: a settlement and road were placed for them") % g),
    (rf"{{who}} moved their auto-placed settlement to (?P<node>{_NODE})",
     lambda g: _("%(who)s moved their auto-placed settlement to %(corner)s") % {"who": g["who"],
                                                                               "corner": _node(g["node"])}),
    (r"Setup is over; {who} takes the first turn", lambda g: _("Setup is over; %(who)s takes the first turn") % g),
    (r"{who} rolled (?P<total>\d+) — the robber!", lambda g: _("%(who)s rolled %(total)s — the robber!") % g),
    (rf"{{who}} rolled (?P<total>\d+) — (?:nothing produced|(?P<gains>(?:{{names}}) \+\d+ {_RES}"
     rf"(?:, (?:{{names}}) \+\d+ {_RES})*))(?: \(the bank ran short of (?P<short>{_RES}(?:, {_RES})*)\))?",
     None),  # _roll, which needs the names
    (r"{who} discarded (?P<cards>" + _AMOUNTS + ")",
     lambda g: _("%(who)s discarded %(cards)s") % {"who": g["who"], "cards": _amounts(g["cards"])}),
    (rf"{{who}} moved the robber to the (?:desert|(?P<number>\d+) (?P<resource>{_RES}))"
     rf"(?: and stole (?:1 (?P<card>{_RES})|a card) from (?P<victim>{{names}}))?", _robber),
    (r"{who} placed a free road", lambda g: _("%(who)s placed a free road") % g),
    (r"{who} built a road", lambda g: _("%(who)s built a road") % g),
    (rf"{{who}} built a settlement at (?P<node>{_NODE})",
     lambda g: _("%(who)s built a settlement at %(corner)s") % {"who": g["who"], "corner": _node(g["node"])}),
    (rf"{{who}} built a city at (?P<node>{_NODE})",
     lambda g: _("%(who)s built a city at %(corner)s") % {"who": g["who"], "corner": _node(g["node"])}),
    (rf"{{who}} bought a development card \((?P<card>{_DEV})\)",
     lambda g: _("%(who)s bought a development card (%(card)s)") % {"who": g["who"],
                                                                    "card": words.dev_title(_DEV_CODES[g["card"]])}),
    (r"{who} bought a development card", lambda g: _("%(who)s bought a development card") % g),
    (rf"{{who}} played (?P<card>{_DEV})(?: and took (?P<took>{_AMOUNTS})"
     rf"| on (?P<resource>{_RES}) and took (?P<count>\d+))?", _played),
    (rf"{{who}} traded (?P<give_count>\d+) (?P<give>{_RES}) for (?P<get_count>\d+) (?P<get>{_RES}) with the bank",
     lambda g: _("%(who)s traded %(give)s for %(get)s with the bank") % {
         "who": g["who"], "give": words.amount(g["give_count"], g["give"]),
         "get": words.amount(g["get_count"], g["get"])}),
    (rf"{{who}} offers (?P<give>{_AMOUNTS}) for (?P<get>{_AMOUNTS})",
     lambda g: _("%(who)s offers %(give)s for %(get)s") % {"who": g["who"], "give": _amounts(g["give"]),
                                                           "get": _amounts(g["get"])}),
    (r"{who} accepts", lambda g: _("%(who)s accepts") % g),
    (r"{who} declines", lambda g: _("%(who)s declines") % g),
    (r"Everyone declined the offer", lambda g: _("Everyone declined the offer")),
    (r"{who} withdrew the offer", lambda g: _("%(who)s withdrew the offer") % g),
    (r"The offer lapsed", lambda g: _("The offer lapsed")),
    (rf"{{who}} traded (?P<give>{_AMOUNTS}) to (?P<other>{{names}}) for (?P<get>{_AMOUNTS})",
     lambda g: _("%(who)s traded %(give)s to %(other)s for %(get)s") % {
         "who": g["who"], "give": _amounts(g["give"]), "other": g["other"], "get": _amounts(g["get"])}),
    (r"Longest Road is set aside: nobody alone has the longest road of 5\+",
     lambda g: _("Longest Road is set aside: nobody alone has the longest road of 5+")),
    (r"{who} takes Longest Road \((?P<count>\d+) roads\)",
     lambda g: ngettext("%(who)s takes Longest Road (%(count)s road)", "%(who)s takes Longest Road (%(count)s roads)",
                        int(g["count"])) % {"who": g["who"], "count": int(g["count"])}),
    (r"{who} takes Longest Road from (?P<other>{names}) \((?P<count>\d+) roads\)",
     lambda g: ngettext("%(who)s takes Longest Road from %(other)s (%(count)s road)",
                        "%(who)s takes Longest Road from %(other)s (%(count)s roads)",
                        int(g["count"])) % {"who": g["who"], "other": g["other"], "count": int(g["count"])}),
    (r"{who} takes Largest Army \((?P<count>\d+) knights\)",
     lambda g: ngettext("%(who)s takes Largest Army (%(count)s knight)", "%(who)s takes Largest Army (%(count)s knights)",
                        int(g["count"])) % {"who": g["who"], "count": int(g["count"])}),
    (r"{who} takes Largest Army from (?P<other>{names}) \((?P<count>\d+) knights\)",
     lambda g: ngettext("%(who)s takes Largest Army from %(other)s (%(count)s knight)",
                        "%(who)s takes Largest Army from %(other)s (%(count)s knights)",
                        int(g["count"])) % {"who": g["who"], "other": g["other"], "count": int(g["count"])}),
    (r"{who} ended their turn", lambda g: _("%(who)s ended their turn") % g),
    (r"{who}'s setup time ran out", lambda g: _("%(who)s's setup time ran out") % g),
    (r"{who}'s turn time ran out", lambda g: _("%(who)s's turn time ran out") % g),
    (r"{who}'s discard time ran out", lambda g: _("%(who)s's discard time ran out") % g),
    (r"{who} wins with (?P<points>\d+) victory points!",
     lambda g: ngettext("%(who)s wins with %(points)s victory point!", "%(who)s wins with %(points)s victory points!",
                        int(g["points"])) % {"who": g["who"], "points": int(g["points"])}),
    (r"The turn limit is reached: {who} wins with the most points \((?P<points>\d+)\)", _turn_limit),
    (r"The turn limit is reached: the game ends in a tie at (?P<points>\d+) points", _turn_limit),
)


@lru_cache(maxsize=256)
def _compiled(names: tuple[str, ...]) -> tuple[str, tuple[tuple[re.Pattern, Callable[[dict], str] | None], ...]]:
    """The sentences' patterns for these players' names (longest first: a name may begin
    another), and the names as one alternative."""
    alternatives = "|".join(re.escape(name) for name in sorted(set(names), key=len, reverse=True)) or "(?!)"
    out = []
    for pattern, write in _SENTENCES:
        text = pattern.replace("{who}", f"(?P<who>{alternatives})").replace("{names}", alternatives)
        out.append((re.compile(text), write))
    return alternatives, tuple(out)


# The groups of a sentence that hold a player's name (and _gains' "name").
_NAME_GROUPS = ("who", "victim", "other")


def read(line: str, names: Iterable[str], renamed: Mapping[str, str] | None = None) -> str | None:
    """One engine log sentence written again in the active language (names: the players', as
    the engine wrote them; ``renamed``: the name to write for some of them), or None for a
    sentence this list does not know."""
    alternatives, sentences = _compiled(tuple(str(name) for name in names))
    renamed = renamed or {}
    for pattern, write in sentences:
        found = pattern.fullmatch(line)
        if found is None:
            continue
        groups = found.groupdict()
        if renamed:
            groups.update({key: renamed.get(groups[key], groups[key]) for key in _NAME_GROUPS if groups.get(key)})
        return _roll(groups, alternatives, renamed) if write is None else write(groups)
    return None


def render(line: str, names: Iterable[str], renamed: Mapping[str, str] | None = None) -> str:
    """``read``, or the engine's sentence as it is."""
    written = read(line, names, renamed)
    return line if written is None else written


def log_lines(lines: Iterable[str], names: Iterable[str], resigned: Iterable[str] = (),
              renamed: Mapping[str, str] | None = None) -> list[str]:
    """The log's sentences as a player of the active language reads them: the engine's own on
    an English page, written again from the words of each sentence on any other. ``resigned``:
    the names of players who resigned from a finished game, whose seat's win (the AI's, after
    they left) is told as points reached, not as a win (docs/hexland.md, "Resigning").
    ``renamed``: the name shown for a player the engine names otherwise (an AI seat in the
    reader's language, games/hexland/names.py); such lines are written again on every page."""
    lines = [str(line) for line in lines]
    resigned = tuple(str(name) for name in resigned)
    english = (translation.get_language() or "en").startswith("en")
    if english and not resigned and not renamed:
        return lines
    names = tuple(names)
    as_is = english and not renamed
    return [_resigned_win(line, resigned) or (line if as_is else render(line, names, renamed)) for line in lines]


def _resigned_win(line: str, resigned: tuple[str, ...]) -> str | None:
    """The engine's sentence of a win by the seat of a player who resigned, told as what the AI
    reached for it; None for any other sentence."""
    if not resigned:
        return None
    who = "|".join(re.escape(name) for name in sorted(set(resigned), key=len, reverse=True))
    found = re.fullmatch(rf"(?P<who>{who}) wins with (?P<points>\d+) victory points!", line)
    if found:
        points = int(found["points"])
        return ngettext("%(who)s's seat, played by the AI after they resigned, reaches %(points)s victory point",
                        "%(who)s's seat, played by the AI after they resigned, reaches %(points)s victory points",
                        points) % {"who": found["who"], "points": points}
    found = re.fullmatch(rf"The turn limit is reached: (?P<who>{who}) wins with the most points \((?P<points>\d+)\)", line)
    if found:
        return _("The turn limit is reached: %(who)s's seat, played by the AI after they resigned, has the most "
                 "points (%(points)s)") % {"who": found["who"], "points": int(found["points"])}
    return None
