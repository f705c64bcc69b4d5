"""A move chosen on a page that has not yet shown the latest events: played when it still means
what it meant there (the engine's ``move_context``), refused as stale (409) when its meaning
changed, and always refused in a game whose engine does not say what its moves mean.

Hexland: three players trade while the others answer, each from a page a few events old.
"""
from __future__ import annotations

import pytest

from games import services, state_store
from games.errors import StaleVersion
from games.hexland import engine as hexland
from games.hexland.engine.board import RESOURCES
from games.hexland.engine.state import PHASES
from games.hextremadura import engine as hextremadura
from games.hextremadura import services as solo
from games.models import Game, MoveEvent
from tests.support.concurrency import run_at_once

CONFIG = {"players": 3, "layout": "fixed", "order": [0, 1, 2]}
MOVER, BO, CY = 0, 1, 2


def opening(seed: int):
    """The scripted opening of a seed (first legal placements, then the mover rolls): its
    moves and the position after them."""
    state, script = hexland.new_state(CONFIG, seed), []
    while state.turn == 0 or PHASES[state.phase] == "roll":
        seat = min(hexland.actors(state))
        move = {"type": "roll"} if PHASES[state.phase] == "roll" else hexland.legal_moves(state, seat)[0]
        script.append((seat, move))
        state = hexland.apply(state, seat, move)
    return script, state


def holds(state, seat: int) -> list[str]:
    return [name for r, name in enumerate(RESOURCES) if state.hand[seat * 5 + r]]


def trade_seed() -> tuple[int, list, str, str]:
    """A seed whose opening ends in the mover's main phase, the mover holding a card to give
    and Bo one the mover may ask for."""
    for seed in range(100):
        script, state = opening(seed)
        if PHASES[state.phase] != "main":
            continue
        gives = holds(state, MOVER)
        asks = [name for name in holds(state, BO) if name not in gives[:1]]
        if gives and asks:
            return seed, script, gives[0], asks[0]
    raise AssertionError("no seed gives a trade after the opening; the script needs another look")


class Table:
    """A Hexland game of three players, through the services, after the scripted opening."""

    def __init__(self, make_user):
        self.users = {seat: make_user() for seat in (MOVER, BO, CY)}
        seed, script, self.give, self.ask = trade_seed()
        self.game = services.create_game(kind="hexland", config=CONFIG, created_by=self.users[MOVER],
                                         players=[self.users[s] for s in (MOVER, BO, CY)], join=False,
                                         turn_seconds=86400, seed=seed)
        services.start_game(game_id=self.game.pk)
        for seat, move in script:
            self.play(seat, move)

    @property
    def version(self) -> int:
        self.game.refresh_from_db()
        return self.game.version

    @property
    def state(self):
        self.game.refresh_from_db()
        return state_store.load(self.game)

    def play(self, seat: int, move: dict, seen: int | None = None):
        """``seat`` plays ``move`` from a page showing version ``seen`` (default: the latest)."""
        return services.submit_move(game_id=self.game.pk, user=self.users[seat], move=move,
                                    expected_version=self.version if seen is None else seen)

    def offer(self, count: int = 1) -> dict:
        return {"type": "offer", "give": {self.give: 1}, "get": {self.ask: count}}

    def stored(self) -> list[tuple[int, str]]:
        return list(MoveEvent.objects.filter(game=self.game).order_by("seq").values_list("seat", "payload__type"))


pytestmark = pytest.mark.django_db


def test_answers_and_a_confirm_made_while_others_answered_are_played(make_user):
    table = Table(make_user)
    before = table.state
    table.play(MOVER, table.offer())
    offered = table.version  # every page now shows the open offer
    table.play(BO, {"type": "accept"}, seen=offered)
    accepted = table.version  # the mover's page shows Bo's acceptance: "Trade with Bo"
    table.play(CY, {"type": "decline"}, seen=offered)  # Cy had not seen Bo's answer
    table.play(MOVER, {"type": "confirm", "seat": BO}, seen=accepted)  # nor the mover Cy's
    assert table.stored()[-4:] == [(MOVER, "offer"), (BO, "accept"), (CY, "decline"), (MOVER, "confirm")]
    after = table.state
    assert PHASES[after.phase] == "main" and after.offer is None
    give, ask = RESOURCES.index(table.give), RESOURCES.index(table.ask)
    assert after.hand[MOVER * 5 + ask] == before.hand[MOVER * 5 + ask] + 1  # the trade was made
    assert after.hand[BO * 5 + give] == before.hand[BO * 5 + give] + 1


def test_the_mover_ends_the_turn_from_the_page_of_an_offer_everyone_declined(make_user):
    table = Table(make_user)
    table.play(MOVER, table.offer())
    offered = table.version
    table.play(BO, {"type": "decline"}, seen=offered)
    table.play(CY, {"type": "decline"}, seen=offered)  # the last answer closes the offer
    table.play(MOVER, {"type": "end_turn"}, seen=offered)
    assert table.stored()[-1] == (MOVER, "end_turn")
    assert hexland.actors(table.state) == {BO}


def test_an_answer_to_an_offer_since_replaced_is_refused_and_writes_nothing(make_user):
    table = Table(make_user)
    table.play(MOVER, table.offer())
    first_offer = table.version  # Bo's page
    table.play(MOVER, {"type": "cancel"})
    table.play(MOVER, table.offer(count=2))  # a different offer
    before = (table.version, table.stored())
    with pytest.raises(StaleVersion) as refused:
        table.play(BO, {"type": "accept"}, seen=first_offer)
    assert refused.value.status == 409
    assert refused.value.message == "That offer has changed: look at the new one before you answer."
    assert (table.version, table.stored()) == before
    table.play(CY, {"type": "decline"}, seen=first_offer + 2)  # from a page showing the new offer: played


def test_an_answer_to_a_withdrawn_offer_says_so(make_user, client):
    table = Table(make_user)
    table.play(MOVER, table.offer())
    offered = table.version
    table.play(MOVER, {"type": "cancel"})
    client.force_login(table.users[BO])
    response = client.post(f"/games/{table.game.pk}/move/", {"version": offered, "type": "accept"})
    assert response.status_code == 409 and "That offer is no longer open." in response.content.decode()
    assert table.stored()[-1] == (MOVER, "cancel")


def test_a_double_click_of_a_stale_but_meant_move_is_one_event(make_user):
    table = Table(make_user)
    table.play(MOVER, table.offer())
    offered = table.version
    table.play(CY, {"type": "decline"}, seen=offered)
    table.play(BO, {"type": "accept"}, seen=offered)
    table.play(BO, {"type": "accept"}, seen=offered)  # sent again: answered, not stored
    assert table.stored()[-3:] == [(MOVER, "offer"), (CY, "decline"), (BO, "accept")]


@pytest.mark.django_db(transaction=True)
def test_the_same_answer_racing_itself_from_an_old_page_is_one_event(make_user):
    table = Table(make_user)
    table.play(MOVER, table.offer())
    offered = table.version
    table.play(CY, {"type": "decline"}, seen=offered)
    events_before = len(table.stored())
    outcomes = run_at_once(lambda: table.play(BO, {"type": "accept"}, seen=offered), 3)
    assert not [outcome for outcome in outcomes if isinstance(outcome, Exception)], outcomes
    assert table.stored()[events_before:] == [(BO, "accept")]


def test_a_solo_placement_from_an_old_page_is_still_refused(make_user):
    """Hextremadura says nothing of what its moves mean: a stale placement would place another
    tile, so any move from an older version is refused, with the platform's sentence."""
    ana = make_user()
    game = solo.start_casual_game(user=ana)
    first = hextremadura.legal_moves(state_store.load(game), 0)[0]
    services.submit_move(game_id=game.pk, user=ana, move=first, expected_version=0)
    game.refresh_from_db()
    again = hextremadura.legal_moves(state_store.load(game), 0)[0]
    with pytest.raises(StaleVersion) as refused:
        services.submit_move(game_id=game.pk, user=ana, move=again, expected_version=0)
    assert refused.value.status == 409
    assert refused.value.message == ("The game has moved on since you chose that move: "
                                     "look at the board and choose again.")
    assert Game.objects.get(pk=game.pk).version == 1 and MoveEvent.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("seen", [-1, 99, True, "3"])
def test_a_version_that_is_not_one_of_the_game_is_refused_as_stale(make_user, seen):
    table = Table(make_user)
    table.play(MOVER, table.offer())
    before = table.stored()
    with pytest.raises(StaleVersion) as refused:
        table.play(BO, {"type": "decline"}, seen=seen)
    assert refused.value.message == StaleVersion.default_message
    assert table.stored() == before
