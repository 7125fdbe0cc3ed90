"""A person against the computer: the seat, the levels and the options, defined once.

The terminal game and the browser game both seat a person at :data:`HUMAN` and a computer player
of one level (:data:`LEVELS`) in every other seat, with the options of :class:`GameOptions`.

>>> options = GameOptions(level="strong", variant="short", seed=5)
>>> options.rules().target, [None if s is None else s.player for s in options.seats(2)]
(61, [None, 'strong'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..engine.errors import CribbageError
from ..engine.record import SeatRecord
from ..engine.rules import VARIANTS, Rules, get_rules
from ..players import LEVELS as _LEVELS
from .match import derive_seed
from .table import seats

__all__ = ["DEALERS", "DEFAULT_LEVEL", "HUMAN", "LEVELS", "GameOptions", "computer_name", "seat_seed"]

HUMAN: Final = 0
"""The person's seat in a game against the computer; every other seat is a computer player."""

LEVELS: Final = tuple(_LEVELS)
"""The computer levels offered to people, weakest first."""

DEFAULT_LEVEL: Final = "normal"

DEALERS: Final[dict[str, int | None]] = {"cut": None, "you": HUMAN, "computer": 1}
"""The ``dealer`` option: cut for deal, the person deals first, or the computer to the left does."""


def computer_name(seat: int, players: int) -> str:
    """The one name of a computer's seat, at its creation as after a takeover: ``Computer N``,
    N the seat counted from 1 as in ``Seat N``, but plain ``Computer`` for seat 1 of two players.
    The page words the same rule in the reader's language (``seatLabel`` in i18n.js)."""
    return "Computer" if players == 2 and seat == 1 else f"Computer {seat + 1}"


def seat_seed(seed: int, seat: int) -> int:
    """The seed of a seat's computer player in a game seeded with ``seed``.

    >>> seat_seed(7, 1) == seat_seed(7, 1) != seat_seed(7, 2)
    True
    """
    return derive_seed(seed, "seat", seat)


@dataclass(frozen=True, slots=True)
class GameOptions:
    """The choices of a game against the computer, shared by the terminal and the browser."""

    level: str = DEFAULT_LEVEL
    variant: str = "standard"
    target: int | None = None
    manual: bool = False
    """The person counts their own hands and crib."""
    muggins: bool = False
    """Points a count missed may be taken by the opponent (counting is then manual)."""
    muggins_play: bool = False
    """Muggins in the play too: the points of each card played are stated."""
    skunk: str | None = None
    """The game-points scheme of skunks (:data:`~cribbage.engine.rules.GAME_POINTS`); None: the
    rules' default."""
    seed: int | None = None

    def rules(self) -> Rules:
        """The rules of the game.

        Raises:
            CribbageError: naming the bad option.
        """
        if self.variant not in VARIANTS:
            raise CribbageError(f"unknown variant {self.variant!r} (known: {', '.join(VARIANTS)})")
        muggins = self.muggins or self.muggins_play
        changes: dict[str, Any] = {
            "manual_count": self.manual or muggins,
            "muggins": muggins,
            "muggins_play": self.muggins_play,
            # With muggins on, an over-count is not a free guess: its excess goes to the opponent.
            "overcount_penalty": muggins,
        }
        if self.skunk is not None:
            changes["skunk"] = self.skunk
        if self.target is not None:
            changes["target"] = self.target
        return get_rules(self.variant, **changes)

    def seats(self, players: int, computer: str | None = None) -> tuple[SeatRecord | None, ...]:
        """Who sits where: the person at :data:`HUMAN`, the level's computer elsewhere.

        A seeded game seeds its computers from its seed (:func:`seat_seed`); an unseeded one
        draws their seeds from the system.  ``computer`` plays instead of the level (testing).
        """
        names: Sequence[str | None] = [None if s == HUMAN else computer or self.level for s in range(players)]
        given = [None if self.seed is None else seat_seed(self.seed, s) for s in range(players)]
        return seats(names, given)
