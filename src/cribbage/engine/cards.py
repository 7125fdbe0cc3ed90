"""Playing cards: the 52 :class:`Card` values, parsing and formatting.

Cards are interned: there is exactly one object per card, so ``Card.parse("5h") is
Card.parse("5♥")`` and comparisons are cheap.  Each card carries the small precomputed numbers
the scorers and the AI use (pip value, rank bit, card bit).

>>> parse_cards("5H 5C 5S JD")
(Card.parse('5H'), Card.parse('5C'), Card.parse('5S'), Card.parse('JD'))
>>> str(Card.parse("10d")), Card.parse("TD").pretty
('TD', '10♦')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import Final

from .errors import CardError

RANK_CHARS: Final = "A23456789TJQK"
"""One character per rank, ace (rank 1) to king (rank 13)."""

SUIT_CHARS: Final = "CDHS"
"""One letter per suit: clubs, diamonds, hearts, spades (suit numbers 0 to 3)."""

SUIT_SYMBOLS: Final = "♣♦♥♠"
"""The suit symbols, in the order of :data:`SUIT_CHARS`."""

SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES: Final = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip

JACK: Final = 11

_SUIT_LOOKUP: Final = {
    **{c: i for i, c in enumerate(SUIT_CHARS)},
    **{c.lower(): i for i, c in enumerate(SUIT_CHARS)},
    **{c: i for i, c in enumerate(SUIT_SYMBOLS)},
    **{c: i for i, c in enumerate("♧♢♡♤")},
}
_RANK_LOOKUP: Final = {
    **{c: i + 1 for i, c in enumerate(RANK_CHARS)},
    **{c.lower(): i + 1 for i, c in enumerate(RANK_CHARS)},
    "10": 10,
}
_TOKEN_SPLIT: Final = re.compile(r"[\s,;]+")


class Card:
    """One of the 52 playing cards; immutable and interned.

    Build one with ``Card(rank, suit)`` (rank 1-13, suit 0-3), :meth:`Card.parse` or
    :meth:`Card.from_index`; all return the same object for the same card.

    Attributes:
        rank: 1 (ace) to 13 (king); runs use this order, and a king does not join an ace.
        suit: 0 to 3, in the order of :data:`SUIT_CHARS` (clubs, diamonds, hearts, spades).
        value: the pip value used for fifteens and the count: ace 1, ten and faces 10.
        index: 0 to 51, ``(rank - 1) * 4 + suit``; sorting by it sorts by rank then suit.
        bit: ``1 << index``, for card sets kept as integers.
        rank_bit: ``1 << 3 * (rank - 1)``; summing the rank bits of some cards gives a key that
            identifies their multiset of ranks (up to 7 of a rank), used by the fast scorers.
    """

    __slots__ = ("bit", "index", "rank", "rank_bit", "suit", "value")

    rank: int
    suit: int
    value: int
    index: int
    bit: int
    rank_bit: int

    def __new__(cls, rank: int, suit: int) -> Card:
        if not (isinstance(rank, int) and 1 <= rank <= 13):
            raise CardError(f"rank must be 1 to 13, not {rank!r}")
        if not (isinstance(suit, int) and 0 <= suit <= 3):
            raise CardError(f"suit must be 0 to 3, not {suit!r}")
        return DECK[(rank - 1) * 4 + suit]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        rank, suit = index // 4 + 1, index % 4
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("value", min(rank, 10)),
            ("index", index),
            ("bit", 1 << index),
            ("rank_bit", 1 << 3 * (rank - 1)),
        ):
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with the given index (0 to 51)."""
        if not (isinstance(index, int) and 0 <= index < 52):
            raise CardError(f"card index must be 0 to 51, not {index!r}")
        return DECK[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse one card: rank ``A 2-9 10 T J Q K`` then suit ``C D H S`` or ``♣ ♦ ♥ ♠``.

        Case does not matter.  Raises :class:`CardError` naming the token otherwise.

        >>> Card.parse("10h") is Card.parse("T♥")
        True
        """
        return _parse_token(text)

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♣ ♦ ♥ ♠``."""
        return SUIT_SYMBOLS[self.suit]

    @property
    def rank_char(self) -> str:
        """The rank as one character: ``A 2-9 T J Q K``."""
        return RANK_CHARS[self.rank - 1]

    @property
    def pretty(self) -> str:
        """The card for people: ``10♦``, ``Q♠``."""
        rank = "10" if self.rank == 10 else self.rank_char
        return rank + self.symbol

    @property
    def name(self) -> str:
        """The card in words: ``five of hearts``."""
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.rank_char + SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __hash__(self) -> int:
        return self.index


DECK: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(52))
"""All 52 cards, in index order (ace of clubs first, king of spades last)."""


card_order: Final[Callable[[Card], int]] = attrgetter("index")
"""The sort key of cards by index (``sorted(cards, key=card_order)``): the same order as their
``<``, without a call back into Python for every comparison."""


def _parse_token(token: str) -> Card:
    if not isinstance(token, str):
        raise CardError(f"a card must be text like '5H', not {token!r}", problem="invalid", card=repr(token))
    text = token.strip()
    if len(text) >= 2:
        rank = _RANK_LOOKUP.get(text[:-1])
        suit = _SUIT_LOOKUP.get(text[-1])
        if rank and suit is not None:
            return DECK[(rank - 1) * 4 + suit]
    raise CardError(
        f"invalid card {token!r}: expected a rank (A 2-10 T J Q K) and a suit (C D H S)",
        problem="invalid",
        card=token,
    )


def parse_cards(
    cards: str | Iterable[str | Card], size: int | tuple[int, ...] | None = None
) -> tuple[Card, ...]:
    """Parse a list of distinct cards from text (``"5H 5C 5S JD"``) or from tokens and cards.

    Args:
        cards: a string of cards separated by spaces or commas, or an iterable of card strings
            and :class:`Card` objects.
        size: the number of cards required (or a tuple of allowed numbers); ``None`` for any.

    Raises:
        CardError: naming the first invalid token, the first duplicate card, or the wrong size.

    >>> parse_cards("5h,10d", size=2)
    (Card.parse('5H'), Card.parse('TD'))
    """
    if isinstance(cards, str):
        tokens: list[str | Card] = [t for t in _TOKEN_SPLIT.split(cards.strip()) if t]
    else:
        tokens = list(cards)
    result: list[Card] = []
    seen = 0
    for token in tokens:
        card = token if isinstance(token, Card) else _parse_token(token)
        if seen & card.bit:
            raise CardError(f"duplicate card {str(token)!r}", problem="duplicate", card=str(token))
        seen |= card.bit
        result.append(card)
    if size is not None:
        allowed = (size,) if isinstance(size, int) else size
        if len(result) not in allowed:
            wanted = " or ".join(str(n) for n in allowed)
            raise CardError(
                f"expected {wanted} cards, got {len(result)}: {format_cards(result)!r}",
                problem="count",
                count=len(result),
                allowed=allowed,
            )
    return tuple(result)


def remaining(*groups: Iterable[Card]) -> list[Card]:
    """The cards of the deck that are in none of the groups, in deck order.

    >>> len(remaining(parse_cards("5H 5C"), [Card.parse("JD")]))
    49
    """
    used = 0
    for group in groups:
        for card in group:
            used |= card.bit
    return [c for c in DECK if not used & c.bit]


def format_cards(cards: Iterable[Card], pretty: bool = False) -> str:
    """The cards separated by spaces, parseable by :func:`parse_cards`.

    >>> format_cards(parse_cards("5h 10d"), pretty=True)
    '5♥ 10♦'
    """
    return " ".join(c.pretty if pretty else str(c) for c in cards)
