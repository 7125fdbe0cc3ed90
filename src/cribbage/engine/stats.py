"""Exact statistics of the show: how often each score occurs over every hand and starter.

:func:`hand_distribution` counts, exactly, how many of the ``C(52, 4) * 48 = 12,994,800`` pairs of
a four-card hand and a starter score each number of points (as a hand or as a crib), without
scoring them one by one.  It is the cribbage counterpart of a chess perft table: the numbers are
checked in the tests against ``tests/golden/hand_distribution*.json``, which
``tools/brute_force_distribution.py`` writes by scoring every deal with
:func:`cribbage.engine.scoring.hand_points`.

>>> dist = hand_distribution()
>>> dist.hands, dist.count(29), dist.count(19), round(dist.mean, 4)
(12994800, 4, 0, 4.7692)

The method
----------
A score is the sum of two parts:

* fifteens, pairs and runs, which depend only on the five *ranks*
  (:func:`cribbage.engine.scoring.rank_points`);
* flush and nobs, which depend on the *suits*.

So the deals are grouped by the multiset of ranks in the hand and the rank of the starter (23,647
groups for four-card hands instead of 13 million deals).  The rank part is computed once per
group; the suit part is counted over the group's suit assignments by combinatorics:

1. By the symmetry of the four suits, each suit is the starter's suit in exactly a quarter of
   the deals of a group, so the suit of the starter is fixed (call it *S*) and every count is
   multiplied by 4 at the end.
2. With the starter's suit fixed, a hand with ``c[r]`` cards of rank ``r`` has
   ``C(3, c[s]) * prod(C(4, c[r]) for r != s)`` suit assignments, ``s`` being the starter's rank:
   the hand's cards of rank ``s`` cannot be of suit *S*, which the starter holds.
3. A flush needs every card of the hand in one suit, hence ``n`` distinct ranks.  With distinct
   ranks there is exactly one assignment per suit: the flush in *S* (possible only when the hand
   holds no card of the starter's rank; it also takes in the starter: ``n + 1`` points, in a hand
   or a crib) and three flushes in the other suits (``n`` points in a hand, none in a crib).
4. Nobs needs the jack of suit *S* in the hand, so a hand with ``j >= 1`` jacks and a starter
   that is not a jack has it in ``C(3, j - 1) / C(4, j)`` of its assignments (``j / 4`` of them).
   A starter jack holds the jack of *S* itself, so then no assignment has nobs.
5. Flush and nobs together: among the flushes only the one in *S* can hold the jack of *S*; it
   does exactly when the hand has a jack.  So that flush scores ``n + 1 + 1`` with a jack in the
   hand, and the assignments with nobs but no flush are the nobs assignments less that one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb
from typing import Any, Final

from .cards import JACK
from .errors import RulesError
from .scoring import rank_points

__all__ = ["HAND_SIZES", "HandDistribution", "hand_distribution"]

HAND_SIZES: Final = (3, 4, 5)
"""The hand sizes of the variants: five-card (3), six-card (4) and seven-card (5) cribbage."""


@dataclass(frozen=True, slots=True)
class HandDistribution:
    """How many deals of a hand (or crib) and a starter score each number of points.

    Attributes:
        counts: ``counts[points]`` is the number of deals scoring ``points``, for every score from
            0 to the highest that occurs (scores that never occur, such as 19, count 0).
        crib: whether the hands were scored as a crib (a flush needs the starter's suit too).
        hand_size: the number of cards in the hand, without the starter.
    """

    counts: tuple[int, ...]
    crib: bool = False
    hand_size: int = 4

    @property
    def hands(self) -> int:
        """The number of deals: every hand of ``hand_size`` cards with every other card as starter."""
        return sum(self.counts)

    @property
    def max_score(self) -> int:
        """The highest score that occurs (29 for four-card hands)."""
        return len(self.counts) - 1

    def count(self, points: int) -> int:
        """The number of deals scoring exactly ``points`` (0 for a score that never occurs)."""
        return self.counts[points] if 0 <= points < len(self.counts) else 0

    @property
    def mean_fraction(self) -> Fraction:
        """The exact mean score."""
        return Fraction(sum(points * n for points, n in enumerate(self.counts)), self.hands)

    @property
    def mean(self) -> float:
        """The mean score."""
        return float(self.mean_fraction)

    def items(self) -> Iterator[tuple[int, int]]:
        """``(points, count)`` for every score from 0 to :attr:`max_score`."""
        return iter(enumerate(self.counts))

    def to_json(self) -> dict[str, Any]:
        """``{"hands", "crib", "hand_size", "distribution": {"0": n, ...}, "mean"}``."""
        return {
            "hands": self.hands,
            "crib": self.crib,
            "hand_size": self.hand_size,
            "distribution": {str(points): n for points, n in self.items()},
            "mean": self.mean,
        }


def hand_distribution(crib: bool = False, hand_size: int = 4) -> HandDistribution:
    """The exact distribution of show scores over every hand and starter.

    Args:
        crib: score every hand as a crib (no flush unless the starter matches too).
        hand_size: 4 for the usual game, 3 for five-card cribbage, 5 for seven-card cribbage.

    Raises:
        RulesError: for a hand size other than 3, 4 or 5.

    See the module documentation for the method; it takes a fraction of a second.

    >>> hand_distribution(crib=True).count(28)
    76
    """
    if hand_size not in HAND_SIZES:
        raise RulesError(f"hand size must be 3, 4 or 5, not {hand_size!r}")
    totals: dict[int, int] = {}
    rank_cache: dict[tuple[int, ...], int] = {}

    def add(points: int, deals: int) -> None:
        if deals:
            totals[points] = totals.get(points, 0) + 4 * deals  # 4: the starter's suit (step 1)

    for hand_ranks in combinations_with_replacement(range(1, 14), hand_size):
        held = [0] * 14  # held[r]: the hand's cards of rank r
        for rank in hand_ranks:
            held[rank] += 1
        if max(held) > 4:
            continue
        hand_suitings = 1
        for n in held:
            hand_suitings *= comb(4, n)

        for starter in range(1, 14):
            if held[starter] == 4:
                continue
            ranks = tuple(sorted((*hand_ranks, starter)))
            base = rank_cache.get(ranks)
            if base is None:
                base = rank_cache[ranks] = rank_points(ranks)
            for extra, deals in _suit_deals(held, starter, hand_suitings, hand_size, crib):
                add(base + extra, deals)

    counts = tuple(totals.get(points, 0) for points in range(max(totals) + 1))
    return HandDistribution(counts, crib, hand_size)


def _suit_deals(
    held: list[int], starter: int, hand_suitings: int, hand_size: int, crib: bool
) -> tuple[tuple[int, int], ...]:
    """Steps 2 to 5 for a hand's ranks (``held``: its cards of each rank) and the starter's rank:
    the points the suits add to the ranks' points (nothing, his nobs, a flush) and the number of
    suit assignments that add them, with the starter's suit fixed."""
    same = held[starter]
    distinct = max(held) == 1
    jacks = held[JACK]
    # Step 2: suit assignments of the hand with the starter's suit fixed.
    suitings = hand_suitings // comb(4, same) * comb(3, same)
    # Step 3: flushes.
    flush_in_starter_suit = 1 if distinct and same == 0 else 0
    flush_in_other_suit = 3 if distinct else 0
    # Step 4: nobs, flush or not.
    nobs_possible = jacks > 0 and starter != JACK
    with_nobs = suitings // comb(4, jacks) * comb(3, jacks - 1) if nobs_possible else 0
    # Step 5: the flush in the starter's suit holds the jack of that suit if any jack.
    nobs_in_flush = 1 if jacks else 0
    nobs_no_flush = with_nobs - flush_in_starter_suit * nobs_in_flush
    plain = suitings - flush_in_starter_suit - flush_in_other_suit - nobs_no_flush
    return (
        (0, plain),
        (1, nobs_no_flush),
        (hand_size + 1 + nobs_in_flush, flush_in_starter_suit),
        (0 if crib else hand_size, flush_in_other_suit),
    )
