"""Expected points of the crib and of the play, exact or from the tables the project ships.

* :func:`crib_expectation` is the exact expected value of a crib given the cards thrown into it,
  when its other cards and the starter are drawn uniformly from the cards not seen.  It needs no
  table: the rank part of the score (fifteens, pairs, runs) is summed over the *multisets of
  ranks* of the unseen cards, and nobs and the crib flush are counted by formula.
* :func:`crib_value` reads the crib tables in ``data/crib.json``: the expected crib for each
  throw by ranks and suitedness, when the other player throws the way a sensible player does
  (written by ``tools/make_crib_tables.py``, loaded on first use).
* :func:`pegging_value` reads ``data/pegging.json``: what a kept hand is worth in the play, by
  its ranks, solved by the same tool as the ``strong`` player plays.

>>> from cribbage.engine.cards import parse_cards
>>> unseen = [c for c in DECK if c not in parse_cards("5H 5C")]
>>> round(crib_expectation(parse_cards("5H 5C"), unseen, crib_size=4), 3)
8.993
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources
from itertools import combinations_with_replacement
from math import comb
from typing import Any, Final

from ..engine.cards import DECK, JACK, RANK_CHARS, Card
from ..engine.errors import CribbageError
from ..engine.rules import Rules
from ..engine.scoring import rank_points

__all__ = [
    "Starters",
    "crib_expectation",
    "crib_value",
    "key_points",
    "pegging_value",
    "rank_key",
    "standalone_points",
    "table_shape",
    "throw_class",
    "unseen_draws",
]

_KEY_POINTS: dict[int, int] = {}

CRIB_FILE: Final = "crib.json"
PEGGING_FILE: Final = "pegging.json"


def rank_key(ranks: Iterable[int]) -> int:
    """The key of a multiset of ranks: the sum of their rank bits (see :attr:`Card.rank_bit`)."""
    return sum(1 << 3 * (r - 1) for r in ranks)


def key_points(key: int) -> int:
    """Fifteens, pairs and runs of the multiset of ranks with this key (cached)."""
    points = _KEY_POINTS.get(key)
    if points is None:
        ranks = [r for r in range(1, 14) for _ in range(key >> 3 * (r - 1) & 7)]
        points = _KEY_POINTS[key] = rank_points(ranks)
    return points


def standalone_points(cards: Sequence[Card]) -> int:
    """What cards score on their own, with no starter: fifteens, pairs, runs and a hand flush.

    The measure the ``normal`` player keeps by.

    >>> from cribbage.engine.cards import parse_cards
    >>> standalone_points(parse_cards("5H 5C JD QS")), standalone_points(parse_cards("2H 4H 6H 8H"))
    (10, 4)
    """
    points = key_points(sum(c.rank_bit for c in cards))
    if len(cards) > 1 and all(c.suit == cards[0].suit for c in cards):
        points += len(cards)
    return points


class Starters:
    """The cards a starter may be, counted by rank and by suit, to average shows over them fast.

    >>> from cribbage.engine.cards import parse_cards
    >>> starters = Starters([c for c in DECK if c not in parse_cards("5H 5C JS QH 6D 2C")])
    >>> round(starters.average(parse_cards("5H 5C JS QH")), 3)
    12.696
    """

    __slots__ = ("ranks", "size", "suits")

    def __init__(self, cards: Iterable[Card]) -> None:
        self.ranks = [0] * 14
        self.suits = [0, 0, 0, 0]
        for card in cards:
            self.ranks[card.rank] += 1
            self.suits[card.suit] += 1
        self.size = sum(self.suits)

    @classmethod
    def excluding(cls, cards: Iterable[Card]) -> Starters:
        """Every card of the pack but ``cards`` (which must be distinct)."""
        starters = cls(())
        starters.ranks = [0] + [4] * 13
        starters.suits = [13, 13, 13, 13]
        for card in cards:
            starters.ranks[card.rank] -= 1
            starters.suits[card.suit] -= 1
        starters.size = sum(starters.suits)
        return starters

    def average(self, cards: Sequence[Card], crib: bool = False) -> float:
        """The exact average show of ``cards`` (a hand, or a crib) over these starters.

        By parts rather than starter by starter: fifteens, pairs and runs once for each rank of
        starter, weighted by how many starters have it; then nobs and the flush by suit counts.
        """
        ranks, suits = self.ranks, self.suits
        key = 0
        for card in cards:
            key += card.rank_bit
        total = 0
        for rank in range(1, 14):
            if ranks[rank]:
                total += ranks[rank] * key_points(key + (1 << 3 * (rank - 1)))
        suit = cards[0].suit
        flush = True
        for card in cards:
            if card.rank == JACK:
                total += suits[card.suit]
            if card.suit != suit:
                flush = False
        if flush:
            total += (len(cards) + 1) * suits[suit] if crib else len(cards) * self.size + suits[suit]
        return total / self.size


# --------------------------------------------------------------------------- the exact crib


def _rank_counts(cards: Iterable[Card]) -> list[int]:
    counts = [0] * 14
    for card in cards:
        counts[card.rank] += 1
    return counts


@cache
def _multisets(size: int) -> tuple[tuple[int, ...], ...]:
    return tuple(combinations_with_replacement(range(1, 14), size))


def unseen_draws(unseen: Sequence[Card], size: int) -> list[tuple[int, float]]:
    """Every multiset of ``size`` ranks drawn from ``unseen``, as (rank key, probability).

    What :func:`crib_expectation` sums over; computed once, it serves every throw of a hand.
    """
    counts = _rank_counts(unseen)
    total = comb(len(unseen), size)
    draws = []
    for ranks in _multisets(size):
        ways = 1
        previous, run = 0, 0
        for rank in ranks:
            run = run + 1 if rank == previous else 1
            previous = rank
            ways *= counts[rank] - run + 1
            ways //= run
            if not ways:
                break
        if ways:
            draws.append((rank_key(ranks), ways / total))
    return draws


def crib_expectation(
    thrown: Sequence[Card],
    unseen: Sequence[Card],
    crib_size: int,
    *,
    draws: list[tuple[int, float]] | None = None,
) -> float:
    """The exact expected points of a crib holding ``thrown``, over its other cards and the starter.

    The crib's other ``crib_size - len(thrown)`` cards and the starter are drawn uniformly from
    ``unseen`` (the other players' throws and the cards dealt to the crib count as random cards).
    ``draws`` may pass :func:`unseen_draws` of ``unseen`` for the size
    ``crib_size - len(thrown) + 1`` when many throws share the same unseen cards.
    """
    u = len(unseen)
    m = crib_size - len(thrown)
    if m < 0 or u < m + 1:
        raise CribbageError(
            f"cannot fill a crib of {crib_size} from {len(thrown)} thrown and {u} unseen cards"
        )
    if draws is None:
        draws = unseen_draws(unseen, m + 1)
    base = sum(c.rank_bit for c in thrown)
    expected = 0.0
    for key, p in draws:
        expected += p * key_points(base + key)
    suits = [0, 0, 0, 0]
    for card in unseen:
        suits[card.suit] += 1
    # Nobs: a jack in the crib of the starter's suit.
    for card in thrown:
        if card.rank == JACK:
            expected += suits[card.suit] / u
    if m:
        for card in unseen:
            if card.rank == JACK:
                expected += (suits[card.suit] - 1) / u * m / (u - 1)
    # Flush: the whole crib and the starter of one suit.
    if thrown and all(c.suit == thrown[0].suit for c in thrown):
        n = suits[thrown[0].suit]
        expected += (crib_size + 1) * n * comb(n - 1, m) / (u * comb(u - 1, m))
    return expected


# --------------------------------------------------------------------------- the tables


@cache
def _load(name: str) -> dict[str, Any]:
    text = resources.files("cribbage.ai").joinpath("data", name).read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def throw_class(thrown: Sequence[Card]) -> str:
    """The table key of a throw: its ranks in order and ``s`` when two cards share a suit.

    >>> from cribbage.engine.cards import parse_cards
    >>> throw_class(parse_cards("KH 5H")), throw_class(parse_cards("5H 5C")), throw_class(parse_cards("JD"))
    ('5Ks', '55', 'J')
    """
    key = tuple(thrown)
    name = _CLASSES.get(key)
    if name is None:
        name = _CLASSES[key] = _throw_class(thrown)
    return name


_CLASSES: dict[tuple[Card, ...], str] = {}


def _throw_class(thrown: Sequence[Card]) -> str:
    ordered = sorted(thrown, key=lambda c: c.rank)
    ranks = "".join(c.rank_char for c in ordered)
    suited = len(ordered) > 1 and all(c.suit == ordered[0].suit for c in ordered)
    return ranks + ("s" if suited else "")


def table_shape(rules: Rules) -> str:
    """The name of the crib table for these rules: players, cards dealt and thrown, crib size,
    and ``-lowball`` when every player wants the fewest points (the others then feed our crib and
    spoil their own).

    >>> from cribbage.engine.rules import get_rules
    >>> table_shape(get_rules("standard")), table_shape(get_rules("three-player"))
    ('p2-deal6-throw2-crib4', 'p3-deal5-throw1-crib4')
    >>> table_shape(get_rules("lowball")), table_shape(get_rules("short"))
    ('p2-deal6-throw2-crib4-lowball', 'p2-deal6-throw2-crib4')
    """
    shape = f"p{rules.players}-deal{rules.deal}-throw{rules.discard}-crib{rules.crib_size}"
    return shape + "-lowball" if rules.lowball else shape


def crib_value(thrown: Sequence[Card], rules: Rules, own: bool) -> float:
    """The expected crib points of a throw, from the shipped tables.

    ``own``: the crib is this side's, so the other player throws to spoil it; otherwise it is
    the opponent's, who throws to help it.  For crib shapes without a table, the exact
    expectation over random cards is used instead.
    """
    tables = _load(CRIB_FILE)["tables"]
    table = tables.get(table_shape(rules))
    if table is None:
        return _uniform_value(tuple(sorted(thrown)), rules.crib_size)
    value = table["own" if own else "other"].get(throw_class(thrown))
    if value is None:
        raise CribbageError(f"no crib table entry for {throw_class(thrown)!r}")
    return float(value)


@cache
def _uniform_value(thrown: tuple[Card, ...], crib_size: int) -> float:
    return crib_expectation(thrown, [c for c in DECK if c not in thrown], crib_size)


def pegging_value(keep: Sequence[Card], rules: Rules, dealer: bool) -> float:
    """The estimated net points of a kept hand in the play (own side's minus the others'), by its ranks.

    From ``data/pegging.json``: two players, hands of 3 to 5 cards; three and four players,
    hands of 4 cards, ``dealer`` meaning that the player's side deals.  0 when no table fits.

    >>> from cribbage.engine.cards import parse_cards
    >>> from cribbage.engine.rules import get_rules
    >>> low, high = parse_cards("AH 2C 3D 4S"), parse_cards("TH JC QD KS")
    >>> pegging_value(low, get_rules(), dealer=True) > pegging_value(high, get_rules(), dealer=True)
    True
    """
    name = str(len(keep)) if rules.players == 2 else f"p{rules.players}-{len(keep)}"
    table = _pegging_table(name, dealer)
    if table is None:
        return 0.0
    return table.get(sum(c.rank_bit for c in keep), 0.0)


@cache
def _pegging_table(name: str, dealer: bool) -> dict[int, float] | None:
    """The values of one table of ``data/pegging.json`` (a hand size, with two players; else
    ``p{players}-{size}``) for one role, by rank key."""
    table = _load(PEGGING_FILE)["tables"].get(name)
    if table is None:
        return None
    return {
        rank_key(RANK_CHARS.index(ch) + 1 for ch in ranks): float(value)
        for ranks, value in table["dealer" if dealer else "pone"].items()
    }
