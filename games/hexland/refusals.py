"""Every sentence Hexland's engine refuses a move with (``raise IllegalMove`` in
``games/hexland/engine/rules.py``), in the site's words and the player's language.

The engine writes English; each sentence is matched here as a whole (its values as named
groups) and written again with a translatable message. The English messages are the engine's
sentences as a player reads them (a capital, a full stop), so an English page reads as before.
Resource names inside a sentence are translated through ``words.RESOURCE_NAMES``.

Also listed: the engine's sentences for a move chosen on an older page (``stale_message``) and
its move schema's (``engine/schema.py``, ``errorMessage``), should the platform pass them here.
tests/web/test_hexland_refusals.py checks that every sentence in the engine's source is known.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games.hexland import words
from games.refusals import Refusal, RefusalWords

_RES = r"(?:wood|brick|sheep|wheat|ore)"


@dataclass(frozen=True)
class Worded(Refusal):
    """A refusal whose message may be a plural (``ngettext_lazy`` keyed by ``count``): the
    values are put into the lazy message itself, so it chooses its form by the number."""

    def match(self, text: str) -> str | None:
        found = re.fullmatch(self.pattern, text.strip().rstrip("."), flags=re.IGNORECASE)
        if found is None:
            return None
        values = {name: (self.values or {}).get(name, str)(value) for name, value in found.groupdict().items()}
        return str(self.message % values) if values else str(self.message)


_RESOURCE = {"resource": words.resource}


def _resources(text: str) -> str:
    return words.resource_list(part.strip() for part in text.split(","))


def _count(text: str) -> int:
    return int(text)


REFUSALS = RefusalWords(
    # -- the move's fields (rules._index, _resource, _bundle) --
    Refusal(r"node must be a number from 0 to (?P<last>\d+)", _("Node must be a number from 0 to %(last)s.")),
    Refusal(r"edge must be a number from 0 to (?P<last>\d+)", _("Edge must be a number from 0 to %(last)s.")),
    Refusal(r"hex must be a number from 0 to (?P<last>\d+)", _("Hex must be a number from 0 to %(last)s.")),
    # Translators: key: a move's field (resource, give, get); resources: the resources' names.
    Refusal(rf"'(?P<key>\w+)' must be one of (?P<resources>{_RES}(?:, {_RES})*)",
            _("'%(key)s' must be one of %(resources)s."), values={"resources": _resources}),
    # Translators: key: a move's field (cards, give, get); {"wood": 1} is an example written in
    # the site's move format: leave it as it is.
    Refusal(r"'(?P<key>\w+)' must name the cards, e\.g\. \{\"wood\": 1\}",
            _("'%(key)s' must name the cards, e.g. {\"wood\": 1}.")),
    # Translators: name: what was sent in place of a resource's name, in quotes.
    Refusal(r"(?P<name>.+) is not a resource", _("%(name)s is not a resource.")),
    Refusal(r"card counts must be whole numbers", _("Card counts must be whole numbers.")),
    Refusal(r"'(?P<key>\w+)' names no cards", _("'%(key)s' names no cards.")),
    # -- whose turn, which phase (rules._turn, _PHASE_REFUSAL) --
    Refusal(r"the game is over", _("The game is over.")),
    Refusal(r"it is not your turn", _("It is not your turn.")),
    Refusal(r"you cannot do that now", _("You cannot do that now.")),
    Refusal(r"place your starting settlement first", _("Place your starting settlement first.")),
    Refusal(r"place the road next to your new settlement first", _("Place the road next to your new settlement first.")),
    Refusal(r"roll the dice first", _("Roll the dice first.")),
    Refusal(r"wait until everyone has discarded", _("Wait until everyone has discarded.")),
    Refusal(r"move the robber first", _("Move the robber first.")),
    Refusal(r"answer or cancel the open trade offer first", _("Answer or cancel the open trade offer first.")),
    Refusal(r"place your free roads first", _("Place your free roads first.")),
    # -- setup --
    Refusal(r"that corner is already taken", _("That corner is already taken.")),
    Refusal(r"that corner is too close to a settlement", _("That corner is too close to a settlement.")),
    Refusal(r"there is already a road there", _("There is already a road there.")),
    Refusal(r"the road must touch the settlement you just placed", _("The road must touch the settlement you just placed.")),
    Refusal(r"you have no auto-placed settlement and road to move",
            _("You have no auto-placed settlement and road to move.")),
    Refusal(r"the road must touch the settlement", _("The road must touch the settlement.")),
    # -- dice, discards, robber --
    Refusal(r"you have already rolled this turn", _("You have already rolled this turn.")),
    Refusal(r"nobody has to discard now", _("Nobody has to discard now.")),
    Refusal(r"you have nothing to discard", _("You have nothing to discard.")),
    Worded(r"you only have to discard (?P<count>\d+) card\(s\)",
           ngettext_lazy("You only have to discard %(count)s card.", "You only have to discard %(count)s cards.",
                         "count"), values={"count": _count}),
    # Translators: count: a number of cards; resource: a resource's name ("You do not hold 2 wood.").
    Refusal(rf"you do not hold (?P<count>\d+) (?P<resource>{_RES})", _("You do not hold %(count)s %(resource)s."),
            values=_RESOURCE),
    Refusal(r"the robber must move to another hex", _("The robber must move to another hex.")),
    # Translators: names: the players' names ("ana, bo").
    Refusal(r"choose whom to steal from: (?P<names>.+)", _("Choose whom to steal from: %(names)s.")),
    Refusal(r"nobody there can be stolen from", _("Nobody there can be stolen from.")),
    # -- building --
    Refusal(r"you have no roads left", _("You have no roads left.")),
    Refusal(r"a road must connect to your own road, settlement or city",
            _("A road must connect to your own road, settlement or city.")),
    Refusal(r"you cannot afford a road \(1 wood, 1 brick\)", _("You cannot afford a road (1 wood, 1 brick).")),
    Refusal(r"a settlement needs a road of yours leading to it", _("A settlement needs a road of yours leading to it.")),
    Refusal(r"you have no settlements left", _("You have no settlements left.")),
    Refusal(r"you cannot afford a settlement \(wood, brick, sheep, wheat\)",
            _("You cannot afford a settlement (wood, brick, sheep, wheat).")),
    Refusal(r"a city must replace one of your settlements", _("A city must replace one of your settlements.")),
    Refusal(r"you have no cities left", _("You have no cities left.")),
    Refusal(r"you cannot afford a city \(2 wheat, 3 ore\)", _("You cannot afford a city (2 wheat, 3 ore).")),
    # -- development cards --
    Refusal(r"the development deck is empty", _("The development deck is empty.")),
    Refusal(r"you cannot afford a development card \(sheep, wheat, ore\)",
            _("You cannot afford a development card (sheep, wheat, ore).")),
    # Translators: the words in the quotes are the move format's names of the cards: leave them as they are.
    Refusal(r"'card' must be knight, road_building, year_of_plenty or monopoly",
            _("'card' must be knight, road_building, year_of_plenty or monopoly.")),
    Refusal(r"you have already played a development card this turn",
            _("You have already played a development card this turn.")),
    Refusal(r"you hold no knight card", _("You hold no knight card.")),
    Refusal(r"you hold no road building card", _("You hold no road building card.")),
    Refusal(r"you hold no year of plenty card", _("You hold no year of plenty card.")),
    Refusal(r"you hold no monopoly card", _("You hold no monopoly card.")),
    Refusal(r"a development card cannot be played the turn it was bought",
            _("A development card cannot be played the turn it was bought.")),
    Refusal(r"you have no road you could place", _("You have no road you could place.")),
    # Translators: "resources": ["wood", "ore"] is an example in the site's move format: leave it as it is.
    Refusal(r"name two resources, e\.g\. \"resources\": \[\"wood\", \"ore\"\]",
            _("Name two resources, e.g. \"resources\": [\"wood\", \"ore\"].")),
    Refusal(r"the bank has none of those", _("The bank has none of those.")),
    # -- trading --
    Refusal(r"'count' must be a positive whole number", _("'count' must be a positive whole number.")),
    Refusal(r"a trade cannot swap a resource for itself", _("A trade cannot swap a resource for itself.")),
    # Translators: count: a number of cards; resource: a resource's name; rate: how many of it
    # buy one card ("You need 8 wood for that (your rate is 4:1).").
    Refusal(rf"you need (?P<count>\d+) (?P<resource>{_RES}) for that \(your rate is (?P<rate>\d+):1\)",
            _("You need %(count)s %(resource)s for that (your rate is %(rate)s:1)."), values=_RESOURCE),
    Refusal(rf"the bank has only (?P<count>\d+) (?P<resource>{_RES})", _("The bank has only %(count)s %(resource)s."),
            values=_RESOURCE),
    Refusal(r"there is no trade offer to answer", _("There is no trade offer to answer.")),
    Refusal(r"you cannot answer your own offer", _("You cannot answer your own offer.")),
    Refusal(r"you have already answered this offer", _("You have already answered this offer.")),
    Refusal(r"you do not hold the cards asked for", _("You do not hold the cards asked for.")),
    Refusal(r"confirm with a player who accepted the offer", _("Confirm with a player who accepted the offer.")),
    # -- the move itself (rules.apply), and timeouts --
    Refusal(r"a move is an object with a 'type'", _("A move is an object with a 'type'.")),
    # Translators: kind: what was sent as a move's type, in quotes.
    Refusal(r"unknown move type (?P<kind>.+)", _("Unknown move type %(kind)s.")),
    # Translators: kind: a move's type (e.g. build_road); fields: the fields it does not take.
    Refusal(r"a (?P<kind>\w+) move has no field (?P<fields>.+)", _("A %(kind)s move has no field %(fields)s.")),
    Refusal(r"that seat has nothing pending", _("That seat has nothing pending.")),
    # -- a move chosen on an older page (engine.stale_message) --
    Refusal(r"that offer is no longer open", _("That offer is no longer open.")),
    Refusal(r"that offer has changed: look at the new one before you answer",
            _("That offer has changed: look at the new one before you answer.")),
    Refusal(r"that offer has changed: look at it again before you choose",
            _("That offer has changed: look at it again before you choose.")),
    # -- the move schema's sentences (engine/schema.py) --
    Refusal(r"card counts must be whole numbers from 0 to (?P<most>\d+)",
            _("Card counts must be whole numbers from 0 to %(most)s.")),
    Refusal(r"choose the cards to discard", _("Choose the cards to discard.")),
    Refusal(r"choose a development card to play", _("Choose a development card to play.")),
    Refusal(r"choose two resources to take from the bank", _("Choose two resources to take from the bank.")),
    Refusal(r"choose the resource to take from the other players", _("Choose the resource to take from the other players.")),
    Refusal(r"choose the resource to give the bank", _("Choose the resource to give the bank.")),
    Refusal(r"choose the resource to take from the bank", _("Choose the resource to take from the bank.")),
    Refusal(r"trade from 1 to (?P<most>\d+) cards with the bank at a time",
            _("Trade from 1 to %(most)s cards with the bank at a time.")),
    Refusal(r"choose at least one card to give", _("Choose at least one card to give.")),
    Refusal(r"choose at least one card to ask for", _("Choose at least one card to ask for.")),
)

__all__ = ["REFUSALS", "Worded"]
