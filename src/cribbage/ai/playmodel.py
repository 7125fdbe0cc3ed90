"""How the other players choose their card in the play: two readings, learned from their hands.

* :class:`PlayFit`, the points-taker: the card that scores most now, not leaving 5 or 21, a
  lead under 5, else the higher card (:func:`cribbage.ai.search.greedy_gain`), except that it
  slips (plays each card with probability proportional to ``exp(gain)``) as often as the player
  has been seen to, starting at :data:`PLAY_SLIP`.  It reads a player like ``normal`` exactly.
* :class:`PlayModel`, a conditional logit (as in models of choice): each card a player can play
  is rated by a few features of the play (:data:`FEATURES`: the points it takes now, whether it
  leaves the count at 5 or 21, ...) and played with probability proportional to
  ``exp(weights . features)``.  The weights start at :data:`PRIOR`, a soft points-taker, and
  are refitted after each hand to every choice seen (the most likely weights, with a Gaussian
  prior of spread :data:`PRIOR_SPREAD` around :data:`PRIOR`).  It reads a player who plays by
  other rules (one that never minds leaving 21 is soon taken not to).

After each hand every card has been played, so every choice the other players made is known
(:func:`hand_choices`).  A :class:`PlayReader` keeps both readings and scores each by how well
it foretold each hand's choices before it learned from them (the log of the chance it gave
the cards played); the better one is :attr:`PlayReader.reading`.  The reading weighs the other
players' possible cards by what they played (:mod:`cribbage.ai.worlds`,
:mod:`cribbage.ai.belief`) and, when it is a :class:`PlayModel`, the search answers the cards it
gives them (:class:`cribbage.ai.response.BestResponse`).

>>> model = PlayModel()
>>> [round(p, 3) for _, p in model.shares((5, 9), (10,), 10)]  # a five on a ten makes 15
[0.997, 0.003]
>>> model.tops((2, 9, 13), (), 0)  # a lead under 5
(2,)
>>> round(PlayFit().probability([5, 9], (10,), 10, 5), 3)
0.969
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, NamedTuple, Protocol

from ..engine.view import SeatView
from .search import VALUE, greedy_gain, play_points_of_ranks

__all__ = [
    "DEFAULT",
    "FEATURES",
    "PLAY_SLIP",
    "PRIOR",
    "PRIOR_SPREAD",
    "PlayFit",
    "PlayModel",
    "PlayReader",
    "Reading",
    "Seen",
    "features",
    "fit",
    "hand_choices",
    "log_likelihood",
    "next_turn",
    "play_probability",
]

PLAY_SLIP: Final = 0.25
"""How often other players are assumed, at first, not to play the points-taking card."""
PLAY_SHARPNESS: Final = 1.0
"""When they slip, how strongly they are still assumed to prefer the points-taking card."""
PRIOR_CHOICES: Final = 8
""":class:`PlayFit` starts as if it had seen this many choices, a share :data:`PLAY_SLIP` of
them slips."""

FEATURES: Final = (
    "points now",
    "leaves the count at 5 or 21",
    "leaves it at 10, 20 or 25",
    "a lead under 5",
    "the card's pip value / 10",
    "its pip value / 10 when the count passes 25",
    "cards left that can follow",
)
"""What the model looks at in each card a player can play."""
PRIOR: Final = (3.0, -4.5, 0.0, 1.5, 0.3, 0.0, 0.0)
"""The weights before any hand is seen: :func:`~cribbage.ai.search.greedy_gain` (points now,
1.5 less for leaving 5 or 21, half a point for a lead under 5, a hundredth of the pip value),
three times as sharp."""
PRIOR_SPREAD: Final = 1.0
"""How far (one standard deviation) each weight is expected to be from :data:`PRIOR`."""
FIT_STEPS: Final = 8
"""Newton steps of each refit (from the last weights; it converges in a few)."""
_CACHE_LIMIT: Final = 300_000

Row = tuple[float, ...]
Choice = tuple[tuple[Row, ...], int]
"""One choice fitted to: the features of each rank the player could play, and the one it played."""


class Seen(NamedTuple):
    """A choice of card another player made: it held ``held``, the count stood ``at`` on
    ``seq``, and it played ``rank``."""

    held: tuple[int, ...]
    seq: tuple[int, ...]
    at: int
    rank: int


class Reading(Protocol):
    """A model of how a player chooses its card."""

    def probability(self, held: Sequence[int], seq: tuple[int, ...], count: int, rank: int) -> float:
        """The chance that a player holding ``held`` plays ``rank`` on ``seq`` (``count``)."""
        ...


def hand_choices(view: SeatView) -> list[Seen] | None:
    """Every choice between cards the opponents (not a partner) made in the hand just over
    (``view`` at its end, when every card has been played), in order; ``None`` when the hand was not played
    out (nothing can be learned from it) or in lowball (nobody plays for the points)."""
    if view.rules.lowball:
        return None
    holding: list[list[int]] = [[] for _ in range(view.rules.players)]
    for seat, card in view.played:
        holding[seat].append(card.rank)
    seen: list[Seen] = []
    seq: tuple[int, ...] = ()
    count = 0
    for seat, card in view.played:
        held = holding[seat]
        if view.rules.side_of(seat) != view.side:
            ranks = {r for r in held if count + VALUE[r] <= 31}
            if card.rank not in ranks:
                return None
            if len(ranks) > 1:
                seen.append(Seen(tuple(sorted(held)), seq, count, card.rank))
        held.remove(card.rank)
        seq += (card.rank,)
        count += card.value
        if next_turn(holding, seat, count) < 0:
            seq, count = (), 0
    return seen


def play_probability(held: Sequence[int], seq: tuple[int, ...], count: int, rank: int, slip: float) -> float:
    """The chance that a points-taking player holding ``held`` plays ``rank`` on ``seq``.

    The model's card (:func:`~cribbage.ai.search.greedy_gain`, equal ones shared) with
    probability ``1 - slip``; else each playable card in proportion to
    ``exp(PLAY_SHARPNESS * gain)``.
    """
    gains = _gains(held, seq, count)
    if rank not in gains:
        return 0.0
    top = max(gains.values())
    soft = {r: math.exp(PLAY_SHARPNESS * (gain - top)) for r, gain in gains.items()}
    best = [r for r, gain in gains.items() if gain == top]
    chosen = slip * soft[rank] / sum(soft.values())
    if rank in best:
        chosen += (1 - slip) / len(best)
    return chosen


def _gains(held: Sequence[int], seq: tuple[int, ...], count: int) -> dict[int, float]:
    """How the points-taker rates each rank of ``held`` that can be played on ``seq`` (``count``)."""
    return {r: greedy_gain(seq, r, count + VALUE[r]) for r in held if count + VALUE[r] <= 31}


@dataclass(frozen=True, slots=True)
class PlayFit:
    """The points-taker, slipping as often as the other players have been seen to.

    Each choice seen between cards the points-taker rates differently counts as followed or
    slipped; :attr:`slip` starts at :data:`PLAY_SLIP` and moves towards the share of slips.

    >>> PlayFit().slip, PlayFit(choices=24, follows=24).slip
    (0.25, 0.0625)
    """

    choices: int = 0
    follows: int = 0

    @property
    def slip(self) -> float:
        """How often the other players are taken not to play the model's card."""
        return (self.choices - self.follows + PLAY_SLIP * PRIOR_CHOICES) / (self.choices + PRIOR_CHOICES)

    def probability(self, held: Sequence[int], seq: tuple[int, ...], count: int, rank: int) -> float:
        """The chance that a player holding ``held`` plays ``rank`` on ``seq`` (``count``)."""
        return play_probability(held, seq, count, rank, self.slip)

    def learn(self, seen: Sequence[Seen]) -> PlayFit:
        """The fit with the choices ``seen`` added."""
        choices, follows = self.choices, self.follows
        for held, seq, count, rank in seen:
            gains = _gains(held, seq, count)
            top = max(gains.values())
            if any(gain != top for gain in gains.values()):
                choices += 1
                follows += gains[rank] == top
        return PlayFit(choices, follows)


def features(held: Sequence[int], seq: tuple[int, ...], count: int, rank: int) -> Row:
    """The features (:data:`FEATURES`) of playing ``rank`` from ``held`` on ``seq`` (``count``)."""
    total = count + VALUE[rank]
    pips = VALUE[rank] / 10
    left = list(held)
    left.remove(rank)
    return (
        float(play_points_of_ranks((*seq, rank))),
        float(total in (5, 21)),
        float(total in (10, 20, 25)),
        float(not seq and rank < 5),
        pips,
        pips if total > 25 else 0.0,
        float(sum(1 for r in left if VALUE[r] + total <= 31)),
    )


@dataclass(frozen=True, slots=True)
class PlayModel:
    """A model of the other players' choice of card: weights, and the choices they were fitted to.

    Attributes:
        weights: one for each of :data:`FEATURES`.
        choices: the choices seen so far (only those between cards the model tells apart).
    """

    weights: Row = PRIOR
    choices: tuple[Choice, ...] = ()
    _shares: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, float], ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _tops: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def _utilities(self, hand: Sequence[int], seq: tuple[int, ...], count: int) -> dict[int, float]:
        w = self.weights
        return {
            r: sum(a * b for a, b in zip(w, features(hand, seq, count, r), strict=True))
            for r in sorted(set(hand))
            if count + VALUE[r] <= 31
        }

    def shares(
        self, hand: tuple[int, ...], seq: tuple[int, ...], count: int
    ) -> tuple[tuple[int, float], ...]:
        """The chance of each rank a player holding ``hand`` (sorted) plays on ``seq`` (``count``),
        by rank; empty when it cannot play."""
        key = (hand, seq)
        got = self._shares.get(key)
        if got is None:
            utilities = self._utilities(hand, seq, count)
            if utilities:
                top = max(utilities.values())
                odds = {r: math.exp(u - top) for r, u in utilities.items()}
                total = sum(odds.values())
                got = tuple((r, o / total) for r, o in odds.items())
            else:
                got = ()
            if len(self._shares) > _CACHE_LIMIT:
                self._shares.clear()
            self._shares[key] = got
        return got

    def probability(self, held: Sequence[int], seq: tuple[int, ...], count: int, rank: int) -> float:
        """The chance that a player holding ``held`` plays ``rank`` on ``seq`` (``count``)."""
        for r, p in self.shares(tuple(sorted(held)), seq, count):
            if r == rank:
                return p
        return 0.0

    def tops(self, hand: tuple[int, ...], seq: tuple[int, ...], count: int) -> tuple[int, ...]:
        """The ranks the model rates best for ``hand`` (sorted) on ``seq`` (``count``); ranks
        that tie (a ten and a king that score alike) are all given."""
        key = (hand, seq)
        got = self._tops.get(key)
        if got is None:
            utilities = self._utilities(hand, seq, count)
            top = max(utilities.values(), default=0.0)
            got = tuple(r for r, u in utilities.items() if u > top - 1e-9)
            if len(self._tops) > _CACHE_LIMIT:
                self._tops.clear()
            self._tops[key] = got
        return got

    def forget(self) -> None:
        """Empty the memos of :meth:`shares` and :meth:`tops` (they fill as a hand is searched:
        hundreds of KiB; what the model learned stays)."""
        self._shares.clear()
        self._tops.clear()

    def learn(self, seen: Sequence[Seen]) -> PlayModel:
        """The model refitted with the choices ``seen`` added."""
        new: list[Choice] = []
        for held, seq, count, rank in seen:
            ranks = sorted({r for r in held if count + VALUE[r] <= 31})
            rows = tuple(features(held, seq, count, r) for r in ranks)
            if len(set(rows)) > 1:
                new.append((rows, ranks.index(rank)))
        if not new:
            return self
        choices = self.choices + tuple(new)
        return PlayModel(fit(choices, self.weights), choices)


DEFAULT: Final = PlayModel()
"""The model before any hand is seen (:data:`PRIOR`)."""


@dataclass(frozen=True, slots=True)
class PlayReader:
    """Both readings of the other players' play, each scored by how well it foretold them.

    Attributes:
        fit: the points-taker, slipping as often as seen (:class:`PlayFit`).
        model: the learned logit (:class:`PlayModel`).
        fit_score: the log of the chance ``fit`` gave each choice seen, before learning from it.
        model_score: the same for ``model``.

    >>> PlayReader().reading
    PlayFit(choices=0, follows=0)
    """

    fit: PlayFit = PlayFit()
    model: PlayModel = DEFAULT
    fit_score: float = 0.0
    model_score: float = 0.0

    @property
    def reading(self) -> PlayFit | PlayModel:
        """The reading that has foretold the choices better (at first, :attr:`fit`)."""
        return self.model if self.model_score > self.fit_score else self.fit

    def after_hand(self, view: SeatView) -> PlayReader:
        """The readings scored on, then taught, the other seats' choices in the hand just over
        (``view`` at its end, when every card has been played)."""
        seen = hand_choices(view)
        if not seen:
            return self
        return PlayReader(
            self.fit.learn(seen),
            self.model.learn(seen),
            self.fit_score + sum(math.log(self.fit.probability(*s)) for s in seen),
            self.model_score + sum(math.log(self.model.probability(*s)) for s in seen),
        )


def log_likelihood(weights: Row, choices: Sequence[Choice]) -> float:
    """How well ``weights`` explain ``choices``: the log of the chance of the cards played."""
    total = 0.0
    for rows, chosen in choices:
        us = [sum(a * b for a, b in zip(weights, row, strict=True)) for row in rows]
        top = max(us)
        total += us[chosen] - top - math.log(sum(math.exp(u - top) for u in us))
    return total


def fit(choices: Sequence[Choice], start: Row = PRIOR) -> Row:
    """The most likely weights for ``choices`` with the prior, by Newton's method from ``start``.

    >>> rows = ((2.0, 0, 0, 0, 0.5, 0, 0), (0.0, 0, 0, 0, 0.9, 0, 0))  # 15-2 with a five, or a nine
    >>> fit([(rows, 1)] * 12)[0] < PRIOR[0]  # it kept playing the nine: points matter less to it
    True
    """
    w = list(start)
    n = len(w)
    precision = 1 / PRIOR_SPREAD**2
    for _ in range(FIT_STEPS):
        grad = [-(w[k] - PRIOR[k]) * precision for k in range(n)]
        hess = [[precision if i == j else 0.0 for j in range(n)] for i in range(n)]  # minus the Hessian
        for rows, chosen in choices:
            us = [sum(a * b for a, b in zip(w, row, strict=True)) for row in rows]
            top = max(us)
            odds = [math.exp(u - top) for u in us]
            total = sum(odds)
            ps = [o / total for o in odds]
            mean = [sum(p * row[k] for p, row in zip(ps, rows, strict=True)) for k in range(n)]
            for k in range(n):
                grad[k] += rows[chosen][k] - mean[k]
            for p, row in zip(ps, rows, strict=True):
                d = [row[k] - mean[k] for k in range(n)]
                for i in range(n):
                    if d[i]:
                        for j in range(n):
                            hess[i][j] += p * d[i] * d[j]
        step = _solve(hess, grad)
        # Newton's step can overshoot where the choices are nearly certain: halve it until the
        # fit improves.
        now = _objective(w, choices, precision)
        for _ in range(20):
            trial = [a + b for a, b in zip(w, step, strict=True)]
            if _objective(trial, choices, precision) >= now:
                break
            step = [s / 2 for s in step]
        else:
            break
        w = trial
        if max(abs(s) for s in step) < 1e-6:
            break
    return tuple(round(x, 6) for x in w)


def _objective(w: Sequence[float], choices: Sequence[Choice], precision: float) -> float:
    """The log of the chance of the choices, plus the prior's."""
    prior = sum((a - b) ** 2 for a, b in zip(w, PRIOR, strict=True)) * precision / 2
    return log_likelihood(tuple(w), choices) - prior


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (``a`` symmetric positive definite), by Gaussian elimination."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def next_turn(holding: list[list[int]], last: int, count: int) -> int:
    """The next seat to play after ``last`` at ``count``, or -1 when the count starts again."""
    n = len(holding)
    if count < 31:
        for i in range(1, n + 1):
            seat = (last + i) % n
            if any(VALUE[r] + count <= 31 for r in holding[seat]):
                return seat
    return -1
