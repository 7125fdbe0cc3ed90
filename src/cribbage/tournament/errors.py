"""The exceptions of the tournament rules.

Every one is a :class:`TournamentError`, itself a :class:`~cribbage.engine.errors.CribbageError`
and so a :class:`ValueError`: ``except ValueError`` catches any bad input, the subclasses say
which kind it was, and each carries a stable :attr:`~cribbage.engine.errors.CribbageError.code`
and the :attr:`~cribbage.engine.errors.CribbageError.values` it names (the entrant, the count),
for an interface to word in its own language.

>>> from cribbage.tournament.entrants import check_entrants
>>> try:
...     check_entrants(["ann", "bob", "ann"])
... except EntrantError as exc:
...     print(exc.code, exc.values, exc)
illegal.tournament.entrant {'problem': 'duplicate', 'entrant': 'ann'} entrant 'ann' is entered twice
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from ..engine.errors import CribbageError

__all__ = [
    "BracketError",
    "EntrantError",
    "EntrantProblem",
    "GameScoreError",
    "PairingError",
    "PlayoffMatchError",
    "TournamentError",
]

EntrantProblem: TypeAlias = Literal["invalid", "duplicate", "unknown", "self", "count"]
"""What is wrong with an entrant: an id that is neither a string nor an int, one entered twice,
one not in the field, one paired with itself, or too few entrants."""


class TournamentError(CribbageError):
    """Bad input to the tournament rules of no more precise kind (a negative time)."""

    code = "illegal.tournament"


class EntrantError(TournamentError):
    """An entrant id that is not a string or an int, is entered twice, is not in the field or
    meets itself; or a field too small.

    Attributes:
        problem: which of those (:data:`EntrantProblem`).
        entrant: the offending id, or None for ``"count"``.
    """

    code = "illegal.tournament.entrant"

    def __init__(self, message: str, *, problem: EntrantProblem, entrant: object = None) -> None:
        values = {"problem": problem} | ({} if entrant is None else {"entrant": entrant})
        super().__init__(message, **values)
        self.problem = problem
        self.entrant = entrant


class GameScoreError(TournamentError):
    """A finished game's score that is not a win: a tie, a negative score, the winner below the
    loser, or a skunk line that is not positive."""

    code = "illegal.tournament.score"


class PairingError(TournamentError):
    """Pairings that cannot be made: more games than the field allows without a third meeting,
    or no round without one."""

    code = "illegal.tournament.pairing"


class BracketError(TournamentError):
    """A bracket that cannot be built (no qualifier) or a result it cannot take (an entrant with
    no match to play)."""

    code = "illegal.tournament.bracket"


class PlayoffMatchError(TournamentError):
    """A playoff match's games that cannot be: a game won by someone not in the match, a game
    after the match was won, or a length that is not an odd number of games."""

    code = "illegal.tournament.match"
