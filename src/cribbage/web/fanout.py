"""The live fan-out: one change of a game, its public part encoded once for all of its sockets.

The ``STATE`` of a seat is the public part of the change, the same for every seat and every
spectator at one version, and the seat's own part (:func:`~cribbage.app.games.state.merged`).  The
public part is encoded once (:class:`Shared`, by orjson: :func:`~.jsontext.dumps`), and each
socket's ``{"type": "state", "state": STATE}`` message is that text with the small encoding of
its own part spliced in: the bodies of the two objects joined, and so in the objects of
:data:`~cribbage.app.games.state.PRIVATE` (the view, the options), whose own fields come from the
private part.  The message parses to exactly the seat's ``STATE`` as ``GET /api/games/{id}``
gives it (only the order of the fields differs), so the page reads it as it always did.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..app import AppError
from ..app.games.fanout import StateParts
from ..app.games.state import PRIVATE
from .jsontext import dumps

__all__ = ["Key", "Message", "Shared", "messages"]

Key = tuple[str, str]
"""Which state a socket is sent: its seat's token's ``(token, "")``, or a spectator's
``("", watch code)``."""

Message = tuple[int, str] | AppError
"""A state message to send (its version and text), or why the state could not be read."""


class Shared:
    """The public part of a change (:meth:`~cribbage.app.games.live_game.LiveGame.public_json`), encoded
    once: the text shared by every socket's state message."""

    __slots__ = ("_nested", "_top")

    def __init__(self, public: dict[str, Any]) -> None:
        self._top = _body({key: value for key, value in public.items() if key not in PRIVATE})
        self._nested = {
            key: _body({name: value for name, value in public[key].items() if name not in own})
            for key, own in PRIVATE.items()
        }

    def message(self, private: dict[str, Any]) -> str:
        """The state message of the seat (or the spectator) whose own part is ``private``: the
        shared text with ``private``'s spliced in (each of them has every field of
        :data:`~cribbage.app.games.state.PRIVATE`)."""
        parts = [_body({key: value for key, value in private.items() if key not in PRIVATE}), self._top]
        for key in PRIVATE:
            parts.append(f"{dumps(key)}:{{{_join(_body(private[key]), self._nested[key])}}}")
        return '{"type":"state","state":{' + _join(*parts) + "}}"


def messages(parts: StateParts, keys: Collection[Key]) -> dict[Key, Message]:
    """The state message of each key's sockets at the change ``parts`` (or why it has none):
    the public part encoded once, each seat's own part once, the spectators' once."""
    shared = Shared(parts.public)
    watched = None if parts.spectator is None else (parts.version, shared.message(parts.spectator))
    made: dict[Key, Message] = {}
    for token, watch in keys:
        if watch:
            if watched is not None:
                made[token, watch] = watched
            continue
        private = parts.private[token]
        made[token, watch] = (
            private if isinstance(private, AppError) else (parts.version, shared.message(private))
        )
    return made


def _body(value: dict[str, Any]) -> str:
    """An object's members as JSON text, without its braces ("" for an empty one)."""
    return dumps(value)[1:-1]


def _join(*bodies: str) -> str:
    """Objects' bodies joined into one (the empty ones left out)."""
    return ",".join(body for body in bodies if body)
