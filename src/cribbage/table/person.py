"""What a person at a table sends and asks for, read and answered the same wherever the game is
played (the server's :mod:`cribbage.app.games.round`, the browser's :mod:`cribbage.local`): an
action from its JSON, the computer's advice, the seats' default names.  A refusal is a
:class:`Refusal`, with the code and values an interface answers it with (``invalid`` naming the
``field``, ``forbidden``, ``no_hint``).
"""

from __future__ import annotations

from typing import Any, Final

from ..engine.actions import Action, Muggins, Pass, action_from_json
from ..engine.errors import CribbageError
from ..engine.state import GameState
from ..engine.view import Phase, SeatView
from .seating import computer_name

__all__ = ["PERSON_ACTIONS", "Refusal", "advice_for", "check_version", "person_action", "seat_names"]

PERSON_ACTIONS: Final = ("discard", "play", "count", "muggins", "pass")
"""The kinds of a person's action (the API's body names them too: its schema's enum)."""


class Refusal(CribbageError):
    """A person's request refused: its own :attr:`code` (``invalid``, ``forbidden``, ...)."""

    def __init__(self, code: str, message: str, **values: Any) -> None:
        super().__init__(message, **values)
        self.code = code


def person_action(data: dict[str, Any], seat: int) -> Action:
    """The action of ``seat`` from its JSON (without ``version``).

    Raises:
        Refusal: ``invalid`` (with the ``field``) if malformed, ``forbidden`` if it names
            another seat.
    """
    kind = data.get("type")
    if kind not in PERSON_ACTIONS:
        known = ", ".join(PERSON_ACTIONS)
        raise Refusal("invalid", f"unknown action type {kind!r} (known: {known})", field="type")
    given = data.get("seat", seat)
    if type(given) is not int:
        raise Refusal("invalid", f"seat must be an integer, not {given!r}", field="seat")
    if given != seat:
        raise Refusal("forbidden", f"your token plays seat {seat}, not seat {given}", seat=seat)
    try:
        return action_from_json({**data, "seat": seat})
    except CribbageError as exc:
        raise Refusal("invalid", str(exc), field="action") from None


def check_version(state: GameState, now: int, version: object, action: Action) -> None:
    """Refuse an action sent at a stale ``version`` (the game is at ``now``), saying why it
    would be refused now too, if it would (a muggins call beaten).

    Raises:
        Refusal: ``stale``, with the game's ``version``.
    """
    if version is None or version == now:
        return
    why = ""
    try:
        state.verify(action)
    except CribbageError as exc:
        why = f" ({exc})"
    raise Refusal("stale", f"stale version {version}: the game is at version {now}{why}", version=now)


def advice_for(view: SeatView) -> dict[str, Any]:
    """The computer's advice for a seat's discard or play, best first, from its view only (the
    AI's :class:`~cribbage.ai.advice.Hint` as JSON).

    Raises:
        Refusal: ``no_hint`` when the seat has no discard or play to make now.
    """
    if not view.legal:
        raise Refusal("no_hint", "no hint now: it is not your turn")
    if view.phase not in (Phase.DISCARD, Phase.PLAY) or isinstance(view.legal[0], (Muggins, Pass)):
        raise Refusal("no_hint", "hints are given for discards and plays")
    from ..ai.advice import hint  # the advice's tables are loaded with the first hint

    return hint(view).to_json()


def seat_names(given: tuple[str, ...], players: int) -> tuple[str, ...]:
    """The seats' names of a game against the computer: the given ones, then ``You`` and each
    computer's name.

    >>> seat_names(("Ann",), 3)
    ('Ann', 'Computer 2', 'Computer 3')
    """
    defaults = ["You"] + [computer_name(i, players) for i in range(1, players)]
    names = [name.strip() for name in given]
    return tuple(names[i] if i < len(names) and names[i] else defaults[i] for i in range(players))
