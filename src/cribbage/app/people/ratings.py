"""Ratings of people in games between people: one number per pool, with its uncertainty.

The model is openskill's Plackett-Luce (a Bayesian rating in the family of TrueSkill): each
account has, in each pool, a skill estimate ``mu`` and its uncertainty ``sigma``; a game ranks
its sides (two players, three for themselves, or two partnerships) and moves every estimate
towards what the ranking says, each by how sure it is.  ``docs/ratings.md`` explains the choices
and how many games the rating needs to order players.

* A **pool** is one kind of game (:data:`~.rating_pools.POOLS`): a rating earned at five-card
  does not say how one plays three-handed.  :func:`~.rating_pools.pool_of` finds a game's pool
  from its rules.
* The **shown** number is ``1500 + SCALE * (mu - 25)``, with an uncertainty of
  ``2 * SCALE * sigma`` (about 95% sure); a new account shows 1500 ± 500.  The leaderboard
  orders by the conservative :attr:`Rating.ordinal`, the shown number minus its uncertainty.
* A rating is **provisional** until :data:`PROVISIONAL_GAMES` games.
* Whoever left, timed out or conceded loses: their side ranks last, the others by their result.

>>> from cribbage.engine.rules import get_rules
>>> outcome = Outcome.of_game(get_rules("standard"), accounts=["7", "9"], scores=[121, 96], winner=0)
>>> after = rate({}, outcome)
>>> after["7"].shown > 1500 > after["9"].shown, after["7"].games, after["7"].wins, after["9"].wins
(True, 1, 1, 0)
>>> after["7"].provisional, round(Rating().shown), round(Rating().uncertainty)
(True, 1500, 500)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from ...engine.rules import Rules
from ...storage import StoredRating
from .rating_pools import POOLS, RatingError, pool_of

__all__ = [
    "MU",
    "PROVISIONAL_GAMES",
    "SCALE",
    "SIGMA",
    "Outcome",
    "OutcomeError",
    "Rating",
    "Side",
    "rate",
    "rerater",
]

MODEL: Final = PlackettLuce()
"""openskill's Plackett-Luce with its defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""

MU: Final[float] = MODEL.mu
SIGMA: Final[float] = MODEL.sigma

SCALE: Final = 30.0
"""Shown points per unit of ``mu``: 400 points are about 10:1 odds between two settled players
(``400 / (sqrt(2) * beta * ln 10)`` = 29.5, rounded), as in Elo."""

BASE: Final = 1500.0
"""The shown number of a new account (``mu`` = 25)."""

PROVISIONAL_GAMES: Final = 20
"""A rating of fewer games than this is provisional (shown with a ``?``)."""


class OutcomeError(RatingError):
    """A game's outcome that does not fit its pool, or names an account twice."""

    code = "illegal.rating.outcome"


# --------------------------------------------------------------------------- ratings


@dataclass(frozen=True, slots=True)
class Rating:
    """An account's rating in one pool: the skill estimate ``mu``, its uncertainty ``sigma``,
    and the games it rests on and how many of them were won.

    >>> Rating(27.5, 6.0, games=3, wins=2)
    Rating(mu=27.5, sigma=6.0, games=3, wins=2)
    >>> Rating(27.5, 6.0, games=3, wins=2).shown, Rating(27.5, 6.0, games=3, wins=2).ordinal
    (1575.0, 1215.0)
    """

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0

    def __post_init__(self) -> None:
        if not (isinstance(self.mu, float | int) and math.isfinite(self.mu)):
            raise RatingError(f"mu must be a finite number, not {self.mu!r}")
        if not (isinstance(self.sigma, float | int) and math.isfinite(self.sigma) and self.sigma > 0):
            raise RatingError(f"sigma must be a finite number above 0, not {self.sigma!r}")
        if not _is_count(self.games) or not _is_count(self.wins) or self.wins > self.games:
            raise RatingError(
                f"games and wins must be counts, wins at most games, not {self.games}, {self.wins}"
            )

    @property
    def shown(self) -> float:
        """The number shown: 1500 for a new account, :data:`SCALE` points per unit of ``mu``."""
        return BASE + SCALE * (self.mu - MU)

    @property
    def uncertainty(self) -> float:
        """How far the shown number may be off, either way (two sigmas: about 95% sure)."""
        return 2 * SCALE * self.sigma

    @property
    def ordinal(self) -> float:
        """The conservative shown number, what the leaderboard orders by: the shown number minus
        its uncertainty (so an account with few games ranks low until it has shown its level)."""
        return self.shown - self.uncertainty

    @property
    def provisional(self) -> bool:
        """Fewer than :data:`PROVISIONAL_GAMES` games."""
        return self.games < PROVISIONAL_GAMES


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


_NEW: Final = Rating()
"""The rating of an account's first game in a pool."""


# --------------------------------------------------------------------------- outcomes


@dataclass(frozen=True, slots=True)
class Side:
    """One score of a finished game: the accounts sharing it (one, or two partners), the final
    score, and whether one of them left, timed out or conceded (the side then loses)."""

    accounts: tuple[str, ...]
    score: int
    left: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game as the ratings see it: its pool, its sides, and the side that won (None
    when the game ended because someone left before anyone won).

    Raises:
        OutcomeError: sides that do not fit the pool, an account named twice, a bad score, no
            winner though nobody left, or everyone left.
    """

    pool: str
    sides: tuple[Side, ...]
    winner: int | None = None

    def __post_init__(self) -> None:
        pool = POOLS.get(self.pool)
        if pool is None:
            raise OutcomeError(f"unknown pool {self.pool!r} (known: {', '.join(POOLS)})", pool=self.pool)
        if len(self.sides) != pool.sides or any(len(side.accounts) != pool.side_size for side in self.sides):
            sizes = [len(side.accounts) for side in self.sides]
            raise OutcomeError(
                f"pool {self.pool} has {pool.sides} sides of {pool.side_size}, not sides of {sizes}",
                pool=self.pool,
            )
        accounts = [account for side in self.sides for account in side.accounts]
        for account in accounts:
            if not isinstance(account, str) or not account:
                raise OutcomeError(f"an account is its id (text), not {account!r}")
        if len(set(accounts)) != len(accounts):
            twice = next(a for a in accounts if accounts.count(a) > 1)
            raise OutcomeError(f"account {twice} sits in the game twice", account=twice)
        if not all(_is_count(side.score) for side in self.sides):
            raise OutcomeError(f"scores must be counts, not {[side.score for side in self.sides]}")
        if self.winner is not None and not (
            isinstance(self.winner, int) and 0 <= self.winner < len(self.sides)
        ):
            raise OutcomeError(f"the winner must be a side 0 to {len(self.sides) - 1}, not {self.winner!r}")
        if self.winner is None and not any(side.left for side in self.sides):
            raise OutcomeError("a game nobody left has a winner")
        if all(side.left for side in self.sides):
            raise OutcomeError("everyone left: there is nothing to rate")

    @classmethod
    def of_game(
        cls,
        rules: Rules,
        accounts: Sequence[str],
        scores: Sequence[int],
        winner: int | None,
        left: Iterable[int] = (),
    ) -> Outcome:
        """The outcome of a game with these rules: ``accounts`` by seat, ``scores`` and
        ``winner`` by side (as the engine has them), ``left`` the seats whose person left, timed
        out or conceded.

        >>> from cribbage.engine.rules import get_rules
        >>> Outcome.of_game(get_rules("four-player"), ["1", "2", "3", "4"], [121, 80], 0).sides
        (Side(accounts=('1', '3'), score=121, left=False), Side(accounts=('2', '4'), score=80, left=False))

        Raises:
            UnratedRules: the rules are in no pool.
            OutcomeError: as :class:`Outcome`, or accounts, scores or seats that do not fit.
        """
        if len(accounts) != rules.players or len(scores) != rules.sides:
            raise OutcomeError(
                f"{rules.name} has {rules.players} seats and {rules.sides} scores, "
                f"not {len(accounts)} and {len(scores)}"
            )
        gone = frozenset(left)
        if not gone <= set(range(rules.players)):
            raise OutcomeError(f"the seats that left must be 0 to {rules.players - 1}, not {sorted(gone)}")
        sides = tuple(
            Side(
                tuple(accounts[seat] for seat in range(rules.players) if rules.side_of(seat) == side),
                scores[side],
                any(rules.side_of(seat) == side for seat in gone),
            )
            for side in range(rules.sides)
        )
        return cls(pool_of(rules), sides, winner)

    @property
    def accounts(self) -> tuple[str, ...]:
        """Every account of the game, side by side."""
        return tuple(account for side in self.sides for account in side.accounts)

    def ranks(self) -> tuple[int, ...]:
        """Each side's place, 0 the best, equal places for a tie: the sides that left last; of
        the others the winner first (unless it left), then by score (lowball: the lower first).

        >>> sides = (Side(("1",), 121), Side(("2",), 110, left=True), Side(("3",), 96))
        >>> Outcome("three", sides, winner=0).ranks()
        (0, 2, 1)
        >>> tied = (Side(("1",), 110), Side(("2",), 118, left=True), Side(("3",), 110))
        >>> Outcome("three", tied).ranks()  # the game ended when 2 left: 1 and 3 tie
        (0, 1, 0)
        """
        lower_wins = POOLS[self.pool].lower_wins
        stayed = [index for index, side in enumerate(self.sides) if not side.left]
        first = self.winner if self.winner in stayed else None

        def key(index: int) -> tuple[int, int]:
            score = self.sides[index].score
            return (index != first, score if lower_wins else -score)

        keys = sorted({key(index) for index in stayed})
        ranks = [len(keys)] * len(self.sides)
        for index in stayed:
            ranks[index] = keys.index(key(index))
        return tuple(ranks)


def rate(pool_ratings: Mapping[str, Rating], outcome: Outcome) -> dict[str, Rating]:
    """The new ratings of every account of a game, from their ratings in its pool before it (an
    account missing from ``pool_ratings`` is new: :class:`Rating`'s defaults; accounts not in
    the game are ignored).  Each account's games go up by one, its wins when its side alone
    ranks first.

    >>> from cribbage.engine.rules import get_rules
    >>> outcome = Outcome.of_game(get_rules("three-player"), ["1", "2", "3"], [121, 100, 117], winner=0)
    >>> after = rate({}, outcome)
    >>> sorted(after, key=lambda account: -after[account].shown)
    ['1', '3', '2']

    Raises:
        RatingError: a rating of ``pool_ratings`` that is not a :class:`Rating`.
    """
    before = {account: pool_ratings.get(account, _NEW) for account in outcome.accounts}
    for account, rating in before.items():
        if not isinstance(rating, Rating):
            raise RatingError(f"the rating of account {account} is not a Rating: {rating!r}", account=account)
    ranks = outcome.ranks()
    teams = [[MODEL.rating(before[a].mu, before[a].sigma) for a in side.accounts] for side in outcome.sides]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    alone_first = ranks.count(0) == 1
    after = {}
    for side, team, rank in zip(outcome.sides, rated, ranks, strict=True):
        won = int(rank == 0 and alone_first)
        for account, new in zip(side.accounts, team, strict=True):
            old = before[account]
            after[account] = Rating(float(new.mu), float(new.sigma), old.games + 1, old.wins + won)
    return after


def rerater(outcome: Outcome) -> Callable[[Mapping[str, StoredRating]], dict[str, Rating]]:
    """The ``rerate`` that :meth:`cribbage.storage.ratings.RatingRows.record` asks for a game: from
    the stored ratings of its accounts, their ratings after it (:func:`rate`).

    >>> from cribbage.engine.rules import get_rules
    >>> outcome = Outcome.of_game(get_rules("short"), ["1", "2"], [61, 40], winner=0)
    >>> rerater(outcome)({"1": Rating(30.0, 2.0, 50, 40)})["1"].games
    51
    """

    def rerate(kept: Mapping[str, StoredRating]) -> dict[str, Rating]:
        before = {account: Rating(r.mu, r.sigma, r.games, r.wins) for account, r in kept.items()}
        return rate(before, outcome)

    return rerate
