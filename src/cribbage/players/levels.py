"""The computer players: ``weak``, ``normal`` and ``strong``.

Each decides from its seat's :class:`~cribbage.game.SeatView` only, with its own seeded
generator, in every variant (two to four players, three- to five-card hands, manual counting
with muggins, lowball).

* ``weak`` plays like a beginner: it keeps one of the better half of the keeps by what they
  score on their own, plays a scoring card when it sees one (else any card), walks into
  15s and 31s, and forgets a combination in one count out of five.
* ``normal`` is the computer of the seed rules: it keeps the cards that score most on their own
  (fifteens, pairs, runs, a hand flush; no starter, no crib) and plays the card that scores most
  now, avoiding a count of 5 or 21.
* ``strong`` keeps by expected value (:func:`cribbage.ai.discard_options`: the exact average hand
  over the starters, the crib from the tables, a pegging estimate, weighted near the end of the
  game) and plays by searching sampled deals of the unseen cards to the end of the play
  (:func:`cribbage.ai.play_options`), playing to win when the game may end in the hand.

All count truthfully except ``weak``'s slips, and call muggins on exactly the points a count
missed.  Importing this module registers the levels in :data:`cribbage.players.PLAYERS`.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Final

from ..ai.counting import claim_with_slips, missed_points, play_combos_now, show_count
from ..ai.discard import discard_options
from ..ai.pegging import NODE_BUDGET, play_options
from ..ai.tables import standalone_points
from ..cards import Card
from ..game import Action, Count, Discard, Muggins, Pass, Play, SeatView
from . import PLAYERS

__all__ = ["LEVELS", "ComputerPlayer", "NormalPlayer", "StrongPlayer", "WeakPlayer"]

TRAPS: Final = (5, 21)
"""Counts a ten-card (16 of the 52) turns into 15 or 31."""


class ComputerPlayer:
    """The shared part of the levels: dispatch on the kind of decision, count, call muggins.

    Subclasses choose the discard (:meth:`discard`) and the card (:meth:`play`).
    """

    slips: float = 0.0
    """Chance of forgetting one combination in a count."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
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


def _keeps(view: SeatView) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """Every (keep, discard) split of the hand, in card order."""
    hand = sorted(view.hand)
    return [
        (tuple(c for c in hand if c not in thrown), thrown)
        for thrown in combinations(hand, view.rules.discard)
    ]


def _legal_cards(view: SeatView) -> list[Card]:
    return sorted({a.card for a in view.legal if isinstance(a, Play)})


def _points_now(view: SeatView, card: Card) -> int:
    return sum(c.points for c in play_combos_now(view, card))


class WeakPlayer(ComputerPlayer):
    """A beginner: plausible choices, a beginner's mistakes."""

    slips = 0.2

    def discard(self, view: SeatView) -> tuple[Card, ...]:
        sign = -1 if view.rules.lowball else 1
        ranked = sorted(_keeps(view), key=lambda split: -sign * standalone_points(split[0]))
        better_half = ranked[: (len(ranked) + 1) // 2]
        return self.rng.choice(better_half)[1]

    def play(self, view: SeatView) -> Card:
        cards = _legal_cards(view)
        scoring = [c for c in cards if _points_now(view, c)]
        if scoring and not view.rules.lowball and self.rng.random() < 0.8:
            return self.rng.choice(scoring)
        return self.rng.choice(cards)


class NormalPlayer(ComputerPlayer):
    """The computer the seed rules describe: the best standalone keep, greedy pegging."""

    def discard(self, view: SeatView) -> tuple[Card, ...]:
        sign = -1 if view.rules.lowball else 1

        def key(split: tuple[tuple[Card, ...], tuple[Card, ...]]) -> tuple[int, int, float]:
            keep = split[0]
            return (sign * standalone_points(keep), _potential(keep), self.rng.random())

        return max(_keeps(view), key=key)[1]

    def play(self, view: SeatView) -> Card:
        sign = -1 if view.rules.lowball else 1
        leading = not view.sequence

        def key(card: Card) -> tuple[float, int, int]:
            points = sign * _points_now(view, card)
            trap = view.count + card.value in TRAPS
            safe_lead = leading and card.value < 5
            # Score most now; avoid 5 and 21; lead under 5; else keep the low cards for later.
            return (points - 1.5 * trap, safe_lead, card.value)

        return max(_legal_cards(view), key=key)


def _potential(keep: tuple[Card, ...]) -> int:
    """Tie-break of equal keeps: fives, and pairs of cards close enough to make a run."""
    fives = sum(c.rank == 5 for c in keep)
    close = sum(1 for a, b in combinations(keep, 2) if 0 < abs(a.rank - b.rank) <= 2)
    return fives + close


class StrongPlayer(ComputerPlayer):
    """Expected-value discards and searched pegging, playing to win near the end.

    ``budget`` is the number of search nodes per card played (see :func:`play_options`).
    """

    def __init__(self, seed: int | None = None, budget: int = NODE_BUDGET) -> None:
        super().__init__(seed)
        self.budget = budget

    def discard(self, view: SeatView) -> tuple[Card, ...]:
        rules = view.rules
        assert view.dealer is not None
        own_crib = rules.side_of(view.dealer) == view.side
        others = [s for i, s in enumerate(view.scores) if i != view.side]
        scores = (view.scores[view.side], max(others)) if others else None
        return discard_options(view.hand, own_crib, rules, scores)[0].discard

    def play(self, view: SeatView) -> Card:
        cards = _legal_cards(view)
        if len({c.rank for c in cards}) == 1:
            return cards[0]
        return play_options(view, seed=self.rng, budget=self.budget)[0].card


LEVELS: Final = {"weak": WeakPlayer, "normal": NormalPlayer, "strong": StrongPlayer}
"""The computer levels by name."""

PLAYERS.update(LEVELS)
