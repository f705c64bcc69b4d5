"""A move sent by a live page: its form's fields, over HTTP (``views.game_move``) or over the
page's own socket (``consumers.GameConsumer``, a ``move`` frame). Both edges check the same
things in the same order and call the same service, so a move is accepted or refused with the
same sentence whichever way it came."""
from __future__ import annotations

from collections.abc import Mapping

from django.http import QueryDict
from django.utils.translation import gettext as _

from games import move_input, ratelimit, selectors, services
from games.models import Game
from games.services import Applied
from games.sites import get_site


def play(game_id: int, user, fields: QueryDict) -> tuple[Game, Applied]:
    """Play the move of a page's form for ``user``: the game as the viewer may read it (with its
    seats), and what the service applied. Refusals raise a GameError and write nothing."""
    game = selectors.game_for_viewer(game_id, user)
    ratelimit.check_move(user, game.pk)  # every attempt counts, refused ones too
    applied = services.submit_move(
        game_id=game.pk,
        user=user,
        move=move_input.read_move(get_site(game.kind), fields),  # checked by schema
        expected_version=move_input.parse_version(fields),
    )
    return game, applied


def form_fields(fields: Mapping[str, str]) -> QueryDict:
    """A socket frame's fields as the form data an HTTP post of the same form would give."""
    data = QueryDict(mutable=True)
    for name, value in fields.items():
        data[name] = value
    return data


def repeated_notice() -> str:
    # Not refused (the player's move is in), but not played now either: say why nothing moved.
    return _("That move had already been played, from another tab or window or by a second click: the board "
             "shows it now.")
