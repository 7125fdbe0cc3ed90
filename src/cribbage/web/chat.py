"""Chat at the table on the live sockets (:mod:`.live` only dispatches here; ``docs/api.md``, "Chat").

A seat's socket may send ``{"type": "chat", "text": "..."}`` or ``{"type": "chat", "phrase":
CODE}``: once stored (:class:`~cribbage.app.chat.Chat`), every socket of the table, seats and
spectators, in every server process (through the broker, :meth:`~.messaging.broker.Broker.say`), is sent
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
from functools import partial
from typing import Any, Protocol

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket

from ..app import Actor, AppError
from ..app.chat import HISTORY
from .commands import Commands
from .delivery import Delivery
from .errors import DATABASE_ERRORS
from .messaging.broker import Broker
from .socket_messages import ReportMessage, SayMessage, database_unavailable, encode, refusal, send_text

__all__ = ["LiveChat"]


class _Open(Protocol):
    @property
    def websocket(self) -> WebSocket: ...


class LiveChat:
    """The chat of this process's live sockets (``sockets``: :attr:`Live.sockets`, by game).
    The broker's chat messages from the other processes come to :meth:`heard`."""

    def __init__(self, commands: Commands, broker: Broker, node: str, delivery: Delivery) -> None:
        self.commands = commands
        self.broker = broker
        self.node = node
        self.delivery = delivery
        self.sockets: Mapping[str, Collection[_Open]] = delivery.sockets
        broker.heard = self.heard

    def said(self, game_id: str, message: dict[str, Any]) -> None:
        """The service's sink: a chat message was stored (in the calling thread, which stored
        it): told to the other processes through the broker, and sent to this process's sockets
        of the table from the event loop.  Never raises (the message is stored already)."""
        text = encode({"type": "chat", "message": message})
        with contextlib.suppress(Exception):  # lost to the other processes' open sockets (docs)
            self.broker.say(game_id, text, self.node)
        self.delivery.soon(partial(self.heard, game_id, text))

    async def opened(self, game_id: str, websocket: WebSocket, state: Mapping[str, Any]) -> None:
        """A socket opened (its first state sent): the table's last messages, at a people's table
        where something was said."""
        if not state.get("people"):
            return
        with contextlib.suppress(*DATABASE_ERRORS):  # the next message says so, if it is still away
            said = await run_in_threadpool(self.commands.service.chat.history, game_id, HISTORY)
            if said:  # nothing said yet: nothing to send
                await send_text(websocket, encode({"type": "chat_history", "messages": said}))

    async def answer(
        self, game_id: str, websocket: WebSocket, actor: Actor, message: SayMessage | ReportMessage
    ) -> None:
        """A ``chat`` or ``report`` message of a socket, sent by ``actor`` (a spectator's has no
        token)."""
        try:
            if isinstance(message, ReportMessage):
                reported = await self.commands.report(game_id, actor, message.message)
                await send_text(websocket, encode({"type": "reported", "message": reported["message"]}))
                return
            await self.commands.chat(game_id, actor, message.text, message.phrase)  # the sink sends it
        except AppError as exc:  # a limit's refusal too (too_many, limit, retry_after)
            await send_text(websocket, encode(refusal(exc)))
        except DATABASE_ERRORS:
            await send_text(websocket, encode(database_unavailable()))

    async def heard(self, game_id: str, text: str) -> None:
        """A chat message (encoded) to every socket of its table in this process."""
        for sock in list(self.sockets.get(game_id, ())):
            await send_text(sock.websocket, text)
