"""Matches of "Play now": the series a game belongs to (first to N games), the pure part.

A game lost by absence is the absent side's loss in the match as in the rating
(docs/ratings.md): a seat a computer played from some point on (its person left) or that was
away when the game ended (its turn clock ran out and its person had not acted since) loses the
game for its side, whatever the score (:func:`deciding_side`).

A game of a match carries its :class:`Series` in its options, fixed when the game is created:
how many wins make the match, the game's number in it and each seat's wins *before* it.  The
score after the game is then a function of the game alone (:meth:`Series.wins_after`), the same
in every process and after a restart; the next game's series is :meth:`Series.next`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Final

from ...engine.events import GameResult
from ...engine.rules import Rules
from ..errors import AppError

__all__ = ["FIRST_TO", "Series", "check_first_to", "deciding_side"]

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


def deciding_side(rules: Rules, result: GameResult, absent: Collection[int] = ()) -> int | None:
    """The side that won a finished game for its match: the result's winner unless a seat of
    its side was ``absent`` (left, or away at the end); then the best of the sides nobody left,
    by score (lowball: the lower), if one is alone best; None when every side left or the best
    tie.  The same ranking as the rating's (:meth:`cribbage.app.people.ratings.Outcome.ranks`).

    >>> from types import SimpleNamespace as Result
    >>> from cribbage.engine.rules import get_rules
    >>> short = get_rules("short")
    >>> away_won = Result(winner=1, scores=(29, 64))
    >>> deciding_side(short, away_won), deciding_side(short, away_won, {1})
    (1, 0)
    >>> deciding_side(short, away_won, {0, 1}) is None
    True
    """
    gone = {rules.side_of(seat) for seat in absent}
    stayed = [side for side in range(rules.sides) if side not in gone]
    if result.winner in stayed:
        return int(result.winner)
    if not stayed:
        return None
    scores = result.scores

    def key(side: int) -> int:
        return int(scores[side]) if rules.lowball else -int(scores[side])

    best = min(key(side) for side in stayed)
    leaders = [side for side in stayed if key(side) == best]
    return leaders[0] if len(leaders) == 1 else None


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

    def wins_after(
        self, rules: Rules, result: GameResult | None, absent: Collection[int] = ()
    ) -> tuple[int, ...]:
        """Each seat's wins once this game is over with ``result`` (None: not over, or over
        without a winner: forfeited), the seats ``absent`` at its end losing it
        (:func:`deciding_side`)."""
        if result is None:
            return self.wins
        winner = deciding_side(rules, result, absent)
        return tuple(
            w + (winner is not None and rules.side_of(seat) == winner) for seat, w in enumerate(self.wins)
        )

    def over(self, wins: tuple[int, ...]) -> bool:
        """Whether a seat has won the match with these wins."""
        return max(wins, default=0) >= self.first_to

    def next(self, rules: Rules, result: GameResult | None, absent: Collection[int] = ()) -> Series | None:
        """The series of the next game after this one ended with ``result`` (``absent``: as
        :meth:`wins_after`); None when the match is over."""
        wins = self.wins_after(rules, result, absent)
        return None if self.over(wins) else Series(self.first_to, self.number + 1, wins)

    def view(self, rules: Rules, result: GameResult | None, absent: Collection[int] = ()) -> dict[str, Any]:
        """What every seat is shown: ``{"first_to", "number", "wins", "over", "winner"}``, the
        wins counting this game once it is over (``absent``: as :meth:`wins_after`); ``winner``
        the side that won the match, or None."""
        wins = self.wins_after(rules, result, absent)
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
