"""The exceptions of the package.

Every error a caller can cause is a :class:`CribbageError`, itself a :class:`ValueError`, so
``except ValueError`` catches bad input of any kind while the subclasses say which kind it was.
Messages name the offending token, action or record entry so that a report can be reproduced.

Each class has a stable :attr:`~CribbageError.code` (``illegal.card``, ``illegal.action``...)
and its instances the :attr:`~CribbageError.values` that code names (the bad card, the count):
an interface answers with those and words them in its own language; it never parses the
English message, and never works out again what the engine knew when it raised.

>>> from cribbage.engine.cards import parse_cards
>>> try:
...     parse_cards("5H 5h")
... except CardError as exc:
...     print(exc.code, exc.values, exc)
illegal.card {'problem': 'duplicate', 'card': '5h'} duplicate card '5h'
"""

from __future__ import annotations

from typing import Any, Literal, TypeAlias

CardProblem: TypeAlias = Literal["invalid", "duplicate", "count"]
"""What is wrong with cards given: a token that is not a card, a card given twice, or the wrong
number of cards."""


class CribbageError(ValueError):
    """Base class of every error raised for bad input or an illegal request.

    ``CribbageError(message, **values)``: the English message, and the values the error names
    (JSON values: a card's name, a count), which an interface sends with :attr:`code`.
    """

    code: str = "illegal"
    """The stable name of the kind of error, for interfaces (``illegal``: bad input of no more
    precise kind).  A class attribute: each subclass names its own, extending its base's
    (``illegal.card``); an error outside the engine may carry a more precise one per instance."""

    def __init__(self, *args: object, **values: Any) -> None:
        super().__init__(*args)
        self.values: dict[str, Any] = values
        """What the error names beside its message (none unless given)."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its attributes (a bot match's worker process sends errors back), though
        a subclass's ``__init__`` may want more than the message."""
        return _restore, (type(self), self.args), self.__dict__


def _restore(cls: type[CribbageError], args: tuple[Any, ...]) -> CribbageError:
    """An error of ``cls`` with ``args``, its ``__init__`` not called (see ``__reduce__``)."""
    error = cls.__new__(cls, *args)
    error.args = args
    return error


class CardError(CribbageError):
    """A card or a list of cards could not be parsed (``1X``, ``11H``, a duplicate, a wrong count).

    Attributes:
        problem: ``"invalid"`` (:attr:`card` is not a card), ``"duplicate"`` (:attr:`card` is
            given twice) or ``"count"`` (:attr:`count` cards, where one of :attr:`allowed` is
            needed); None for a card built from a bad rank, suit or index.
        card: the offending token as given (a card's name for a :class:`Card`), or None.
        count: the number of cards, when it is wrong.
        allowed: the numbers of cards allowed, when the number is wrong (empty: any but ``count``).
    """

    code = "illegal.card"

    def __init__(
        self,
        message: str,
        *,
        problem: CardProblem | None = None,
        card: str | None = None,
        count: int | None = None,
        allowed: tuple[int, ...] = (),
    ) -> None:
        named = {"problem": problem, "card": card, "count": count, "allowed": list(allowed) or None}
        super().__init__(message, **{key: value for key, value in named.items() if value is not None})
        self.problem = problem
        self.card = card
        self.count = count
        self.allowed = allowed


class RulesError(CribbageError):
    """An unknown variant name or an inconsistent combination of rule options."""

    code = "illegal.rules"


class IllegalActionError(CribbageError):
    """An action that the game state does not allow now (wrong phase, wrong seat, card not held...).

    The state is left exactly as it was before the action was tried.
    """

    code = "illegal.action"


class CountError(IllegalActionError):
    """A card that would take the count past 31 (its code is still ``illegal.action``).

    Attributes:
        card: the card's name.
        count: the count it would make, the first past 31.
    """

    def __init__(self, message: str, *, card: str, count: int) -> None:
        super().__init__(message, card=card, count=count)
        self.card = card
        self.count = count


class RecordError(CribbageError):
    """A game record that is malformed, corrupt or replays an illegal action.

    The message names the first bad entry; nothing of the record is applied.
    """

    code = "bad_record"


class MugginsError(IllegalActionError):
    """A muggins call (or a pass) that may not be made now: no count awaits the decision (another
    opponent's call already took it), the seat counted it, is the counter's partner, or has
    already passed on it, or the points called are out of range.

    The state is left exactly as it was before the call was tried.
    """

    code = "illegal.muggins"
