"""What the ratings in the database give and take: the stored rating, its history, what a game
left, what an account did (:mod:`.ratings` reads and writes them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Row

from ..engine.errors import CribbageError
from .rows import _utc

__all__ = [
    "GamePlay",
    "GameRating",
    "PlayTotals",
    "RatingRecordError",
    "Rerate",
    "Standing",
    "StoredHistoryPoint",
    "StoredRating",
]


class RatingRecordError(CribbageError):
    """A game that cannot be recorded as given: an account twice, or ``rerate`` answering for
    other accounts than the game's.  Nothing was written."""

    code = "illegal.rating"


class Standing(Protocol):
    """A rating as :meth:`.ratings.RatingRows.record` writes it
    (:class:`cribbage.app.people.ratings.Rating` is one)."""

    @property
    def mu(self) -> float: ...
    @property
    def sigma(self) -> float: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def shown(self) -> float: ...
    @property
    def ordinal(self) -> float: ...


@dataclass(frozen=True, slots=True)
class StoredRating:
    """One row of ``ratings``: an account's rating in a pool."""

    account_id: str
    pool: str
    mu: float
    sigma: float
    ordinal: float
    """The conservative shown number, the leaderboard's order."""
    games: int
    wins: int
    updated: datetime


@dataclass(frozen=True, slots=True)
class StoredHistoryPoint:
    """An account's rating in a pool after one game: a point of its profile's graph."""

    game_id: str
    mu: float
    sigma: float
    shown: float
    at: datetime
    won: bool | None = None
    """Whether the account's side alone came first (None: a game recorded before this was kept)."""


@dataclass(frozen=True, slots=True)
class GameRating:
    """An account's rating after a recorded game, and before it (None: its pool's first game)."""

    account_id: str
    pool: str
    shown: float
    before: float | None

    @property
    def change(self) -> int | None:
        """The change of the rating as shown (whole points, as a profile's recent games show it);
        None for the pool's first game."""
        return None if self.before is None else round(self.shown) - round(self.before)


Rerate = Callable[[Mapping[str, StoredRating]], Mapping[str, Standing]]
"""What :meth:`.ratings.RatingRows.record` asks for the new ratings: given the stored ratings of
the game's accounts in its pool (an account with none yet is missing), the rating of every
account after the game."""


@dataclass(frozen=True, slots=True)
class GamePlay:
    """What an account did in a rated game: the deals played, its seat's points by source, and
    the skunk (``+n`` given, ``-n`` taken, 0 none)."""

    deals: int
    pegging: int
    hand: int
    crib: int
    skunk: int


@dataclass(frozen=True, slots=True)
class PlayTotals:
    """The sums of an account's :class:`GamePlay` in a pool (the games recorded with it)."""

    pool: str
    games: int
    deals: int
    pegging: int
    hand: int
    crib: int
    skunks_given: int
    skunks_taken: int


def stored_rating(row: Row[Any]) -> StoredRating:
    """A row of ``ratings`` as a :class:`StoredRating`."""
    return StoredRating(
        row.account_id, row.pool, row.mu, row.sigma, row.ordinal, row.games, row.wins, _utc(row.updated)
    )
