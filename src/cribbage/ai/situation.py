"""What one seat knows during the play, from its view or typed in for a hint.

>>> from cribbage.engine.cards import parse_cards
>>> situation = PlaySituation.typed(parse_cards("7C 8D 2S"), parse_cards("TD 5H"))
>>> situation.count, situation.held, [str(c) for c in situation.legal()]
(15, (3, 3), ['2S', '7C', '8D'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.cards import Card, format_cards, remaining
from ..engine.errors import CardError
from ..engine.rules import Rules, get_rules
from ..engine.view import SeatView

__all__ = ["PlaySituation"]


@dataclass(frozen=True, slots=True)
class PlaySituation:
    """What one seat knows in the play: its cards, the table, and the cards it has seen.

    Built from a :class:`~cribbage.engine.view.SeatView` with :meth:`from_view`, or typed in (for
    ``cribbage hint play``) with :meth:`typed`.
    """

    rules: Rules
    seat: int
    hand: tuple[Card, ...]
    """The cards the seat still holds."""
    sequence: tuple[Card, ...]
    """The cards of the current count."""
    played: tuple[tuple[int, Card], ...]
    """Every card played this hand, with its seat (-1 when not known)."""
    held: tuple[int, ...]
    """How many cards each seat holds."""
    dealer: int | None = None
    starter: Card | None = None
    scores: tuple[int, ...] | None = None
    """The score of each side, for playing to win near the end."""
    kept: tuple[Card, ...] = ()
    discards: tuple[Card, ...] = ()

    @property
    def count(self) -> int:
        return sum(c.value for c in self.sequence)

    @classmethod
    def from_view(cls, view: SeatView) -> PlaySituation:
        return cls(
            rules=view.rules,
            seat=view.seat,
            hand=view.hand,
            sequence=view.sequence,
            played=view.played,
            held=view.held,
            dealer=view.dealer,
            starter=view.starter,
            scores=view.scores,
            kept=view.kept,
            discards=view.discards,
        )

    @classmethod
    def typed(
        cls,
        hand: Sequence[Card],
        sequence: Sequence[Card] = (),
        earlier: Sequence[Card] = (),
        rules: Rules | None = None,
        starter: Card | None = None,
        opponent_holds: int | None = None,
    ) -> PlaySituation:
        """A two-player situation from the cards alone: the seat's hand, the current count and
        the cards played before it in this hand (``earlier``).

        The cards played that are not the seat's are the opponent's: it holds the rest of a hand
        unless ``opponent_holds`` says otherwise.  Cards the seat played but are not listed are
        simply unknown.

        Raises:
            CardError: for a card given twice, too many cards, or a count past 31.
        """
        rules = rules or get_rules()
        every = [*hand, *sequence, *earlier, *([starter] if starter else [])]
        if len(set(every)) != len(every):
            raise CardError(f"a card is given twice in {format_cards(every)}")
        if sum(c.value for c in sequence) > 31:
            raise CardError(f"the count of {format_cards(sequence)} passes 31")
        size = rules.hand_size
        mine_played = size - len(hand)
        played_total = len(sequence) + len(earlier)
        theirs = size - max(0, played_total - mine_played) if opponent_holds is None else opponent_holds
        if opponent_holds is not None and not 0 <= opponent_holds <= size:
            raise CardError(f"the opponent holds 0 to {size} cards, not {opponent_holds}")
        if not 1 <= len(hand) <= size or not 0 <= theirs <= size:
            raise CardError(
                f"{len(hand)} cards in hand with {played_total} played do not fit a hand of {size} cards"
            )
        # Who played which card is not known: they are marked as played by seat -1.
        played = tuple((-1, c) for c in (*earlier, *sequence))
        return cls(rules, 0, tuple(hand), tuple(sequence), played, (len(hand), theirs), starter=starter)

    def unseen(self) -> list[Card]:
        """The cards the seat has not seen: the other hands, the crib's unknown cards, the pack."""
        starter = () if self.starter is None else (self.starter,)
        played = (card for _, card in self.played)
        return remaining(self.hand, self.kept, self.discards, self.sequence, played, starter)

    def legal(self) -> list[Card]:
        """The cards that can be played now, in card order."""
        limit = 31 - self.count
        return sorted(c for c in self.hand if c.value <= limit)
