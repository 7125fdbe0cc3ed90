"""What every seat may see of a game: the public snapshot after each event.

A :class:`Public` is the table as every seat and every watcher sees it: the scores and the back
pegs, the phase, the dealer, the hand's number, the starter, the cards played this hand and the
count, how many cards each seat holds and how many lie in the crib.  It never holds a card that
is not on the table.  :meth:`Public.after` moves it on by one event, so an interface draws each
event's snapshot and computes no rule; :meth:`Public.of` reads it from the engine's state.

>>> from cribbage.engine.rules import get_rules
>>> state = GameState(get_rules("standard"), dealer=1)
>>> Public.of(state).after(Event(Kind.DEAL, seat=1), state.rules).to_json()
{'ph': 'discard', 'd': 1, 'h': 1, 'c': 0, 'pl': [], 'run': 0, 'held': [6, 6], 'crib': 0, 'prev': [0, 0]}
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..engine.cards import Card
from ..engine.events import Event, Kind
from ..engine.rules import Rules
from ..engine.state import GameState
from ..engine.view import Phase

__all__ = ["Public"]


@dataclass(frozen=True, slots=True)
class Public:
    """The public table after an event (see the module's doc)."""

    phase: Phase
    dealer: int | None
    hand: int
    """The hand's number (0 before the first deal)."""
    scores: tuple[int, ...]
    previous: tuple[int, ...]
    """Each side's score before its last points: the back peg."""
    starter: Card | None
    count: int
    played: tuple[tuple[int, Card], ...]
    """The cards played this hand, in order, each with its seat."""
    run: int
    """How many of the last cards played make the count now."""
    held: tuple[int, ...]
    """How many cards each seat holds."""
    crib: int
    """How many cards lie in the crib."""

    @classmethod
    def of(cls, state: GameState) -> Public:
        """The engine's public state now (while a count awaits the muggins decision, the scores
        before it, as every view shows them)."""
        view = state.view(0)
        return cls(
            phase=state.phase,
            dealer=state.dealer,
            hand=state.hand_number,
            scores=view.scores,
            previous=view.previous_scores,
            starter=state.starter,
            count=state.count,
            played=tuple(state.played),
            run=len(state.sequence),
            held=view.held,
            crib=len(state.crib),
        )

    def after(self, event: Event, rules: Rules) -> Public:
        """The table after ``event``, the next event of the game shown to every seat."""
        kind, seat = event.kind, event.seat
        public = self._scored(event) if event.points and event.side is not None else self
        if kind is Kind.CUT:
            return replace(public, dealer=seat, phase=Phase.DEAL)
        if kind is Kind.DEAL:
            return replace(
                public,
                phase=Phase.DISCARD,
                dealer=seat,
                hand=self.hand + 1,
                starter=None,
                count=0,
                played=(),
                run=0,
                held=(rules.deal,) * rules.players,
                crib=rules.crib_from_deck,
            )
        if kind is Kind.DISCARD and seat is not None:
            crib = public.crib + rules.discard
            phase = Phase.STARTER if crib == rules.crib_size else Phase.DISCARD
            return replace(public, held=_less(public.held, seat, rules.discard), crib=crib, phase=phase)
        if kind is Kind.STARTER:
            return replace(public, starter=event.cards[0], phase=Phase.PLAY)
        if kind is Kind.PLAY and seat is not None:
            return replace(
                public,
                played=(*public.played, (seat, event.cards[0])),
                run=public.run + 1,
                count=public.count if event.count is None else event.count,
                held=_less(public.held, seat, 1),
            )
        if kind is Kind.RESET:
            phase = Phase.SHOW if event.detail == "end of play" else public.phase
            return replace(public, count=0, run=0, phase=phase)
        if kind is Kind.HAND_OVER and seat is not None:
            return replace(public, phase=Phase.DEAL, dealer=(seat + 1) % rules.players)
        if kind is Kind.WIN:
            return replace(public, phase=Phase.OVER)
        return public

    def _scored(self, event: Event) -> Public:
        side = event.side
        assert side is not None
        scores, previous = list(self.scores), list(self.previous)
        previous[side] = scores[side]
        scores[side] += event.points
        return replace(self, scores=tuple(scores), previous=tuple(previous))

    def to_json(self) -> dict[str, Any]:
        """The snapshot as a step sends it (``docs/api.md``), its scores left out (the step has
        them): ``ph`` phase, ``d`` dealer, ``h`` hand number, ``st`` starter (when cut), ``c``
        count, ``pl`` the cards played this hand as ``[seat, card]``, ``run`` how many of the
        last of them make the count, ``held`` each seat's number of cards, ``crib`` the crib's
        number of cards, ``prev`` each side's back peg."""
        data: dict[str, Any] = {"ph": self.phase.value, "d": self.dealer, "h": self.hand}
        if self.starter is not None:
            data["st"] = str(self.starter)
        data["c"] = self.count
        data["pl"] = [[seat, str(card)] for seat, card in self.played]
        data["run"] = self.run
        data["held"] = list(self.held)
        data["crib"] = self.crib
        data["prev"] = list(self.previous)
        return data


def _less(held: tuple[int, ...], seat: int, cards: int) -> tuple[int, ...]:
    return tuple(max(n - cards, 0) if s == seat else n for s, n in enumerate(held))
