"""The exceptions of the package.

Every error a caller can cause is a :class:`CribbageError`, itself a :class:`ValueError`, so
``except ValueError`` catches bad input of any kind while the subclasses say which kind it was.
Messages name the offending token, action or record entry so that a report can be reproduced.
"""

from __future__ import annotations


class CribbageError(ValueError):
    """Base class of every error raised for bad input or an illegal request."""


class CardError(CribbageError):
    """A card or a list of cards could not be parsed (``1X``, ``11H``, a duplicate, a wrong count)."""


class RulesError(CribbageError):
    """An unknown variant name or an inconsistent combination of rule options."""


class IllegalActionError(CribbageError):
    """An action that the game state does not allow now (wrong phase, wrong seat, card not held...).

    The state is left exactly as it was before the action was tried.
    """


class RecordError(CribbageError):
    """A game record that is malformed, corrupt or replays an illegal action.

    The message names the first bad entry; nothing of the record is applied.
    """


class MugginsError(IllegalActionError):
    """A muggins call (or a pass) that may not be made now: no count awaits the decision (another
    opponent's call already took it), the seat counted it, is the counter's partner, or has
    already passed on it, or the points called are out of range.

    The state is left exactly as it was before the call was tried.
    """
