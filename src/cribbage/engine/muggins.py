"""The transition of the muggins decision: an opponent passes, or calls (the points a count
missed go to the caller, a wrong call's to the counter), and the game goes on."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .actions import Muggins, Pass
from .events import Event, Kind
from .pegging import advance_play
from .points import Pending, add_points
from .show import end_hand

if TYPE_CHECKING:
    from .state import GameState


def do_muggins(state: GameState, action: Muggins | Pass, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    if isinstance(action, Pass):
        events.append(Event(Kind.PASS, seat=action.seat))
        rest = tuple(s for s in pending.callers if s != action.seat)
        if rest:  # the other opponents still decide
            state.pending = replace(pending, callers=rest)
            return
        state.pending = None
    else:
        # A call closes the decision, whether it finds missed points or not (a wrong call
        # is penalised and the count then stands, as with one opponent): the first call wins.
        state.pending = None
        state.closed_by = action.seat
        _score_call(state, action, pending, events)
    if pending.phase == "play":
        advance_play(state, events)
    elif state.show_step == len(state.show_order()):
        end_hand(state, events)


def _score_call(state: GameState, action: Muggins, pending: Pending, events: list[Event]) -> None:
    if pending.missed > 0:
        # ACC 10.4: the caller scores the lesser of the claimed and the true missed points.
        add_points(
            state,
            action.seat,
            min(action.points, pending.missed),
            events,
            kind=Kind.MUGGINS,
            detail=pending.phase,
        )
    else:
        # ACC 10.4: a call where nothing was missed gives the claimed points to the opponent.
        add_points(state, pending.counter, action.points, events, kind=Kind.PENALTY, detail=pending.phase)
