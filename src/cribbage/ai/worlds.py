"""Guessing the hidden cards: deals of the unseen cards, weighted by what the table has shown.

A *world* gives every other seat the cards it still holds and the cards it threw to the crib.
Worlds are drawn from the cards the seat has not seen, then weighted by how well they explain
what the other seats did, under a simple model of how people play:

* they keep the cards that score together: each keep of a deal is chosen with probability
  proportional to ``exp(KEEP_SHARPNESS * standalone points)``, and it must hold the cards the
  seat has played since;
* the opponents choose their card in the play as a reading of :mod:`cribbage.ai.playmodel`
  has it (at first the points-taker: the card that scores most now, not leaving 5 or 21, a lead
  under 5, else the higher card, slipping now and then; learned from their hands during the
  game); a partner is `strong`, not the points-taker, and its cards need only be legal;
* they follow the rules: replaying the play with the world's hands must give every card at the
  turn it came (so a seat that said go held nothing it could play).

:class:`WorldSampler` draws a batch of candidate worlds with these weights once per decision
and then hands out worlds in proportion to them (importance resampling).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Final

from ..engine.cards import Card
from .playmodel import PlayFit, Reading, next_turn, play_probability
from .situation import PlaySituation
from .tables import key_points

__all__ = ["World", "WorldSampler", "history_likelihood", "keep_weights", "splits"]

KEEP_SHARPNESS: Final = 2.5
"""How strongly other players are assumed to keep cards that score on their own together."""
CANDIDATES: Final = 64
"""Weighted candidate worlds drawn for one decision."""
MAX_DRAWS: Final = 400
"""Draws tried at most to find candidates that agree with the play so far."""


@dataclass(frozen=True, slots=True)
class World:
    """One guess at the hidden cards.

    Attributes:
        hands: the cards each seat holds now (this seat's own hand included), by seat.
        crib: the crib's cards this seat has not seen: the other seats' throws and the cards
            dealt to it from the pack.
    """

    hands: tuple[tuple[Card, ...], ...]
    crib: tuple[Card, ...]


class WorldSampler:
    """Draws worlds consistent with a seat's situation, weighted by the model of play.

    ``candidates``: the weighted worlds drawn once (up to ``MAX_DRAWS / CANDIDATES`` draws each).
    """

    def __init__(
        self,
        situation: PlaySituation,
        rng: random.Random,
        reading: Reading | None = None,
        candidates: int = CANDIDATES,
    ) -> None:
        self.situation = situation
        self.rng = rng
        self.reading = reading
        self.candidates = candidates
        self._candidates: list[World] = []
        self._weights: list[float] = []

    def draw(self) -> World:
        """A world, drawn in proportion to the candidates' weights."""
        if not self._candidates:
            self._fill()
        return self.rng.choices(self._candidates, weights=self._weights)[0]

    def weighted(self) -> list[tuple[World, float]]:
        """Every candidate world with its weight (drawn at the first call)."""
        if not self._candidates:
            self._fill()
        return list(zip(self._candidates, self._weights, strict=True))

    def _fill(self) -> None:
        sit = self.situation
        rules = sit.rules
        others = [s for s in range(rules.players) if s != sit.seat]
        unseen = sit.unseen()
        wanted = sum(sit.held[s] + rules.discard for s in others) + rules.crib_from_deck
        wanted = min(wanted, len(unseen))
        played = {s: [c for p, c in sit.played if p == s] for s in others}
        first: World | None = None
        for _ in range(MAX_DRAWS * self.candidates // CANDIDATES):
            drawn = self.rng.sample(unseen, wanted)
            hands: list[tuple[Card, ...]] = [()] * rules.players
            hands[sit.seat] = sit.hand
            crib: list[Card] = []
            weight = 1.0
            taken = 0
            for seat in others:
                deal = drawn[taken : taken + sit.held[seat] + rules.discard]
                taken += len(deal)
                held, thrown, likelihood = _sample_keep(played[seat], deal, rules.hand_size, self.rng)
                hands[seat] = held
                crib += thrown
                weight *= likelihood
            world = World(tuple(hands), (*crib, *drawn[taken:]))
            first = first or world
            weight *= history_likelihood(sit, [[c.rank for c in hand] for hand in world.hands], self.reading)
            if weight > 0:
                self._candidates.append(world)
                self._weights.append(weight)
                if len(self._candidates) == self.candidates:
                    break
        if not self._candidates:  # nothing explains the play: take the cards as they come
            assert first is not None
            self._candidates, self._weights = [first], [1.0]


@cache
def splits(size: int, throw: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every way to throw ``throw`` of ``size`` positions: (kept, thrown), in the order of
    :func:`itertools.combinations` of the positions thrown."""
    positions = range(size)
    return tuple(
        (tuple(i for i in positions if i not in thrown), thrown) for thrown in combinations(positions, throw)
    )


def keep_weights(cards: Sequence[Card], size: int) -> list[tuple[tuple[int, ...], tuple[int, ...], float]]:
    """The model's chance of each way to keep ``size`` of ``cards``: (kept, thrown, chance) by
    positions, in the order of :func:`splits`.

    A keep is chosen with probability proportional to ``exp(KEEP_SHARPNESS * points)``, its
    points on their own (fifteens, pairs, runs, a flush of the whole keep).
    """
    ways = splits(len(cards), len(cards) - size)
    bits = [c.rank_bit for c in cards]
    key = sum(bits)
    suits = [c.suit for c in cards]
    flushes = size > 1 and max(map(suits.count, range(4))) >= size  # some keep may be a flush
    points = []
    for kept, thrown in ways:
        kept_key = key
        for i in thrown:
            kept_key -= bits[i]
        value = key_points(kept_key)
        if flushes and len({suits[i] for i in kept}) == 1:
            value += size
        points.append(value)
    top = max(points)
    weights = [math.exp(KEEP_SHARPNESS * (p - top)) for p in points]
    total = sum(weights)
    return [(kept, thrown, w / total) for (kept, thrown), w in zip(ways, weights, strict=True)]


def _sample_keep(
    played: list[Card], deal: list[Card], size: int, rng: random.Random
) -> tuple[tuple[Card, ...], list[Card], float]:
    """Split a seat's deal (``played`` and the unseen ``deal``) into its keep and its throw.

    Returns the cards it still holds, the cards it threw, and the probability that the model's
    keep holds every card already played (the weight of this draw).
    """
    cards = played + deal
    if len(cards) <= size:
        return tuple(deal), [], 1.0
    known = len(played)
    # The played cards (first in ``cards``) must all be kept.
    fitting = [(thrown, w) for _, thrown, w in keep_weights(cards, size) if not thrown or thrown[0] >= known]
    if not fitting:
        return tuple(deal[: size - known]), deal[size - known :], 0.0
    thrown = rng.choices([t for t, _ in fitting], weights=[w for _, w in fitting])[0]
    held = tuple(cards[i] for i in range(known, len(cards)) if i not in thrown)
    return held, [cards[i] for i in thrown], sum(w for _, w in fitting)


def history_likelihood(
    sit: PlaySituation, now: Sequence[Sequence[int]], reading: Reading | None = None
) -> float:
    """How likely the play so far is if the seats held the ranks ``now`` (0 when impossible).

    The play is replayed from its start, each seat holding its ranks of ``now`` and the cards
    it has played: every card must come at the turn the rules give it, and each opponent's
    card is weighed by ``reading`` (by default the points-taker,
    :class:`~cribbage.ai.playmodel.PlayFit`; in lowball, where nobody wants the points, always
    its soft part).  A partner's cards need only be legal: it is not the points-taker.
    """
    if sit.dealer is None or not sit.played:
        return 1.0
    n = sit.rules.players
    if sit.rules.lowball:
        reading = _SOFT
    elif reading is None:
        reading = PlayFit()
    sides = [sit.rules.side_of(seat) for seat in range(n)]
    side = sides[sit.seat]
    holding = [list(ranks) for ranks in now]
    for seat, card in sit.played:
        holding[seat].append(card.rank)
    likelihood = 1.0
    seq: tuple[int, ...] = ()
    count = 0
    turn = (sit.dealer + 1) % n
    for seat, card in sit.played:
        if seat != turn or count + card.value > 31:
            return 0.0
        held = holding[seat]
        if sides[seat] != side:
            likelihood *= reading.probability(held, seq, count, card.rank)
        held.remove(card.rank)
        seq += (card.rank,)
        count += card.value
        turn = next_turn(holding, seat, count)
        if turn < 0:  # a go or 31: the count starts again
            seq, count = (), 0
            turn = next((seat + i) % n for i in range(1, n + 1) if holding[(seat + i) % n] or i == n)
    if seq != tuple(c.rank for c in sit.sequence) or turn != sit.seat:
        return 0.0
    return likelihood


class _Soft:
    """The points-taker's soft part alone: each card in proportion to ``exp(gain)``."""

    def probability(self, held: Sequence[int], seq: tuple[int, ...], count: int, rank: int) -> float:
        return play_probability(held, seq, count, rank, 1.0)


_SOFT: Final = _Soft()
