"""How the table looks: cards, hands, scores and the board, in colour or in plain ASCII.

A :class:`Look` turns game values into :class:`rich.text.Text`.  With ``fancy`` set, cards show
suit symbols in red and black on white faces and the board uses round pegs; without it every
character is ASCII and no style is used, so the output reads the same in a pipe, a log or a dumb
terminal.  :func:`supports_fancy` decides which one a stream can show.

>>> from cribbage.engine.cards import parse_cards
>>> Look(fancy=False).cards(parse_cards("5h TD")).plain
'5H 10D'
>>> Look(fancy=True).cards(parse_cards("5h TD")).plain
'5♥ 10♦'
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TextIO

from rich.text import Text

from ..engine.cards import SUIT_CHARS, Card

__all__ = ["BOARD_ROW", "Look", "supports_fancy"]

BOARD_ROW: Final = 60
"""Holes in one row of the board (a 121-point board has two rows per side, then the game hole)."""

_SYMBOLS_NEEDED: Final = "♣♦♥♠●○·"
_SIDE_STYLES: Final = ("bold cyan", "bold magenta", "bold yellow")
_RED_SUITS: Final = (1, 2)  # diamonds, hearts


def supports_fancy(stream: TextIO, env: Mapping[str, str]) -> bool:
    """Whether ``stream`` can show colour and suit symbols.

    Not when it is not a terminal, when ``TERM`` is ``dumb``, when ``NO_COLOR`` is set (to
    anything but the empty string) or when its encoding cannot encode the suit symbols.
    """
    try:
        if not stream.isatty():
            return False
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False
    if env.get("TERM") == "dumb" or env.get("NO_COLOR"):
        return False
    try:
        _SYMBOLS_NEEDED.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeError, LookupError):
        return False
    return True


@dataclass(frozen=True, slots=True)
class Look:
    """The drawing style: ``fancy`` (colour, suit symbols) or plain ASCII."""

    fancy: bool

    def styled(self, text: str, style: str) -> Text:
        """``text`` in ``style`` when fancy (as a span, so text appended later keeps its own)."""
        return Text.styled(text, style) if self.fancy else Text(text)

    def bold(self, text: str) -> Text:
        return self.styled(text, "bold")

    # ------------------------------------------------------------------ cards

    def label(self, card: Card) -> str:
        """``10♦`` or, in ASCII, ``10D``: the rank in full (10, not T) and the suit."""
        rank = "10" if card.rank == 10 else card.rank_char
        return rank + (card.symbol if self.fancy else SUIT_CHARS[card.suit])

    def card(self, card: Card) -> Text:
        """A card inside a sentence: red hearts and diamonds, bold."""
        return self.styled(self.label(card), "bold red" if card.suit in _RED_SUITS else "bold")

    def cards(self, cards: Iterable[Card]) -> Text:
        """Cards separated by spaces."""
        return Text(" ").join(self.card(c) for c in cards)

    def face(self, card: Card, *, dim: bool = False) -> Text:
        """A card drawn as a small face, five columns wide (for hands shown with positions)."""
        colour = "red" if card.suit in _RED_SUITS else "black"
        style = f"{colour} on grey70" if dim else f"bold {colour} on white"
        return self.styled(f" {self.label(card):>3} ", style)

    def hand(self, cards: Sequence[Card], playable: Collection[Card] | None = None) -> tuple[Text, Text]:
        """Two lines: the cards as faces, and their positions (1, 2...) under them.

        Cards not in ``playable`` (when given) are dimmed, or bracketed in ASCII.
        """
        faces, numbers = Text(), Text()
        for position, card in enumerate(cards, 1):
            unplayable = playable is not None and card not in playable
            if self.fancy or not unplayable:
                face = self.face(card, dim=unplayable)
            else:
                face = Text(f"({self.label(card):>3})")
            faces.append_text(face)
            faces.append(" ")
            numbers.append_text(self.dim(f"{position:^5} "))
        faces.rstrip()
        numbers.rstrip()
        return faces, numbers

    # ------------------------------------------------------------------ sides and scores

    def side(self, name: str, side: int) -> Text:
        """A side's (or a seat's) name in that side's colour."""
        return self.styled(name, _SIDE_STYLES[side % len(_SIDE_STYLES)])

    def points(self, points: int | str) -> Text:
        """A number of points, highlighted."""
        return self.styled(str(points), "bold green")

    def dim(self, text: str) -> Text:
        return self.styled(text, "dim")

    def heading(self, text: str) -> Text:
        """A section heading across the screen: ``--- Hand 3 ---``."""
        if self.fancy:
            return self.bold(f"── {text} " + "─" * max(3, 60 - len(text)))
        return Text(f"--- {text} " + "-" * max(3, 60 - len(text)))

    def scores(
        self, labels: Sequence[str], scores: Sequence[int], previous: Sequence[int], target: int
    ) -> Text:
        """``You 34 (+6)   Computer 41 (+2)   to 121``: each side's score and its last peg."""
        line = Text()
        for side, label in enumerate(labels):
            line.append_text(self.side(label, side))
            line.append(f" {scores[side]}")
            if scores[side] != previous[side]:
                line.append_text(self.dim(f" (+{scores[side] - previous[side]})"))
            line.append("   ")
        line.append_text(self.dim(f"to {target}"))
        return line

    def board(
        self, labels: Sequence[str], scores: Sequence[int], previous: Sequence[int], target: int
    ) -> list[Text]:
        """The board: for each side a track of holes with its front and back pegs.

        Holes 1 to ``target - 1`` run in rows of :data:`BOARD_ROW` (in groups of ten), each row
        one line per side; the last row ends with the game hole.  The front peg is the score, the
        back peg the score before the last peg (pegs still in the start holes are not drawn).
        """
        hole, front, back = ("·", "●", "○") if self.fancy else (".", "@", "o")
        width = max(len(label) for label in labels)
        holes = target - 1
        lines: list[Text] = []
        for start in range(1, holes + 1, BOARD_ROW):
            end = min(holes, start + BOARD_ROW - 1)
            for side, label in enumerate(labels):
                line = self.side(f"{label:<{width}} ", side)
                for number in range(start, end + 1):
                    if number == scores[side]:
                        line.append_text(self.side(front, side))
                    elif number == previous[side] and previous[side] != scores[side]:
                        line.append_text(self.side(back, side))
                    else:
                        line.append_text(self.dim(hole))
                    if number % 10 == 0 and number != end:
                        line.append(" ")
                if end == holes:
                    line.append(" ")
                    line.append_text(self.side(front, side) if scores[side] >= target else self.dim(hole))
                lines.append(line)
        return lines
