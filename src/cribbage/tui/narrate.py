"""Who sits where, and what happened in words: engine events turned into lines of text.

The human always sits in seat 0.  :class:`SeatNames` names the seats ("You", "Computer"; "Left"
and "Right" with three players; "Partner" across the table with four) and the sides whose
scores are kept ("Us" and "Them" in partnerships).  :class:`Narrator` announces every event:
each card played with the count, every score with its reason ("Fifteen for 2", "Go for 1",
"31 for 2", "His heels for 2"), and each show combination by combination with a running total.

>>> seating = SeatNames.for_players(2)
>>> seating.verb(0, "play"), seating.verb(1, "play"), seating.possessive(1)
('You play', 'Computer plays', "Computer's")
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rich.text import Text

from ..engine.cards import Card
from ..engine.events import Event, Kind
from ..engine.scoring import FIRST_HAND_BONUS, Combo
from ..table.seating import HUMAN
from ..text import combo_text, show_lines
from .look import Look

__all__ = ["HUMAN", "Narrator", "SeatNames", "reason"]


_SEAT_NAMES: Final = {
    2: ("You", "Computer"),
    3: ("You", "Left", "Right"),
    4: ("You", "Left", "Partner", "Right"),
}


@dataclass(frozen=True, slots=True)
class SeatNames:
    """The names of the seats and of the sides, with a little grammar for the human's seat."""

    names: tuple[str, ...]
    """Seat names; seat 0 is "You"."""
    sides: tuple[str, ...]
    """Side names, for scores and the board."""

    @classmethod
    def for_players(cls, players: int, partnerships: bool = False) -> SeatNames:
        names = _SEAT_NAMES[players]
        return cls(names, ("Us", "Them") if partnerships else names)

    def name(self, seat: int | None) -> str:
        return "nobody" if seat is None else self.names[seat]

    def side(self, seat: int) -> int:
        """The side of a seat (partners sit opposite each other)."""
        return seat % len(self.sides)

    def verb(self, seat: int | None, verb: str) -> str:
        """``You play`` or ``Computer plays`` (for regular verbs that take an ``s``)."""
        return f"You {verb}" if seat == HUMAN else f"{self.name(seat)} {verb}s"

    def whom(self, seat: int | None) -> str:
        """``you`` or ``Computer``, as the object of a sentence."""
        return "you" if seat == HUMAN else self.name(seat)

    def possessive(self, seat: int | None) -> str:
        """``your`` or ``Computer's``."""
        return "your" if seat == HUMAN else f"{self.name(seat)}'s"


def reason(combo: Combo) -> str:
    """The announcement of one combination (see :func:`cribbage.text.combo_text`).

    >>> from cribbage.engine.scoring import score_play
    >>> [reason(c) for c in score_play("5H 6D 4S KS 6H").combos]
    ['31 for 2']
    >>> [reason(c) for c in score_play("4H 6D 5S").combos]
    ['fifteen for 2', 'run of 3 for 3']
    """
    return combo_text(combo)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


class Narrator:
    """Turns events into lines of text for one seating and look."""

    def __init__(self, look: Look, seating: SeatNames) -> None:
        self.look = look
        self.seating = seating

    def name(self, seat: int | None, text: str | None = None) -> Text:
        """A seat's name (or ``text`` about it) in the colour of its side."""
        if seat is None:
            return Text(text or "nobody")
        return self.look.side(self.seating.name(seat) if text is None else text, self.seating.side(seat))

    def total(self, side: int | None, total: int | None) -> Text:
        """`` [Computer 27]``: a side's score after a peg."""
        if side is None or total is None:
            return Text()
        look = self.look
        return (
            look.dim(" [")
            + look.side(self.seating.sides[side], side)
            + Text(" ")
            + look.points(total)
            + look.dim("]")
        )

    def describe(
        self, event: Event, total: int | None = None, after: Event | None = None, starter: Card | None = None
    ) -> list[Text]:
        """The lines for ``event``; ``total`` is its side's score once its points are pegged.

        A ``play`` event is told together with the ``score`` event ``after`` it, if any (the
        caller then skips that one); a show names the ``starter``.  Events not worth a line
        (deal, discard, pass, win, hand over) give none.
        """
        seating, look, seat = self.seating, self.look, event.seat
        kind = event.kind
        if kind is Kind.CUT:
            return [self._cut_line(event.cards) + Text(f". {seating.verb(seat, 'deal')} first.")]
        if kind is Kind.RECUT:
            return [self._cut_line(event.cards) + Text(". A tie: cut again.")]
        if kind is Kind.STARTER:
            return [Text("Starter: ") + look.cards(event.cards)]
        if kind is Kind.PLAY:
            line = self.name(seat, seating.verb(seat, "play")) + Text(" ") + look.cards(event.cards)
            line.append(f", count {event.count}")
            if after is None:
                return [line + Text(".")]
            return [line + Text(": ") + self._score_text(after) + self.total(after.side, total)]
        if kind is Kind.GO:
            return [self.name(seat, seating.verb(seat, "say")) + Text(" go.")]
        if kind is Kind.SCORE:
            line = self._score_text(event) + Text(" to ") + self.name(seat, seating.whom(seat))
            return [line + self.total(event.side, total)]
        if kind is Kind.RESET:
            return [look.dim("The count starts again at 0.")] if not event.detail else []
        if kind is Kind.SHOW:
            return self.show(event, total, starter)
        if kind is Kind.MUGGINS:
            line = Text("Muggins! ") + self.name(seat, seating.verb(seat, "take")) + Text(f" {event.points}")
            return [line + self.total(event.side, total)]
        if kind is Kind.PENALTY:
            if event.detail == "over-count":
                line = Text(f"Counted {event.points} too many: {event.points} to ")
                why = Text("")
            else:
                line = Text(f"Nothing was missed: {event.points} to ")
                why = Text(" for the wrong call")
            line += self.name(seat, seating.whom(seat))
            return [line + why + self.total(event.side, total)]
        return []

    def _cut_line(self, cards: Sequence[Card]) -> Text:
        line = Text("Cut for deal: ")
        for seat, card in enumerate(cards):
            line.append_text(self.name(seat) + Text(" ") + self.look.card(card))
            line.append(", " if seat < len(cards) - 1 else "")
        return line

    def _score_text(self, event: Event) -> Text:
        reasons = ", ".join(reason(c) for c in event.combos)
        if not reasons:
            reasons = (
                event.detail if event.detail == FIRST_HAND_BONUS else f"{event.detail} for {event.points}"
            )
        text = self.look.bold(_sentence(reasons))
        if event.claim is not None and event.claim != event.points:
            text.append(f" (claimed {event.claim})")
        return text

    def show(self, event: Event, total: int | None, starter: Card | None = None) -> list[Text]:
        """A counted hand or crib: what was stated, then each combination with a running total."""
        true = sum(c.points for c in event.combos)
        head = self.shown(event.seat, event.detail, event.cards, starter)
        head.append(f": {true} point{'' if true == 1 else 's'}")
        if event.claim is not None:
            head.append(f" ({self.claim(event.seat, event.claim, true)})")
        return [head + self.total(event.side, total), *self.combos(event.combos)]

    def shown(self, seat: int | None, what: str, cards: Sequence[Card], starter: Card | None) -> Text:
        """``Computer's crib 5♥ 5♣ J♦ Q♠ + starter 5♠``."""
        what = "crib" if what == "crib" else "hand"
        line = self.name(seat, _sentence(f"{self.seating.possessive(seat)} {what}")) + Text(" ")
        line.append_text(self.look.cards(sorted(cards)))
        if starter is not None:
            line.append(" + starter ")
            line.append_text(self.look.card(starter))
        return line

    def claim(self, seat: int | None, claim: int, true: int) -> str:
        """``you counted 12: 2 missed``."""
        counted = f"{self.seating.whom(seat)} counted {claim}"
        if claim == true:
            return f"{counted}: right"
        if claim > true:
            return f"{counted}: too many"
        return f"{counted}: {true - claim} missed"

    def combos(self, combos: Sequence[Combo]) -> list[Text]:
        """One indented line per combination of the show, as a player names them (the pairs of
        a rank together, a double run as one: :func:`~cribbage.text.show_lines`), with its cards
        and the running total."""
        if not combos:
            return [Text("    nineteen: no points")]
        lines = []
        running = 0
        shown_lines = show_lines(combos)
        width = max(20, *(len(shown.words) for shown in shown_lines))
        for shown in shown_lines:
            running += shown.points
            cards = self.look.cards(sorted(shown.cards))
            line = Text(f"    {_sentence(shown.words):{width}} ") + cards
            line.append(" " * max(1, 22 - cards.cell_len) + f"{running:3}")
            lines.append(line)
        return lines
