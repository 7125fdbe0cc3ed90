"""The playoffs (ACC Rule 13.2): qualifiers, byes, the bracket's order and best-of-N matches.

One entrant in four qualifies, a fraction rounding up (:func:`qualifier_count`).  The bracket is
the next power of two (:func:`bracket_size`); the highest qualifiers fill its gap with
first-round byes (:func:`bye_count`), so the second round is full.  Seeds stand in the ACC's
bracket order (:func:`seed_order`): 1 against the last at the top, 2 at the bottom, each round's
higher seeds kept apart until it, 1 and 2 only in the final.  A :class:`Bracket` is a value: it
advances as matches end (:meth:`Bracket.advance`, :meth:`Bracket.record`), each a new one.

>>> qualifier_count(108), bye_count(qualifier_count(108))
(27, 5)
>>> seed_order(8)
(1, 8, 5, 4, 3, 6, 7, 2)
>>> bracket = Bracket.seeded(["ann", "bob", "cy"])
>>> bracket.byes, [(m.top, m.bottom) for m in bracket.pending()]
(('ann',), [('cy', 'bob')])
>>> bracket.record(["bob", "cy", "bob"]).pending()[0].bottom
'bob'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache

from .entrants import EntrantId, check_entrant, check_entrants
from .errors import BracketError, EntrantError, PlayoffMatchError

__all__ = [
    "Bracket",
    "BracketMatch",
    "PlayoffFormat",
    "bracket_size",
    "bye_count",
    "check_best_of",
    "match_winner",
    "qualifier_count",
    "seed_order",
]


def qualifier_count(entrants: int) -> int:
    """The playoff qualifiers of a field: one in four, rounded up (121 to 124 entrants: 31).

    Raises:
        BracketError: fewer than one entrant.
    """
    if entrants < 1:
        raise BracketError(f"{entrants} entrants: at least 1 needed", entrants=entrants)
    return -(-entrants // 4)


def bracket_size(qualifiers: int) -> int:
    """The full bracket that holds ``qualifiers``: the next power of two (33: 64).

    Raises:
        BracketError: fewer than one qualifier.
    """
    if qualifiers < 1:
        raise BracketError(f"{qualifiers} qualifiers: at least 1 needed", qualifiers=qualifiers)
    return 1 << (qualifiers - 1).bit_length()


def bye_count(qualifiers: int) -> int:
    """The first-round byes, to the highest qualifiers: the full bracket less the qualifiers
    (27: 5, 31: 1, 33: 31, 15: 1)."""
    return bracket_size(qualifiers) - qualifiers


@cache
def seed_order(size: int) -> tuple[int, ...]:
    """The seeds of a full bracket of ``size`` from top to bottom, as the ACC's charts: from the
    bracket of half the size, each seed ``s`` at place ``i`` becomes the pair ``s``, ``size + 1 -
    s``, in that order where ``i`` is even and reversed where it is odd.  First-round matches are
    neighbours (1-64, 33-32, ... 8-57 | 5-60 ... 4-61 | 3-62 ... 6-59 | 7-58 ... 63-2).

    Raises:
        BracketError: ``size`` not a power of two.
    """
    if size < 1 or size & (size - 1):
        raise BracketError(f"a bracket of {size} is not a power of two", size=size)
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [
            seed for i, s in enumerate(order) for seed in ((s, total - s) if i % 2 == 0 else (total - s, s))
        ]
    return tuple(order)


def check_best_of(best_of: int) -> int:
    """``best_of`` if it is a match's length: a positive odd number of games.

    Raises:
        PlayoffMatchError: any other number.
    """
    if best_of < 1 or best_of % 2 == 0:
        raise PlayoffMatchError(f"a match is best of an odd number of games, not {best_of}", best_of=best_of)
    return best_of


@dataclass(frozen=True, slots=True)
class PlayoffFormat:
    """The length of the playoff matches: best of ``best_of`` games, and best of
    ``longer_best_of`` from round ``longer_from`` on (round 1 first; None: never).

    Raises:
        PlayoffMatchError: a length that is not a positive odd number.
        BracketError: ``longer_from`` below 1.
    """

    best_of: int = 3
    longer_from: int | None = None
    longer_best_of: int = 5

    def __post_init__(self) -> None:
        check_best_of(self.best_of)
        check_best_of(self.longer_best_of)
        if self.longer_from is not None and self.longer_from < 1:
            raise BracketError(f"round {self.longer_from} does not exist", round=self.longer_from)

    def best_of_in(self, round_number: int) -> int:
        """The games a match of round ``round_number`` is the best of.

        >>> PlayoffFormat(longer_from=4).best_of_in(3), PlayoffFormat(longer_from=4).best_of_in(5)
        (3, 5)
        """
        longer = self.longer_from is not None and round_number >= self.longer_from
        return self.longer_best_of if longer else self.best_of


def match_winner(
    first: EntrantId, second: EntrantId, games: Sequence[EntrantId], best_of: int = 3
) -> EntrantId | None:
    """Who has won the match of ``first`` and ``second``, best of ``best_of``, from the winners
    of its games so far (a forfeited game is the opponent's); None while neither has.

    >>> match_winner("ann", "bob", ["bob", "ann"]) is None, match_winner("ann", "bob", ["bob", "ann", "ann"])
    (True, 'ann')

    Raises:
        EntrantError: a bad id, or ``first`` is ``second``.
        PlayoffMatchError: a length that is not a positive odd number, a game won by someone
            else, or a game after the match was won.
    """
    check_best_of(best_of)
    if check_entrant(first) == check_entrant(second):
        raise EntrantError(f"entrant {first!r} cannot play itself", problem="self", entrant=first)
    need = best_of // 2 + 1
    wins = {first: 0, second: 0}
    winner: EntrantId | None = None
    for number, game in enumerate(games, 1):
        if winner is not None:
            raise PlayoffMatchError(
                f"game {number} played after {winner!r} won the match", game=number, winner=winner
            )
        if game not in wins or isinstance(game, bool):
            raise PlayoffMatchError(
                f"game {number} won by {game!r}, who is not in the match", game=number, entrant=game
            )
        wins[game] += 1
        if wins[game] == need:
            winner = game
    return winner


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """A match of the bracket: its round (from 1), its place in the round (from 0, top first),
    its two sides (None: not known yet, or a first-round bye), its length and its winner."""

    round: int
    index: int
    top: EntrantId | None
    bottom: EntrantId | None
    best_of: int
    winner: EntrantId | None = None

    @property
    def ready(self) -> bool:
        """Whether it is to be played now: both sides known and no winner yet."""
        return self.winner is None and self.top is not None and self.bottom is not None


@dataclass(frozen=True, slots=True)
class Bracket:
    """A single-elimination playoff: the qualifiers in seed order (seed 1 first), the length
    of its matches, and each round's winners so far (None: not decided).  Build one with
    :meth:`seeded`; each result gives a new one.
    """

    seeds: tuple[EntrantId, ...]
    playoff_format: PlayoffFormat = field(default_factory=PlayoffFormat)
    winners: tuple[tuple[EntrantId | None, ...], ...] = ()

    def __post_init__(self) -> None:
        """Raises :class:`EntrantError` for bad seeds, :class:`BracketError` for winners of the
        wrong shape, or a winner of a match it was not in or whose sides were not both known."""
        size = bracket_size(len(check_entrants(self.seeds, least=1)))
        shape = [size >> r for r in range(1, size.bit_length())]
        if [len(row) for row in self.winners] != shape:
            raise BracketError(f"a bracket of {size} has rounds of {shape} matches", size=size)
        for number, row in enumerate(self.winners, 1):
            line = self._line(number)
            for k, winner in enumerate(row):
                sides = line[2 * k : 2 * k + 2]
                if winner is not None and (
                    check_entrant(winner) not in sides or (number > 1 and None in sides)
                ):
                    raise BracketError(
                        f"entrant {winner!r} cannot have won match {k} of round {number}", entrant=winner
                    )

    @classmethod
    def seeded(cls, qualifiers: Sequence[EntrantId], playoff_format: PlayoffFormat | None = None) -> Bracket:
        """The bracket of ``qualifiers`` (best first), first-round byes already through.

        Raises:
            EntrantError: no qualifier, or a bad or duplicate id.
        """
        seeds = check_entrants(qualifiers, least=1)
        size = bracket_size(len(seeds))
        empty = tuple((None,) * (size >> r) for r in range(1, size.bit_length()))
        bracket = cls(seeds, playoff_format or PlayoffFormat(), empty)
        if not empty:
            return bracket
        line = bracket._line(1)
        through = tuple(
            top if bottom is None else bottom if top is None else None
            for top, bottom in zip(line[::2], line[1::2], strict=True)
        )
        return replace(bracket, winners=(through, *empty[1:]))

    @property
    def rounds(self) -> int:
        """The number of rounds (0 for a single qualifier)."""
        return len(self.winners)

    @property
    def byes(self) -> tuple[EntrantId, ...]:
        """The qualifiers with a first-round bye, best first."""
        return self.seeds[: bye_count(len(self.seeds))]

    @property
    def champion(self) -> EntrantId | None:
        """The winner of the final; None until it is played."""
        return self.winners[-1][0] if self.winners else self.seeds[0]

    def _line(self, round_number: int) -> tuple[EntrantId | None, ...]:
        """The sides of a round top to bottom, two by two (round 1: the seed order, byes None)."""
        if round_number > 1:
            return self.winners[round_number - 2]
        count = len(self.seeds)
        return tuple(self.seeds[s - 1] if s <= count else None for s in seed_order(2 * len(self.winners[0])))

    def matches(self, round_number: int) -> tuple[BracketMatch, ...]:
        """The matches of a round, top to bottom (round 1: byes included, one side None).

        Raises:
            BracketError: no such round.
        """
        if not 1 <= round_number <= self.rounds:
            raise BracketError(f"round {round_number} of {self.rounds} does not exist", round=round_number)
        line = self._line(round_number)
        best_of = self.playoff_format.best_of_in(round_number)
        return tuple(
            BracketMatch(round_number, k, line[2 * k], line[2 * k + 1], best_of, winner)
            for k, winner in enumerate(self.winners[round_number - 1])
        )

    def pending(self) -> tuple[BracketMatch, ...]:
        """The matches to be played now, earlier rounds first."""
        found = []
        for number, row in enumerate(self.winners, 1):
            line = self._line(number)
            for k, winner in enumerate(row):
                top, bottom = line[2 * k], line[2 * k + 1]
                if winner is None and top is not None and bottom is not None:
                    found.append(BracketMatch(number, k, top, bottom, self.playoff_format.best_of_in(number)))
        return tuple(found)

    def match_of(self, entrant: EntrantId) -> BracketMatch | None:
        """The match ``entrant`` is to play now, or None (waiting, out, champion, or not here).

        Raises:
            EntrantError: ``entrant`` is not an id.
        """
        check_entrant(entrant)
        for number, row in enumerate(self.winners, 1):
            line = self._line(number)
            if entrant not in line:
                return None
            k = line.index(entrant) // 2
            top, bottom = line[2 * k], line[2 * k + 1]
            if row[k] is None:
                if top is None or bottom is None:
                    return None
                return BracketMatch(number, k, top, bottom, self.playoff_format.best_of_in(number))
            if row[k] != entrant:
                return None
        return None

    def advance(self, winner: EntrantId) -> Bracket:
        """This bracket with ``winner``'s match won by ``winner``.

        Raises:
            BracketError: ``winner`` has no match to play now.
        """
        match = self.match_of(winner)
        if match is None:
            raise BracketError(f"entrant {winner!r} has no match to play now", entrant=winner)
        winners = list(self.winners)
        row = list(winners[match.round - 1])
        row[match.index] = winner
        winners[match.round - 1] = tuple(row)
        return replace(self, winners=tuple(winners))

    def record(self, games: Sequence[EntrantId]) -> Bracket:
        """This bracket after a match's games so far (the winner of each, in order): advanced if
        the match is won (:func:`match_winner`), else unchanged (no games: unchanged).

        Raises:
            BracketError: the first game's winner has no match to play now.
            PlayoffMatchError: as :func:`match_winner`.
        """
        if not games:
            return self
        match = self.match_of(games[0])
        if match is None or match.top is None or match.bottom is None:
            raise BracketError(f"entrant {games[0]!r} has no match to play now", entrant=games[0])
        winner = match_winner(match.top, match.bottom, games, match.best_of)
        return self if winner is None else self.advance(winner)
