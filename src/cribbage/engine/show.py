"""The transitions of the show: each hand and the crib counted (automatically or as stated),
and the hand's end."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Count
from .events import Event, Kind
from .points import add_points, open_muggins, penalise_over_claim
from .scoring import hand_points, score_show
from .view import Phase

if TYPE_CHECKING:
    from .state import GameState


def count_show(state: GameState, claim: int | None, events: list[Event]) -> None:
    seat, what = state.show_order()[state.show_step]
    assert state.starter is not None
    cards = tuple(state.crib) if what == "crib" else state.kept[seat]
    if state.explain:
        combos = score_show(cards, state.starter, crib=what == "crib").combos
        true = sum(c.points for c in combos)
    else:
        combos, true = (), hand_points(cards, state.starter, what == "crib")
    pegged = true if claim is None or claim > true else claim
    before = tuple(state.scores), tuple(state.previous_scores)
    state.show_step += 1
    add_points(
        state,
        seat,
        pegged,
        events,
        announce_zero=True,
        kind=Kind.SHOW,
        cards=cards,
        combos=combos,
        detail=what,
        claim=claim,
    )
    if claim is not None:
        penalise_over_claim(state, seat, claim - true, events)
        open_muggins(state, seat, max(0, true - claim), "show", what, claim, before)
    if state.pending is None and state.show_step == len(state.show_order()):
        end_hand(state, events)


def do_count(state: GameState, action: Count, events: list[Event]) -> None:
    count_show(state, action.points, events)


def end_hand(state: GameState, events: list[Event]) -> None:
    assert state.dealer is not None
    events.append(Event(Kind.HAND_OVER, seat=state.dealer))
    # One seat on, always: view() finds the dealer of the hand still on view as the seat before.
    state.dealer = (state.dealer + 1) % state.players
    state.phase = Phase.DEAL
