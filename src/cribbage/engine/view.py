"""What one seat may see (:class:`SeatView`), and the values of a game it holds: the
:class:`Phase`, and who acts (a seat, :data:`CHANCE` or :data:`TERMINAL`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from .actions import Action
from .cards import Card, remaining
from .rules import Rules

__all__ = ["CHANCE", "TERMINAL", "Phase", "SeatView"]

CHANCE: Final = -1
""":attr:`GameState.to_act` when the next step is a chance event."""
TERMINAL: Final = -2
""":attr:`GameState.to_act` once the game is over."""


class Phase(Enum):
    CUT = "cut"
    DEAL = "deal"
    DISCARD = "discard"
    STARTER = "starter"
    PLAY = "play"
    SHOW = "show"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may see: the only input of players, hints, bots and interfaces.

    It never holds another seat's hand, the deck or the crib before the show.  Hands shown in
    the show (``shown``) are public once counted; the crib once it is counted.
    """

    seat: int
    rules: Rules
    phase: Phase
    to_act: int
    dealer: int | None
    scores: tuple[int, ...]
    """Points of each side (index with ``rules.side_of(seat)``).  While a count awaits the
    muggins decision, the scores before it: what it pegged would tell an over-count."""
    previous_scores: tuple[int, ...]
    hand: tuple[Card, ...]
    """The cards this seat holds now."""
    kept: tuple[Card, ...]
    """This seat's hand after its discard (what it will show)."""
    discards: tuple[Card, ...]
    """This seat's own discards to the crib."""
    starter: Card | None
    count: int
    sequence: tuple[Card, ...]
    """The cards of the current count, in order."""
    played: tuple[tuple[int, Card], ...]
    """Every card played this hand with the seat that played it."""
    held: tuple[int, ...]
    """How many cards each seat still holds."""
    shown: tuple[tuple[int, str, tuple[Card, ...]], ...]
    """Hands (and the crib) counted so far in this show: (seat, "hand" or "crib", cards)."""
    crib: tuple[Card, ...]
    """The crib, once it is turned up to be counted (empty before)."""
    claim: tuple[int, str, int] | None
    """A stated count awaiting a muggins decision: (seat that counted, "play", "hand" or
    "crib", points stated).  Its cards are the last of ``shown`` (of ``played`` in the play);
    its true points are in no view until every opponent entitled to the call has decided."""
    hand_number: int
    legal: tuple[Action, ...]
    """The actions this seat may take now (empty when it is not its turn; in the discard phase
    every seat still to discard may, not only :attr:`to_act`)."""
    step: int = 0
    """The position in the game: how many actions (chance steps included) have been applied.
    With a player's seed it seeds the player's choice, so a game rebuilt from its record goes on
    exactly as it would have."""
    callers: tuple[int, ...] = ()
    """While a count awaits the muggins decision: the opponents still entitled to it, the one
    to decide first (``to_act``) first; each of them may call (or pass) now."""

    @property
    def side(self) -> int:
        return self.rules.side_of(self.seat)

    @property
    def is_dealer(self) -> bool:
        return self.dealer == self.seat

    def unseen(self) -> list[Card]:
        """Cards this seat has not seen: other hands, the crib's unknown cards and the deck."""
        starter = () if self.starter is None else (self.starter,)
        played = (card for _, card in self.played)
        shown = (card for _, _, cards in self.shown for card in cards)
        return remaining(
            self.hand, self.kept, self.discards, self.sequence, played, shown, self.crib, starter
        )

    def to_json(self) -> dict[str, Any]:
        """The view as JSON (``docs/api.md``, ``docs/protocol.md``).  Besides what the seat sees
        it carries the rules' facts (``"rules"``: :meth:`Rules.facts`) and the show's counts in
        order for the current dealer (``"show_order"``: ``[{"seat", "what"}]``, empty before the
        first dealer is known), so that no client need work the rules out for itself."""
        return {
            "seat": self.seat,
            "players": self.rules.players,
            "variant": self.rules.name,
            "target": self.rules.target,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "previous_scores": list(self.previous_scores),
            "hand": [str(c) for c in self.hand],
            "kept": [str(c) for c in self.kept],
            "discards": [str(c) for c in self.discards],
            "starter": None if self.starter is None else str(self.starter),
            "count": self.count,
            "sequence": [str(c) for c in self.sequence],
            "played": [{"seat": s, "card": str(c)} for s, c in self.played],
            "held": list(self.held),
            "shown": [{"seat": s, "what": w, "cards": [str(c) for c in cards]} for s, w, cards in self.shown],
            "crib": [str(c) for c in self.crib],
            "claim": None
            if self.claim is None
            else {
                "seat": self.claim[0],
                "what": self.claim[1],
                "points": self.claim[2],
                "callers": list(self.callers),
            },
            "hand_number": self.hand_number,
            "rules": self.rules.facts(),
            "show_order": []
            if self.dealer is None
            else [{"seat": s, "what": w} for s, w in self.rules.show_order(self.dealer)],
        }
