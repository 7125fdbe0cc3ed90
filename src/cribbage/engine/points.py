"""Points pegged on the board (:func:`add_points`), the game's end the instant a side reaches the
target, and a stated count left to the opponents' muggins decision (:class:`Pending`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .events import Event, GameResult, Kind
from .view import Phase

if TYPE_CHECKING:
    from .state import GameState


class GameOver(Exception):
    """Raised inside apply() the instant a side reaches the target."""


@dataclass(frozen=True, slots=True)
class Pending:
    """A manual count awaiting the opponents' muggins decision."""

    counter: int  # the seat that counted
    callers: tuple[int, ...]  # the opponents still entitled to decide, in turn order
    missed: int  # the points the count left out (hidden from the views)
    phase: str  # "play" or "show"
    what: str  # "play", "hand" or "crib"
    claim: int  # the points stated
    scores: tuple[int, ...]  # each side's score before the count (the views show these)
    previous_scores: tuple[int, ...]

    @property
    def caller(self) -> int:
        """The opponent whose turn it is to decide (the others may call before it)."""
        return self.callers[0]


def add_points(
    state: GameState, seat: int, points: int, events: list[Event], announce_zero: bool = False, **detail: Any
) -> None:
    """Peg points for seat's side; ends the game the instant a side reaches the target.

    No event is recorded for zero points unless ``announce_zero`` (a show of nineteen).
    """
    side = state.side_of(seat)
    if points <= 0:
        if announce_zero:
            events.append(Event(seat=seat, side=side, points=0, **detail))
        return
    state.previous_scores[side] = state.scores[side]
    state.scores[side] += points
    events.append(Event(seat=seat, side=side, points=points, **detail))
    if state.scores[side] >= state.rules.target:
        finish(state, side, events)


def finish(state: GameState, side: int, events: list[Event]) -> None:
    rules = state.rules
    sides = rules.sides
    if rules.lowball:
        loser = side
        others = [s for s in range(sides) if s != side]
        winner = min(others, key=lambda s: (state.scores[s], s))
        skunk = 0
    else:
        winner = side
        loser = min((s for s in range(sides) if s != side), key=lambda s: (state.scores[s], s))
        worst = state.scores[loser]
        double = rules.double_skunk_line
        skunk = 2 if double is not None and worst < double else 1 if worst < rules.skunk_line else 0
    state.result = GameResult(winner, loser, tuple(state.scores), skunk, rules.game_points(skunk))
    state.phase = Phase.OVER
    state.pending = None
    events.append(Event(Kind.WIN, side=winner, detail=("", "skunk", "double skunk")[skunk]))
    raise GameOver


def opponents(state: GameState, seat: int) -> tuple[int, ...]:
    """The seats on other sides than ``seat``'s, in turn order from the next one: who may
    call muggins on its counts, and in which order they decide."""
    side, n = state.side_of(seat), state.players
    return tuple(s for i in range(1, n) if state.side_of(s := (seat + i) % n) != side)


def opponent(state: GameState, seat: int) -> int:
    """The next seat after ``seat`` on another side: who may call muggins on its counts."""
    side = state.side_of(seat)
    return next(s for i in range(1, state.players) if state.side_of(s := (seat + i) % state.players) != side)


def open_muggins(
    state: GameState,
    counter: int,
    missed: int,
    phase: str,
    what: str,
    claim: int,
    before: tuple[tuple[int, ...], tuple[int, ...]],
) -> None:
    """Open the muggins decision on a stated count; ``before`` holds the scores and previous
    scores from before the count, which the views show until the decision closes."""
    if state.rules.muggins:
        callers = opponents(state, counter)
        if not state.rules.muggins_all_opponents:
            callers = callers[:1]  # only the next opponent (records made before the option)
        state.pending = Pending(counter, callers, missed, phase, what, claim, *before)


def penalise_over_claim(state: GameState, counter: int, excess: int, events: list[Event]) -> None:
    """With ``overcount_penalty`` the opponent scores what a claim had too many (Hoyle)."""
    if excess > 0 and state.rules.overcount_penalty:
        add_points(state, opponent(state, counter), excess, events, kind=Kind.PENALTY, detail="over-count")
