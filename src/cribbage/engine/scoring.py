"""Scoring: the show (hand and crib) and the play (pegging), explained combination by combination.

Two kinds of functions live here:

* the explaining scorers :func:`score_show` and :func:`score_play` return every combination with
  the cards involved, so that interfaces can highlight them one by one;
* the fast scorer :func:`hand_points` returns only the total, from a table of rank-multiset
  scores filled on first use; it is what the statistics and the computer players call millions of
  times.  Tests check that both always agree.

>>> show = score_show(parse_cards("5H 5C 5S JD"), Card.parse("5D"))
>>> show.total, show.fifteens, show.pairs, show.nobs
(29, 16, 12, 1)
>>> score_play(parse_cards("4H 6D 5S")).points
5
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any, Final

from .cards import JACK, Card, format_cards, parse_cards
from .errors import CardError, CountError

__all__ = [
    "FIFTEEN",
    "FLUSH",
    "NOBS",
    "PAIR",
    "RUN",
    "Combo",
    "PlayScore",
    "ShowScore",
    "hand_points",
    "play_points",
    "rank_points",
    "score_play",
    "score_show",
]

# Combination kinds.  Pairs in the show are listed one pair at a time (three of a kind is three
# pairs), so that each can be highlighted; in the play the trailing set is one combination.
FIFTEEN: Final = "fifteen"
PAIR: Final = "pair"
RUN: Final = "run"
FLUSH: Final = "flush"
NOBS: Final = "nobs"
THIRTY_ONE: Final = "thirty-one"
PAIR_ROYAL: Final = "pair royal"
DOUBLE_PAIR_ROYAL: Final = "double pair royal"
GO: Final = "go"
LAST_CARD: Final = "last card"
HEELS: Final = "his heels"
MUGGINS: Final = "muggins"
PENALTY: Final = "penalty"
FIRST_HAND_BONUS: Final = "three for last"
"""The 3 points the non-dealer scores at the start of a five-card game."""

_SAME_RANK_KINDS: Final = {2: PAIR, 3: PAIR_ROYAL, 4: DOUBLE_PAIR_ROYAL}


@dataclass(frozen=True, slots=True)
class Combo:
    """One scoring combination: its kind, the cards that make it, and its points."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "cards", "points"}`` with cards as text such as ``"5H"``."""
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}

    def __str__(self) -> str:
        cards = format_cards(self.cards, pretty=True)
        return f"{self.kind} for {self.points}" + (f" ({cards})" if cards else "")


@dataclass(frozen=True, slots=True)
class ShowScore:
    """The explained count of a hand or crib with its starter."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    combos: tuple[Combo, ...]

    @property
    def total(self) -> int:
        return sum(c.points for c in self.combos)

    def points(self, kind: str) -> int:
        """The points of every combination of one kind."""
        return sum(c.points for c in self.combos if c.kind == kind)

    @property
    def fifteens(self) -> int:
        return self.points(FIFTEEN)

    @property
    def pairs(self) -> int:
        return self.points(PAIR)

    @property
    def runs(self) -> int:
        return self.points(RUN)

    @property
    def flush(self) -> int:
        return self.points(FLUSH)

    @property
    def nobs(self) -> int:
        return self.points(NOBS)

    def to_json(self) -> dict[str, Any]:
        """The JSON form the command line prints: totals per category and every combination."""
        return {
            "hand": [str(c) for c in self.hand],
            "starter": str(self.starter),
            "crib": self.crib,
            "total": self.total,
            "fifteens": self.fifteens,
            "pairs": self.pairs,
            "runs": self.runs,
            "flush": self.flush,
            "nobs": self.nobs,
            "combos": [c.to_json() for c in self.combos],
        }

    def explain(self) -> str:
        """One line per combination with a running total, then the total."""
        lines = []
        running = 0
        for combo in self.combos:
            running += combo.points
            lines.append(f"{combo!s:40} {running:3}")
        lines.append(f"{'total':40} {self.total:3}" if self.combos else "nineteen (no points): 0")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class PlayScore:
    """The points for the last card played onto the count."""

    cards: tuple[Card, ...]
    count: int
    combos: tuple[Combo, ...]

    @property
    def points(self) -> int:
        return sum(c.points for c in self.combos)

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": [str(c) for c in self.cards],
            "points": self.points,
            "count": self.count,
            "combos": [c.to_json() for c in self.combos],
        }


# --------------------------------------------------------------------------- the show


def _check_show(hand: Sequence[Card], starter: Card) -> None:
    if not 3 <= len(hand) <= 5:
        raise CardError(
            f"a hand has 3 to 5 cards, got {len(hand)}: {format_cards(hand)!r}",
            problem="count",
            count=len(hand),
            allowed=(3, 4, 5),
        )
    bits = starter.bit
    for card in hand:
        if bits & card.bit:
            raise CardError(f"duplicate card {str(card)!r}", problem="duplicate", card=str(card))
        bits |= card.bit


def score_show(hand: Sequence[Card] | str, starter: Card | str, *, crib: bool = False) -> ShowScore:
    """Count a hand (3, 4 or 5 cards) or a crib with the starter, combination by combination.

    Fifteens are every set of cards whose pip values add up to 15 (2 each); pairs are every two
    cards of one rank (2 each); runs are every longest run of three or more ranks, so a double
    run counts twice; a flush is every card of the hand in one suit (one point a card, plus one
    when the starter matches), but a crib scores a flush only when all its cards and the starter
    share a suit; nobs is a jack in the hand of the starter's suit (1), never the starter itself.

    Raises:
        CardError: for a wrong number of cards or a card given twice.
    """
    cards = parse_cards(hand) if isinstance(hand, str) else tuple(hand)
    cut = Card.parse(starter) if isinstance(starter, str) else starter
    _check_show(cards, cut)
    every = (*cards, cut)
    combos: list[Combo] = []

    for size in range(2, len(every) + 1):
        for subset in combinations(every, size):
            if sum(c.value for c in subset) == 15:
                combos.append(Combo(FIFTEEN, subset, 2))

    for a, b in combinations(every, 2):
        if a.rank == b.rank:
            combos.append(Combo(PAIR, (a, b), 2))

    combos.extend(_show_runs(every))

    suit = cards[0].suit
    if all(c.suit == suit for c in cards):
        if cut.suit == suit:
            combos.append(Combo(FLUSH, every, len(every)))
        elif not crib:
            combos.append(Combo(FLUSH, cards, len(cards)))

    for card in cards:
        if card.rank == JACK and card.suit == cut.suit:
            combos.append(Combo(NOBS, (card, cut), 1))

    return ShowScore(cards, cut, crib, tuple(combos))


def _show_runs(cards: Sequence[Card]) -> list[Combo]:
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards):
        by_rank.setdefault(card.rank, []).append(card)
    combos: list[Combo] = []
    rank = 1
    while rank <= 13:
        end = rank
        while end in by_rank:
            end += 1
        length = end - rank
        if length >= 3:
            groups = [by_rank[r] for r in range(rank, end)]
            for run in product(*groups):
                combos.append(Combo(RUN, run, length))
        rank = end + 1 if length else rank + 1
    return combos


# --------------------------------------------------------------------------- the fast scorer

_RANK_POINTS: dict[int, int] = {}


def rank_points(ranks: Iterable[int]) -> int:
    """Fifteens, pairs and runs of some ranks (1-13): the part of a score that ignores suits.

    >>> rank_points([5, 5, 5, 11, 5])
    28
    """
    ranks = list(ranks)
    values = [min(r, 10) for r in ranks]
    counts = [0] * 15
    for r in ranks:
        counts[r] += 1
    # Fifteens: number of subsets with value sum 15, by dynamic programming over sums.
    ways = [1] + [0] * 15
    for v in values:
        for s in range(15, v - 1, -1):
            ways[s] += ways[s - v]
    points = 2 * ways[15]
    for n in counts:
        points += n * (n - 1)
    rank = 1
    while rank <= 13:
        length, multiplier = 0, 1
        while counts[rank + length]:
            multiplier *= counts[rank + length]
            length += 1
        if length >= 3:
            points += length * multiplier
        rank += length + 1
    return points


def _rank_key_points(key: int) -> int:
    ranks = [r for r in range(1, 14) for _ in range(key >> 3 * (r - 1) & 7)]
    points = _RANK_POINTS[key] = rank_points(ranks)
    return points


def hand_points(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """The total of :func:`score_show`, fast: a table lookup for the ranks plus flush and nobs.

    The cards are not checked (use :func:`score_show` for untrusted input).

    >>> hand_points(parse_cards("4H 5C 5S 6D"), Card.parse("JS"))
    16
    """
    key = starter.rank_bit
    for card in hand:
        key += card.rank_bit
    points = _RANK_POINTS.get(key)
    if points is None:
        points = _rank_key_points(key)
    suit = starter.suit
    first = hand[0].suit
    flush = True
    for card in hand:
        if card.suit != first:
            flush = False
        if card.rank == 11 and card.suit == suit:
            points += 1
    if flush:
        if first == suit:
            points += len(hand) + 1
        elif not crib:
            points += len(hand)
    return points


# --------------------------------------------------------------------------- the play


def score_play(cards: Sequence[Card] | str) -> PlayScore:
    """Score the last card of the cards played since the count was last reset.

    Fifteen and thirty-one score 2; the trailing cards of one rank score a pair (2), a pair royal
    (6) or a double pair royal (12); the longest trailing group of three to seven cards that forms
    a run in any order scores one point a card.  A go and the last card are scored by the game,
    which knows whether anybody can still play.

    Raises:
        CountError: when the count passes 31 (naming the card and the count it makes).
        CardError: for an empty sequence or a card given twice.

    >>> score_play("4H 6D KS 5S").points  # the king breaks the run
    0
    """
    played = parse_cards(cards) if isinstance(cards, str) else parse_cards(tuple(cards))
    if not played:
        raise CardError("no card played", problem="count", count=0)
    count = 0
    for i, card in enumerate(played):
        count += card.value
        if count > 31:
            cards_text = format_cards(played[: i + 1])
            raise CountError(f"the count passes 31: {cards_text} makes {count}", card=str(card), count=count)
    return PlayScore(played, count, tuple(play_combos(played, count)))


def play_combos(played: Sequence[Card], count: int) -> list[Combo]:
    """The combinations made by the last of ``played`` (already checked) at this ``count``."""
    combos: list[Combo] = []
    last = played[-1]
    if count == 15:
        combos.append(Combo(FIFTEEN, tuple(played), 2))
    elif count == 31:
        combos.append(Combo(THIRTY_ONE, tuple(played), 2))
    same = 1
    while same < len(played) and played[-1 - same].rank == last.rank:
        same += 1
    if same >= 2:
        combos.append(Combo(_SAME_RANK_KINDS[same], tuple(played[-same:]), same * (same - 1)))
    for length in range(min(len(played), 7), 2, -1):
        tail = played[-length:]
        ranks = {c.rank for c in tail}
        if len(ranks) == length and max(ranks) - min(ranks) == length - 1:
            combos.append(Combo(RUN, tuple(tail), length))
            break
    return combos


def play_points(played: Sequence[Card], count: int) -> int:
    """The points of :func:`play_combos`, fast: the total only, with no combination built.

    What the engine pegs in simulations (``explain=False``) and the greedy players weigh for every
    card they might play.  Tests check that it always equals the sum of :func:`play_combos`.

    >>> play_points(parse_cards("4H 6D 5S"), 15), play_points(parse_cards("7H 7D 7S"), 21)
    (5, 6)
    """
    points = 2 if count == 15 or count == 31 else 0
    last = len(played) - 1
    if last < 1:
        return points
    rank = played[last].rank
    if played[last - 1].rank == rank:
        # The trailing cards of one rank: 2 a pair, 3 a pair royal, 4 a double pair royal; a
        # tail with a repeated rank is no run.
        i = last - 2
        while i >= 0 and played[i].rank == rank:
            i -= 1
        same = last - i
        return points + same * (same - 1)
    # The longest trailing run: the tail grows one card at a time until a rank repeats, after
    # which no longer tail can be a run either; at most 7 cards fit under 31.
    seen = 1 << rank
    low = high = rank
    run = 0
    for j in range(last - 1, last - 7 if last > 6 else -1, -1):
        r = played[j].rank
        bit = 1 << r
        if seen & bit:
            break
        seen |= bit
        if r < low:
            low = r
        elif r > high:
            high = r
        if high - low == last - j >= 2:
            run = last - j + 1
    return points + run
