"""Matches of "Play now": the series a game belongs to (first to N games), the pure part.

A game of a match carries its :class:`Series` in its options, fixed when the game is created:
how many wins make the match, the game's number in it and each seat's wins *before* it.  The
score after the game is then a function of the game alone (:meth:`Series.wins_after`), the same
in every process and after a restart; the next game's series is :meth:`Series.next`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ..engine.game import GameResult
from ..engine.rules import Rules
from .errors import AppError

__all__ = ["FIRST_TO", "Series", "check_first_to"]

FIRST_TO: Final = (1, 5)
"""The bounds of ``first_to``: 1 (one game, no match) to 5 (best of 9)."""


def check_first_to(value: object) -> int:
    """``first_to`` as an int.

    Raises:
        AppError: ``play.bad_first_to`` (with its bounds) for anything but an int within :data:`FIRST_TO`.

    >>> check_first_to(2)
    2
    """
    low, high = FIRST_TO
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise AppError(
            "play.bad_first_to",
            f"first_to is a whole number from {low} to {high}, not {value!r}",
            low=low,
            high=high,
        )
    return value


@dataclass(frozen=True, slots=True)
class Series:
    """A game's place in its match: the wins that make the match, the game's number (from 1)
    and each seat's wins before it (partners win together: both seats of a side count)."""

    first_to: int
    number: int
    wins: tuple[int, ...]

    @classmethod
    def first(cls, first_to: int, players: int) -> Series:
        """The series of a match's first game."""
        return cls(first_to, 1, (0,) * players)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Series:
        return cls(int(data["first_to"]), int(data["number"]), tuple(int(w) for w in data["wins"]))

    def to_json(self) -> dict[str, Any]:
        return {"first_to": self.first_to, "number": self.number, "wins": list(self.wins)}

    def wins_after(self, rules: Rules, result: GameResult | None) -> tuple[int, ...]:
        """Each seat's wins once this game is over with ``result`` (None: not over, or over
        without a winner: forfeited)."""
        if result is None:
            return self.wins
        return tuple(w + (rules.side_of(seat) == result.winner) for seat, w in enumerate(self.wins))

    def over(self, wins: tuple[int, ...]) -> bool:
        """Whether a seat has won the match with these wins."""
        return max(wins, default=0) >= self.first_to

    def next(self, rules: Rules, result: GameResult | None) -> Series | None:
        """The series of the next game after this one ended with ``result``; None when the
        match is over."""
        wins = self.wins_after(rules, result)
        return None if self.over(wins) else Series(self.first_to, self.number + 1, wins)

    def view(self, rules: Rules, result: GameResult | None) -> dict[str, Any]:
        """What every seat is shown: ``{"first_to", "number", "wins", "over", "winner"}``, the
        wins counting this game once it is over; ``winner`` the side that won the match, or None."""
        wins = self.wins_after(rules, result)
        over = self.over(wins)
        winner = None
        if over:
            winner = rules.side_of(max(range(len(wins)), key=lambda seat: wins[seat]))
        return {
            "first_to": self.first_to,
            "number": self.number,
            "wins": list(wins),
            "over": over,
            "winner": winner,
        }
