"""What every player is: something that picks an action from a seat's view.

Players live outside the rules (:mod:`cribbage.engine`) and see only a
:class:`~cribbage.engine.view.SeatView`.  A computer player's randomness is a function of its
seed and the position in the game (:attr:`~cribbage.engine.view.SeatView.step`): each decision
draws from a generator seeded afresh with both, so a game rebuilt from its record decides exactly
as it would have, whatever was drawn before the interruption.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..engine.actions import Action
from ..engine.view import SeatView

__all__ = ["Player", "RandomPlayer", "SeededPlayer", "new_seed"]


@runtime_checkable
class Player(Protocol):
    """Decides for one seat.  ``choose`` is only called when the view's ``legal`` is not empty.

    A player may also have ``observe(view)``: the table calls it with the seat's view at the end
    of each hand (every card played in it is then known), so the player can learn how the others
    play.  What it learns must come from those views alone: replaying a record tells it again.
    It may have ``trim()``, to drop what it memoized and can compute again (the table calls it
    whenever it stops for a person, :meth:`~cribbage.table.table.Table.trim`).
    """

    def choose(self, view: SeatView) -> Action: ...


def new_seed() -> int:
    """A fresh 63-bit seed from the operating system."""
    return random.SystemRandom().randrange(1 << 63)


class SeededPlayer:
    """A player whose randomness comes from its :attr:`seed` and the position in the game.

    :attr:`rng` is seeded with both on its first use at each :attr:`step`; a decision that draws
    nothing costs nothing.  :meth:`choose` sets the step from the view; code that asks a player
    without a view (:mod:`cribbage.table.playout`) sets :attr:`step` itself.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.seed = new_seed() if seed is None else seed
        """The player's seed (drawn from the system when none is given; the table records it)."""
        self.step = 0
        """The position of the decision being made: :attr:`SeatView.step`."""
        self._rng: random.Random | None = None  # made on first use: most decisions draw nothing
        self._rng_step = -1

    @property
    def rng(self) -> random.Random:
        """The generator of the decision at :attr:`step`."""
        rng = self._rng
        if rng is None or self._rng_step != self.step:
            seed = (self.seed & (1 << 64) - 1) << 24 | self.step & 0xFFFFFF
            if rng is None:
                rng = self._rng = random.Random(seed)
            else:
                rng.seed(seed)
            self._rng_step = self.step
        return rng


class RandomPlayer(SeededPlayer):
    """A uniformly random legal player, for tests and as the floor of every strength study."""

    def choose(self, view: SeatView) -> Action:
        self.step = view.step
        return self.rng.choice(view.legal)
