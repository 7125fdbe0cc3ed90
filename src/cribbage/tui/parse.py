"""What the player types: commands, cards (by name or position) and numbers.

Parsing only translates text; whether the move is allowed is decided by the engine.  Every
problem raises :class:`InputError` with a short explanation meant for the player.

>>> from cribbage.engine.cards import parse_cards
>>> hand = parse_cards("2C 5H 5S JD QS KH")
>>> pick_cards("1 jd", hand, 2)
(Card.parse('2C'), Card.parse('JD'))
>>> parse_command("save my game.json")
Command(name='save', argument='my game.json')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..engine.cards import Card
from ..engine.errors import CardError, CribbageError

__all__ = ["COMMANDS", "Command", "InputError", "parse_command", "parse_number", "pick_cards", "yes"]

COMMANDS: Final = ("hint", "score", "board", "save", "help", "quit")
_ALIASES: Final = {"?": "help", "exit": "quit", "hints": "hint", "scores": "score"}
_SPLIT: Final = re.compile(r"[\s,;]+")


class InputError(CribbageError):
    """The player's answer could not be understood; the message says what was expected."""


@dataclass(frozen=True, slots=True)
class Command:
    """A command typed at any prompt: ``hint``, ``save FILE``..."""

    name: str
    argument: str = ""


def parse_command(text: str) -> Command | None:
    """The command in ``text``, or ``None`` when the text is an answer to the question."""
    words = text.strip().split(maxsplit=1)
    if not words:
        return None
    name = _ALIASES.get(words[0].lower(), words[0].lower())
    if name not in COMMANDS:
        return None
    return Command(name, words[1].strip() if len(words) > 1 else "")


def pick_cards(text: str, hand: Sequence[Card], number: int) -> tuple[Card, ...]:
    """The ``number`` cards of ``hand`` named in ``text``, by card (``5h``, ``10d``, ``TD``,
    ``5♥``) or by position in ``hand`` (1 for the first card).

    Raises:
        InputError: for an unknown card or position, a card not in the hand, a card given twice
            or the wrong number of cards.
    """
    tokens = [t for t in _SPLIT.split(text.strip()) if t]
    chosen: list[Card] = []  # each word is checked first: a word that is no card is named
    for token in tokens:
        if token.isdecimal():  # full-width digits too; never '²', which int() refuses
            position = int(token)
            if not 1 <= position <= len(hand):
                raise InputError(f"There is no card {position}: choose 1 to {len(hand)}.")
            card = hand[position - 1]
        else:
            try:
                card = Card.parse(token)
            except CardError:
                raise InputError(
                    f"{token!r} is not a card: use a rank (A 2-10 J Q K) and a suit (C D H S), "
                    f"like '5h' or '10d', or a position 1 to {len(hand)}."
                ) from None
            if card not in hand:
                raise InputError(f"You do not hold the {card.name}.")
        if card in chosen:
            raise InputError(f"You chose the {card.name} twice.")
        chosen.append(card)
    if len(chosen) != number:
        what = "one card" if number == 1 else f"{number} cards"
        example = "'1'" if number == 1 else "'" + " ".join(str(i) for i in range(1, number + 1)) + "'"
        raise InputError(f"Choose {what}, by position like {example} or by name like '5h'.")
    return tuple(chosen)


def parse_number(
    text: str, what: str = "the number of points", highest: int | None = None, or_else: str = ""
) -> int:
    """A whole number of points, at most ``highest`` (when given).

    Raises:
        InputError: naming ``what`` was expected (and ``or_else``, the other answer).

    >>> parse_number("99", "the points of your hand", 60)
    Traceback (most recent call last):
    ...
    cribbage.tui.parse.InputError: There is no count of 99: type the points of your hand, 0 to 60.
    """
    word = text.strip()
    if not word.isdecimal():
        raise InputError(f"Type {what}, like 8{or_else}.")
    number = int(word)
    if highest is not None and number > highest:
        raise InputError(f"There is no count of {number}: type {what}, 0 to {highest}{or_else}.")
    return number


def yes(text: str) -> bool | None:
    """``True`` for yes, ``False`` for no, ``None`` for anything else."""
    word = text.strip().lower()
    if word in ("y", "yes"):
        return True
    if word in ("n", "no"):
        return False
    return None
