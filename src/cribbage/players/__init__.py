"""Players: anything that picks an action from a seat's view.

Players live outside the rules (:mod:`cribbage.engine.game`) and see only a
:class:`~cribbage.engine.game.SeatView`.  :func:`make_player` builds one by name; the computer levels
register themselves in :data:`PLAYERS`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from ..engine.errors import CribbageError
from ..engine.game import Action, Event, GameState, SeatView


@runtime_checkable
class Player(Protocol):
    """Decides for one seat.  ``choose`` is only called when the view's ``legal`` is not empty."""

    def choose(self, view: SeatView) -> Action: ...


class RandomPlayer:
    """A uniformly random legal player, for tests and as the floor of every strength study."""

    def __init__(self, seed: int | None = None, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal)


PlayerFactory = Callable[[int | None], Player]

PLAYERS: dict[str, PlayerFactory] = {
    "random": lambda seed: RandomPlayer(seed),
}
"""Player factories by name; each takes a seed (or None)."""


def tell_hand_over(players: Sequence[object], state: GameState, events: Sequence[Event]) -> None:
    """After a hand's show, give each player that has an ``observe(view)`` method its seat's view
    (every card played in the hand is then known): ``strong`` learns how the others play."""
    if any(event.kind == "hand over" for event in events):
        for seat, player in enumerate(players):
            observe = getattr(player, "observe", None)
            if callable(observe):
                observe(state.view(seat))


def make_player(name: str, seed: int | None = None) -> Player:
    """The player called ``name`` (``random``, and the computer levels once registered)."""
    try:
        factory = PLAYERS[name]
    except KeyError:
        known = ", ".join(sorted(PLAYERS))
        raise CribbageError(f"unknown player {name!r} (known: {known})") from None
    return factory(seed)


# The computer levels register themselves in PLAYERS; importing them here makes every level
# available wherever players are made.  (At the end: levels imports PLAYERS from this module.)
from . import levels  # noqa: E402, F401
