"""The computer players: ``weak``, ``normal`` and ``strong``.

Each decides from its seat's :class:`~cribbage.engine.view.SeatView` only, with its own seeded
generator, in every variant (two to four players, three- to five-card hands, manual counting
with muggins, lowball).

* ``weak`` plays like a beginner: it keeps one of the better half of the keeps by what they
  score on their own, plays a scoring card when it sees one (else any card), walks into
  15s and 31s, and forgets a combination in one count out of five.
* ``normal`` is the computer of the seed rules: it keeps the cards that score most on their own
  (fifteens, pairs, runs, a hand flush; no starter, no crib) and plays the card that scores most
  now, avoiding a count of 5 or 21.
* ``strong`` keeps by expected value (:func:`cribbage.ai.discard_options`: the exact average hand
  over the starters, the crib from the tables, the keep's value in the play), and near the end of
  a game of two sides (two players, lowball too, or partners) by its chance of winning.  It
  plays (:func:`cribbage.ai.play_options`) with two players by the best response to a guess at
  the opponent's hand drawn from everything seen (:mod:`cribbage.ai.response`), for the win
  when the game may end in the hand; with three by the best response to a guess at the other
  hands (searching sampled deals of the unseen cards when the game may end in the hand); with
  four by searching sampled deals.

All count truthfully except ``weak``'s slips, and call muggins on exactly the points a count
missed.  Each draws its chances from its seed and the position in the game
(:class:`~cribbage.players.base.SeededPlayer`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Final

from ..ai.advice import keep_advice
from ..ai.counting import claim_with_slips, missed_points, play_combos_now, show_count
from ..ai.pegging import NODE_BUDGET, best_play
from ..ai.playmodel import DEFAULT as DEFAULT_MODEL
from ..ai.playmodel import PlayReader
from ..ai.tables import key_points
from ..ai.worlds import splits
from ..engine.actions import Action, Count, Discard, Muggins, Pass, Play
from ..engine.cards import Card, card_order
from ..engine.rules import Rules
from ..engine.scoring import play_points
from ..engine.view import SeatView
from .base import SeededPlayer

__all__ = ["LEVELS", "ComputerPlayer", "NormalPlayer", "StrongPlayer", "WeakPlayer"]

TRAPS: Final = (5, 21)
"""Counts a ten-card (16 of the 52) turns into 15 or 31."""


class ComputerPlayer(SeededPlayer):
    """The shared part of the levels: dispatch on the kind of decision, count, call muggins.

    Subclasses choose the discard (:meth:`discard`) and the card (:meth:`play`).
    """

    slips: float = 0.0
    """Chance of forgetting one combination in a count."""

    def choose(self, view: SeatView) -> Action:
        self.step = view.step
        first = view.legal[0]
        seat = view.seat
        if isinstance(first, (Pass, Muggins)):
            missed = missed_points(view)
            return Muggins(seat, missed) if missed and not view.rules.lowball else Pass(seat)
        if isinstance(first, Discard):
            return Discard(seat, tuple(sorted(self.discard(view))))
        if isinstance(first, Count):
            return Count(seat, claim_with_slips(show_count(view), self.rng, self.slips))
        assert isinstance(first, Play), f"unexpected decision {first}"
        card = self.play(view)
        if first.claim is None:
            return Play(seat, card)
        return Play(seat, card, claim_with_slips(play_combos_now(view, card), self.rng, self.slips))

    def discard(self, view: SeatView) -> tuple[Card, ...]:
        raise NotImplementedError

    def play(self, view: SeatView) -> Card:
        raise NotImplementedError


class _ByRankKey(dict[int, int]):
    """A number per multiset of ranks, by its key (:func:`~cribbage.ai.tables.rank_key`), filled on use."""

    def __init__(self, fill: Callable[[int], int]) -> None:
        super().__init__()
        self.fill = fill

    def __missing__(self, key: int) -> int:
        value = self[key] = self.fill(key)
        return value


def _normal_score(key: int, weight: int) -> int:
    """How ``normal`` ranks a keep (higher is better) by its ranks, as one number.

    First its points on their own, times ``weight`` (negative in lowball; a flush is added by the
    caller); then its potential: fives, and pairs of cards close enough in rank to make a run
    with a starter; then the lower pip total (low cards are the easier to peg with).
    """
    ranks = [r for r in range(1, 14) for _ in range(key >> 3 * (r - 1) & 7)]
    close = sum(1 for a, b in combinations(ranks, 2) if 0 < abs(a - b) <= 2)
    potential = ranks.count(5) + close  # at most 5 + 10
    return weight * key_points(key) + potential * 64 + 63 - sum(min(r, 10) for r in ranks)


_POINTS_WEIGHT: Final = 1024
"""Above any potential and pip total (at most 15 * 64 + 63), so points always come first."""
_STANDALONE: Final = _ByRankKey(key_points)
_NORMAL_SCORE: Final = _ByRankKey(lambda key: _normal_score(key, _POINTS_WEIGHT))
_NORMAL_SCORE_LOWBALL: Final = _ByRankKey(lambda key: _normal_score(key, -_POINTS_WEIGHT))


def _keep_keys(hand: Sequence[Card], discard: int) -> list[int]:
    """The rank key of the keep of every split of ``hand``, in the order of :func:`.splits`.

    By integers rather than card by card, since the ``normal`` and ``weak`` players weigh every
    keep of every deal: a keep's key is the hand's key minus the thrown cards' rank bits.
    """
    bits = [c.rank_bit for c in hand]
    total = sum(bits)
    if discard == 2:
        return [total - a - b for a, b in combinations(bits, 2)]
    return [total - sum(thrown) for thrown in combinations(bits, discard)]


def _flushes(hand: Sequence[Card], discard: int) -> list[tuple[int, int]]:
    """(split, points) for each keep of ``hand`` that is a flush; looked for only when one suit
    holds enough cards for a whole keep."""
    size = len(hand) - discard
    counts = [0, 0, 0, 0]
    for card in hand:
        counts[card.suit] += 1
    if max(counts) < size:
        return []
    suits = [c.suit for c in hand]
    return [
        (k, size)
        for suit in range(4)
        if counts[suit] >= size
        for k, (kept, _) in enumerate(splits(len(hand), discard))
        if all(suits[i] == suit for i in kept)
    ]


def _legal_cards(view: SeatView) -> list[Card]:
    """The cards the view may play, in card order (the legal plays are sorted by card)."""
    return list(dict.fromkeys(a.card for a in view.legal if isinstance(a, Play)))


class _GreedyPlayer(ComputerPlayer):
    """``weak`` and ``normal``: decisions from the hand, the count and the cards of the count.

    They need nothing else from the view, so :meth:`throw` and :meth:`card` take just that:
    :mod:`cribbage.table.playout` asks them directly, without a view, and gets the same decisions
    (drawing on :attr:`rng` in the same order) as a game played with the engine.
    """

    def discard(self, view: SeatView) -> tuple[Card, ...]:
        return self.throw(sorted(view.hand, key=card_order), view.rules)

    def play(self, view: SeatView) -> Card:
        return self.card(_legal_cards(view), view.sequence, view.count, view.rules)

    def throw(self, hand: Sequence[Card], rules: Rules) -> tuple[Card, ...]:
        """The cards to throw from ``hand`` (sorted by card)."""
        raise NotImplementedError

    def card(self, cards: Sequence[Card], sequence: Sequence[Card], count: int, rules: Rules) -> Card:
        """The card to play of ``cards`` (the playable ones, sorted) onto ``sequence`` at ``count``."""
        raise NotImplementedError


class WeakPlayer(_GreedyPlayer):
    """A beginner: plausible choices, a beginner's mistakes."""

    slips = 0.2

    def throw(self, hand: Sequence[Card], rules: Rules) -> tuple[Card, ...]:
        points = [_STANDALONE[key] for key in _keep_keys(hand, rules.discard)]
        for k, flush in _flushes(hand, rules.discard):
            points[k] += flush
        sign = -1 if rules.lowball else 1
        ranked = sorted(range(len(points)), key=lambda k: -sign * points[k])
        better_half = ranked[: (len(ranked) + 1) // 2]
        thrown = splits(len(hand), rules.discard)[self.rng.choice(better_half)][1]
        return tuple(hand[i] for i in thrown)

    def card(self, cards: Sequence[Card], sequence: Sequence[Card], count: int, rules: Rules) -> Card:
        scoring = [c for c in cards if play_points((*sequence, c), count + c.value)]
        if scoring and not rules.lowball and self.rng.random() < 0.8:
            return self.rng.choice(scoring)
        return self.rng.choice(cards)


class NormalPlayer(_GreedyPlayer):
    """The computer the seed rules describe: the best standalone keep, greedy pegging.

    It uses no chance: equal keeps are told apart as :func:`_normal_score` says, then by card order.
    """

    def throw(self, hand: Sequence[Card], rules: Rules) -> tuple[Card, ...]:
        table, weight = (
            (_NORMAL_SCORE_LOWBALL, -_POINTS_WEIGHT) if rules.lowball else (_NORMAL_SCORE, _POINTS_WEIGHT)
        )
        scores = [table[key] for key in _keep_keys(hand, rules.discard)]
        for k, flush in _flushes(hand, rules.discard):
            scores[k] += weight * flush
        thrown = splits(len(hand), rules.discard)[scores.index(max(scores))][1]
        return tuple(hand[i] for i in thrown)

    def card(self, cards: Sequence[Card], sequence: Sequence[Card], count: int, rules: Rules) -> Card:
        # Score most now; avoid leaving 5 or 21 (worth 1.5 points); lead under 5; else play the
        # highest card, keeping the low ones for later.  As one number: twice the points less 3
        # for a trap, then the safe lead, then the card's value (under 16).
        sign = -2 if rules.lowball else 2
        leading = not sequence
        best, best_score = cards[0], -(1 << 30)
        trial = [*sequence, best]  # the count with each card in turn
        for card in cards:
            trial[-1] = card
            value = card.value
            total = count + value
            score = sign * play_points(trial, total) - 3 * (total in TRAPS)
            score = (score * 2 + (leading and value < 5)) * 16 + value
            if score > best_score:
                best, best_score = card, score
        return best


class StrongPlayer(ComputerPlayer):
    """Expected-value discards and a searched play, playing to win near the end.

    ``budget`` is the number of search nodes per card played (see :func:`play_options`).  It
    reads the others' cards, and answers their plays, by the reading of how they choose their
    card that has foretold their plays best so far (:class:`~cribbage.ai.playmodel.PlayReader`),
    learned when told of each hand's end (:meth:`observe`).
    """

    def __init__(self, seed: int | None = None, budget: int = NODE_BUDGET) -> None:
        super().__init__(seed)
        self.budget = budget
        self.reader = PlayReader()

    def observe(self, view: SeatView) -> None:
        """Learn from a hand just over how the others choose their card."""
        self.reader = self.reader.after_hand(view)

    def trim(self) -> None:
        """Drop what a decision memoized and the next can compute again (the learned model's
        memos), keeping what was learned: the table calls it whenever it stops for a person."""
        if self.reader.model is not DEFAULT_MODEL:  # the unlearned model's memos are shared
            self.reader.model.forget()

    def discard(self, view: SeatView) -> tuple[Card, ...]:
        return keep_advice(view)[0].discard  # the hint's first keep

    def play(self, view: SeatView) -> Card:
        cards = _legal_cards(view)
        if len({c.rank for c in cards}) == 1:
            return cards[0]
        return best_play(view, seed=self.rng, budget=self.budget, reading=self.reader.reading)


LEVELS: Final[dict[str, type[ComputerPlayer]]] = {
    "weak": WeakPlayer,
    "normal": NormalPlayer,
    "strong": StrongPlayer,
}
"""The computer levels by name, weakest first: the one list of the levels players are offered."""
