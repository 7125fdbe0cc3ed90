"""The transitions of the play: a card played and pegged, who plays next, go, the last card
and the end of the play."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Play
from .events import END_OF_PLAY, RESET, Event, Kind
from .points import add_points, open_muggins, penalise_over_claim
from .scoring import GO, LAST_CARD, Combo, play_combos, play_points
from .show import count_show
from .view import Phase

if TYPE_CHECKING:
    from .state import GameState


def do_play(state: GameState, action: Play, events: list[Event]) -> None:
    seat, card = action.seat, action.card
    state.hands[seat].remove(card)
    state.sequence.append(card)
    state.played.append((seat, card))
    state.count += card.value
    state.last_player = seat
    events.append(Event(Kind.PLAY, seat=seat, cards=(card,), count=state.count))
    if state.explain:
        combos = tuple(play_combos(state.sequence, state.count))
        true = sum(c.points for c in combos)
    else:
        combos, true = (), play_points(state.sequence, state.count)
    claim = action.claim
    # With manual pegging only the stated points are pegged (an over-claim is corrected);
    # what was missed may be mugged before the next play.
    pegged = true if claim is None else min(claim, true)
    before = tuple(state.scores), tuple(state.previous_scores)
    add_points(
        state,
        seat,
        pegged,
        events,
        kind=Kind.SCORE,
        combos=combos,
        count=state.count,
        detail="play",
        claim=claim,
    )
    if claim is not None:
        penalise_over_claim(state, seat, claim - true, events)
        open_muggins(state, seat, true - pegged, "play", "play", claim, before)
    if state.pending is None:
        advance_play(state, events)


def advance_play(state: GameState, events: list[Event]) -> None:
    """After a card: who plays next, goes, the last card, and the end of the play."""
    n = state.players
    last = state.last_player
    assert last is not None
    if state.count < 31:
        for i in range(1, n + 1):
            seat = (last + i) % n
            if state.can_play(seat):
                _say_go(state, last, i, events)
                state.turn = seat
                return
        # Nobody can play: the last player scores a go, or the last card.
        _say_go(state, last, n, events)
        over = state.rules.one_count or not any(state.hands)
        kind = LAST_CARD if over else GO
        add_points(
            state,
            last,
            1,
            events,
            kind=Kind.SCORE,
            detail=kind,
            count=state.count,
            combos=(Combo(kind, (), 1),),
        )
    else:
        over = state.rules.one_count or not any(state.hands)
    if over:
        end_play(state, events)
        return
    state.count = 0
    state.sequence = []
    state.gone = 0
    events.append(RESET)
    for i in range(1, n + 1):
        seat = (last + i) % n
        if state.hands[seat]:
            state.turn = seat
            return


def _say_go(state: GameState, last: int, upto: int, events: list[Event]) -> None:
    """The seats after ``last`` (fewer than ``upto`` places on) that hold cards say go, once a count."""
    for j in range(1, upto):
        seat = (last + j) % state.players
        if state.hands[seat] and not state.gone >> seat & 1:
            state.gone |= 1 << seat
            events.append(Event(Kind.GO, seat=seat, count=state.count))


def end_play(state: GameState, events: list[Event]) -> None:
    state.phase = Phase.SHOW
    state.show_step = 0
    state.count = 0
    state.sequence = []
    events.append(END_OF_PLAY)
    if not state.rules.manual_count:
        while state.phase is Phase.SHOW:
            count_show(state, None, events)
