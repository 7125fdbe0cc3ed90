"""Chat at the table on the live sockets (:mod:`.live` only dispatches here; ``docs/api.md``, "Chat").

A seat's socket may send ``{"type": "chat", "text": "..."}`` or ``{"type": "chat", "phrase":
CODE}``: once stored (:class:`~cribbage.app.chat.Chat`), every socket of the table, seats and
spectators, in every server process (through the broker, :meth:`~.broker.Broker.say`), is sent
``{"type": "chat", "message": {"id", "seat", "text" | "phrase", "at"}}``, the sender's too.  It
may send ``{"type": "report", "message": ID}``: stored for an operator, answered
``{"type": "reported", "message": ID}``.  A socket of a table between people is sent the table's
last messages once it opened, after its first state, if anything was said there:
``{"type": "chat_history", "messages": [...]}``.  A spectator may read, never write
(``chat.spectator``).  Each chat message counts against the seat's ``chat`` limit, each report
against its ``report`` limit (reporting a flood is not refused for the flood); over one, the
refusal is the limits' (``too_many``, with ``limit`` and ``retry_after``) but the socket stays
open: the game goes on.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Mapping
from typing import Any, Final, Protocol

from sqlalchemy.exc import InterfaceError, OperationalError
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket

from ..app import AppError, GameService
from ..app.chat import HISTORY
from .broker import Broker
from .ratelimits import RateLimits, token_key
from .socket_messages import database_unavailable, encode, refusal

__all__ = ["CHAT_TYPES", "LiveChat"]

CHAT_TYPES: Final = frozenset({"chat", "report"})
"""The types of the socket messages :class:`LiveChat` answers."""

_DATABASE_ERRORS: Final = (OperationalError, InterfaceError)


class _Open(Protocol):
    @property
    def websocket(self) -> WebSocket: ...


def people_table(state: Mapping[str, Any]) -> bool:
    """Whether a ``STATE`` is of a table between people (two seats or more kept for people)."""
    return sum(1 for seat in state.get("seats", ()) if seat.get("kind") == "human") >= 2


async def _send(websocket: WebSocket, text: str) -> None:
    with contextlib.suppress(Exception):  # a socket closing meanwhile is dropped by Live.serve()
        await websocket.send_text(text)


class LiveChat:
    """The chat of this process's live sockets (``sockets``: :attr:`Live.sockets`, by game).
    The broker's chat messages from the other processes come to :meth:`heard`."""

    def __init__(
        self,
        service: GameService,
        broker: Broker,
        limits: RateLimits | None,
        node: str,
        sockets: Mapping[str, Collection[_Open]],
    ) -> None:
        self.service = service
        self.broker = broker
        self.limits = limits
        self.node = node
        self.sockets = sockets
        broker.heard = self.heard

    async def opened(self, game_id: str, websocket: WebSocket, state: Mapping[str, Any]) -> None:
        """A socket opened (its first state sent): the table's last messages, at a people's table
        where something was said."""
        if not people_table(state):
            return
        with contextlib.suppress(*_DATABASE_ERRORS):  # the next message says so, if it is still away
            said = await run_in_threadpool(self.service.chat.history, game_id, HISTORY)
            if said:  # nothing said yet: nothing to send
                await _send(websocket, encode({"type": "chat_history", "messages": said}))

    async def answer(self, game_id: str, websocket: WebSocket, token: str, message: dict[str, Any]) -> None:
        """A ``chat`` or ``report`` message of a socket (``token``: "" for a spectator's)."""
        try:
            if not token:
                raise AppError("chat.spectator", "a spectator may read the chat, not write")
            report = message.get("type") == "report"
            if self.limits is not None:
                await run_in_threadpool(self.limits.hit, "report" if report else "chat", token_key(token))
            if report:
                reported = await run_in_threadpool(
                    self.service.chat.report, game_id, token, message.get("message")
                )
                await _send(websocket, encode({"type": "reported", "message": reported["message"]}))
                return
            text = await run_in_threadpool(self._say, game_id, token, message)
        except AppError as exc:  # a limit's refusal too (too_many, limit, retry_after)
            await _send(websocket, encode(refusal(exc)))
            return
        except _DATABASE_ERRORS:
            await _send(websocket, encode(database_unavailable()))
            return
        await self.heard(game_id, text)

    def _say(self, game_id: str, token: str, message: dict[str, Any]) -> str:
        """Store what a seat said, and tell the other processes (blocking: from a thread); the
        socket message, encoded."""
        said = self.service.chat.say(game_id, token, text=message.get("text"), phrase=message.get("phrase"))
        text = encode({"type": "chat", "message": said})
        self.broker.say(game_id, text, self.node)
        return text

    async def heard(self, game_id: str, text: str) -> None:
        """A chat message (encoded) to every socket of its table in this process."""
        for sock in list(self.sockets.get(game_id, ())):
            await _send(sock.websocket, text)
