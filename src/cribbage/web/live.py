"""Live updates: every change of a game reaches every seat's open socket, in any server process.

:class:`Live` serves this process's sockets: it connects them, reads their messages
(:mod:`.socket_messages`), dispatches each to its command (:class:`~.commands.Commands`, the
same as HTTP's routes call) and sends the answers; the states themselves are delivered by
:class:`~.delivery.Delivery`.

A socket's first message is ``{"token": "..."}`` (or ``{"watch": CODE}`` to watch), with an
optional ``"protocol": 1`` (:data:`~.socket_messages.PROTOCOL`; another version is refused,
``bad_protocol``); the server then sends ``{"type": "state", "state": STATE}`` at once and after
every change of the game, each seat its own state.  A socket may also send ``{"type": "action",
"action": {...}}``, with an optional ``ref`` of the client's: the refusal of such an action then
carries it, and once the action is stored the socket is sent ``{"type": "acted", "ref": ...,
"version": N}`` before the state.  ``{"type": "seen", "version": N}`` says the page shows the
seat's decision (its turn clock runs from now, see :meth:`~cribbage.app.GameService.seen`);
``{"type": "leave"}`` leaves the table (``{"type": "left", ...}``, then the socket is closed);
anything else gets ``{"type": "error", "error": "...", "code": CODE, "status": N}`` (with the
refusal's values; the code names the problem; nothing the client sent is repeated) and the
socket stays open.  A message is at most :data:`MAX_MESSAGE` bytes (the server, ``cribbage
serve``, refuses longer ones before they are read whole; this module refuses them too, whatever
runs it); a binary message is answered with an error; a database that does not answer is an
error (``database_unavailable``, as HTTP's 503), not the end of the socket.  A message holding a
NUL character or a lone surrogate in any text is answered ``bad_text`` and nothing of it is
acted on; an integer ``ref`` beyond :data:`~.socket_messages.MAX_REF_NUMBER` in magnitude is
``bad_ref`` (checked before the action is, so nothing is stored).

The abuse limits (:mod:`.ratelimits`) hold here as over HTTP: a missing or wrong token is a
failure of the client's address, and an address over ``wrong_token`` is refused before its token
is read; the socket and each action on it count against its token's ``token`` limit, each message
of a spectator against its address's ``spectator`` limit; an address may hold ``sockets`` sockets
open at once in a process, a game ``spectators`` spectators' sockets.  A refusal
is ``{"type": "error", "error": "...", "code": "too_many", "limit": NAME, "retry_after": N}``,
then the socket is closed with 1013 (try again later).

Presence (which seats have a socket open, in any process) is described in
:mod:`.messaging.redis_broker`; chat at the table (``chat`` and ``report`` messages) in :mod:`.chat`.

Who publishes: the service, once after every change it stored and every chat message (its sink
is given this module's :meth:`Live.changed` and :meth:`Live.said`, which send the change to this
process's sockets and publish it for the others; and :class:`Presence` to read, when it is
made); :mod:`.delivery` publishes presence changes too, which are no stored state.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Collection
from typing import Any, Final, TypeVar

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..app import Actor, AppError
from ..app.games.results import State
from .chat import LiveChat
from .commands import Commands
from .delivery import Delivery, LiveSocket
from .errors import DATABASE_ERRORS
from .messaging.broker import Broker
from .messaging.presence import Presence
from .ratelimits import LimitError, token_key
from .socket_messages import (
    ACTION_MESSAGE,
    DATABASE_RETRY_SECONDS,
    MAX_MESSAGE,
    ActionMessage,
    ClientMessage,
    LeaveMessage,
    MessageError,
    ReportMessage,
    SayMessage,
    SeenMessage,
    close,
    database_unavailable,
    error,
    first_message,
    read_message,
    receive,
    refusal,
    send,
)

__all__ = ["DATABASE_RETRY_SECONDS", "MAX_MESSAGE", "Live"]

T = TypeVar("T")


FIRST_MESSAGE_SECONDS: Final = 10.0
"""How long a new socket may take to send its token."""

TRY_AGAIN_LATER: Final = 1013
"""The close code of a socket refused by a limit (RFC 6455's registry: "Try Again Later")."""


class Live:
    """This process's live sockets.  ``presence`` is the one the service was given."""

    def __init__(self, commands: Commands, broker: Broker, presence: Presence | None = None) -> None:
        self.commands = commands
        self.limits = commands.limits
        self.presence = presence or Presence(broker)
        self.delivery = Delivery(commands.service, broker, self.presence, commands.threads)
        self.sockets = self.delivery.sockets
        self._open: dict[str, int] = {}  # the sockets open here, by client address
        self.chat = LiveChat(commands, broker, self.presence.node, self.delivery)

    async def start(self) -> None:
        """Start delivering the broker's changes (and renewing presence reports that expire)."""
        await self.delivery.start()

    async def stop(self) -> None:
        """Stop; this process's presence reports are withdrawn (they would expire anyway)."""
        await self.delivery.stop()

    def changed(self, game_id: str, connected: Collection[int] | None = None) -> None:
        """The service's sink, a game's change stored: :meth:`Delivery.stored`."""
        self.delivery.stored(game_id, connected)

    def said(self, game_id: str, message: dict[str, Any]) -> None:
        """The service's sink, a chat message stored: :meth:`LiveChat.said`."""
        self.chat.said(game_id, message)

    async def serve(self, websocket: WebSocket, game_id: str) -> None:
        """One socket, from its upgrade to its end."""
        await websocket.accept()
        address = websocket.client.host if websocket.client else "unknown"
        if not await self._within(websocket, self.commands.guard(game_id, address, None)):
            return
        if not await self._under_cap(websocket, "sockets", self._open.get(address, 0)):
            return
        self._open[address] = self._open.get(address, 0) + 1
        try:
            connected = await self._connect(websocket, game_id, address)
            if connected is not None:
                await self._serve(game_id, *connected)
        except WebSocketDisconnect:
            pass
        finally:
            left = self._open.pop(address) - 1
            if left:
                self._open[address] = left

    async def _connect(
        self, websocket: WebSocket, game_id: str, address: str
    ) -> tuple[LiveSocket, Actor, State] | None:
        """A new socket's first message read and its seat (or watch code) found: its socket, who
        sends its messages (the seat's token; a spectator's, none) and the state it may see; else
        it was told why and closed (None)."""
        try:
            first_text = await asyncio.wait_for(receive(websocket), FIRST_MESSAGE_SECONDS)
        except TimeoutError:
            await close(websocket, 1008)
            return None
        try:
            first = first_message(first_text)
        except MessageError as exc:
            await self.commands.failed(address)
            await self._refuse(websocket, exc.message)
            return None
        token, watch = first.token, first.watch
        actor = Actor(token or None)
        if token and not await self._within(websocket, self.commands.count("token", token_key(token))):
            return None
        try:
            state = await self._first_state(game_id, actor, watch)
        except AppError as exc:
            await self.commands.refused(exc, address)
            await self._refuse(websocket, refusal(exc))
            return None
        except DATABASE_ERRORS:
            await self._refuse(websocket, database_unavailable(), TRY_AGAIN_LATER)
            return None
        watching = sum(1 for other in self.sockets.get(game_id, ()) if other.watch)
        if watch and not await self._under_cap(websocket, "spectators", watching):
            return None
        seat = state["seat"]
        return LiveSocket(websocket, token, watch, -1 if seat is None else seat, address), actor, state

    async def _first_state(self, game_id: str, actor: Actor, watch: str) -> State:
        """The state a new socket's seat (or watch code, of this game) may see."""
        if not watch:
            return await self.commands.state(game_id, actor)
        state = await self.commands.watch(watch)
        if state["id"] != game_id:
            raise AppError("no_watch_code", "no table has this watch code")
        return state

    async def _serve(self, game_id: str, sock: LiveSocket, actor: Actor, state: State) -> None:
        """A connected socket: its first state, the chat said so far, then its messages."""
        try:
            await self.delivery.opened(game_id, sock)
            await self.chat.opened(game_id, sock.websocket, state)
            while await self._answer(game_id, sock, actor, await receive(sock.websocket)):
                pass
        finally:
            await self.delivery.closed(game_id, sock)

    async def _answer(self, game_id: str, sock: LiveSocket, actor: Actor, text: str | None) -> bool:
        """A message after the first one (``None``: a binary one): counted against its limit, read,
        and dispatched to its command.  False once the socket is closed (its person left, or it
        went over a limit, or sent a message too long)."""
        if sock.token:
            counted = self.commands.count("token", token_key(sock.token))
        else:
            counted = self.commands.count("spectator", sock.address)
        if not await self._within(sock.websocket, counted):
            return False
        try:
            message = read_message(text)
        except MessageError as exc:
            if exc.close is None:
                await send(sock.websocket, exc.message)
                return True
            await self._refuse(sock.websocket, exc.message, exc.close)
            return False
        return await self._dispatch(game_id, sock, actor, message)

    async def _dispatch(self, game_id: str, sock: LiveSocket, actor: Actor, message: ClientMessage) -> bool:
        """A message to its command; False once the socket is closed (its person left)."""
        match message:
            case ActionMessage() if sock.watch:
                refused = error("spectator_cannot_act", "a spectator cannot act")
                await send(sock.websocket, {**refused, **message.tag})
            case ActionMessage():
                await self._act(game_id, sock, actor, message)
            case LeaveMessage() if not sock.watch:
                return await self._leave(game_id, sock, actor)
            case SeenMessage(version) if not sock.watch:
                await self._command(sock, self.commands.seen(game_id, actor, version))
            case SayMessage() | ReportMessage():
                await self.chat.answer(game_id, sock.websocket, actor, message)
            case _:  # a spectator's leave or seen
                await send(sock.websocket, error("bad_message", ACTION_MESSAGE))
        return True

    async def _act(self, game_id: str, sock: LiveSocket, actor: Actor, message: ActionMessage) -> None:
        """An action: stored, then ``acted`` (with a ``ref``) before the state it brings (the
        service publishes the change as it is stored: the socket's lock holds that state back
        until the answer is sent); or an error."""
        async with sock.lock:
            acting = self.commands.act(game_id, actor, message.action, answer=False)
            state = await self._command(sock, acting, message.tag)
            if state is not None and message.tag:  # stored: the client knows at once
                await send(sock.websocket, {"type": "acted", **message.tag, "version": state["version"]})

    async def _leave(self, game_id: str, sock: LiveSocket, actor: Actor) -> bool:
        """``{"type": "leave"}``: ``left``, then the socket is closed (False); or an error.
        Under the socket's lock, so that no state the change brings comes before the answer."""
        async with sock.lock:
            left = await self._command(sock, self.commands.leave(game_id, actor))
            if left is None:
                return True
            await send(sock.websocket, {"type": "left", **left})
            await close(sock.websocket, 1000)
            return False

    @staticmethod
    async def _command(
        sock: LiveSocket, command: Awaitable[T], tag: dict[str, Any] | None = None
    ) -> T | None:
        """A command's answer; or None, the socket told why not (the refusal, with the ``tag``
        of the message it answers)."""
        try:
            return await command
        except AppError as exc:
            await send(sock.websocket, {**refusal(exc), **(tag or {})})
        except DATABASE_ERRORS:
            await send(sock.websocket, {**database_unavailable(), **(tag or {})})
        return None

    async def _within(self, websocket: WebSocket, counting: Awaitable[None]) -> bool:
        """Whether a guard or a limit's count passed; if not, say so with the refusal's code and
        values and close the socket (False)."""
        try:
            await counting
        except LimitError as exc:
            await self._refuse(websocket, refusal(exc), TRY_AGAIN_LATER)
            return False
        except AppError as exc:  # the guard's: no game can have this id
            await self._refuse(websocket, refusal(exc))
            return False
        return True

    async def _under_cap(self, websocket: WebSocket, name: str, count: int) -> bool:
        """Whether one more socket is allowed with ``count`` open under the cap ``name``; if not,
        say so as a limit does and close the socket (False)."""
        try:
            self.limits.within_cap(name, count)
        except LimitError as exc:
            await self._refuse(websocket, refusal(exc), TRY_AGAIN_LATER)
            return False
        return True

    @staticmethod
    async def _refuse(websocket: WebSocket, message: dict[str, Any], code: int = 1008) -> None:
        """Send ``message`` and close the socket with ``code``."""
        await send(websocket, message)
        await close(websocket, code)
