"""Live updates: every change of a game reaches every seat's open socket, in any server process.

A :class:`Broker` carries one fact between processes: "game G changed".  :class:`MemoryBroker`
carries it within one process (the embedded default: SQLite, one process, no service needed);
:class:`RedisBroker` carries it between processes and hosts with Redis publish/subscribe, which
already does the fan-out, reconnection and delivery to every subscriber that we would otherwise
write.  Why Redis rather than PostgreSQL LISTEN/NOTIFY: it works whatever the database is (also
with SQLite files on each host), its client reconnects by itself, and a restart of it loses
nothing, since a message only says "read the game again"; the state itself is always read from
the database.

:class:`Live` holds this process's sockets.  A socket's first message is ``{"token": "..."}``;
the server then sends ``{"type": "state", "state": STATE}`` at once and after every change of the
game, each seat its own state, read from the service (which answers at the stored version).
A socket may also send ``{"type": "action", "action": {...}}``; anything else gets
``{"type": "error", "error": "..."}`` and the socket stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Final

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..engine.errors import CribbageError
from .service import ApiError, GameService

__all__ = ["CHANNEL", "Broker", "Live", "MemoryBroker", "RedisBroker", "make_broker"]

CHANNEL: Final = "cribbage:games"
"""The Redis channel of changes: each message is a game's id."""

FIRST_MESSAGE_SECONDS: Final = 10.0
"""How long a new socket may take to send its token."""

FIRST_MESSAGE: Final = 'the first message must be {"token": "..."}'
ACTION_MESSAGE: Final = 'a message must be {"type": "action", "action": {...}}'

Deliver = Callable[[str], Coroutine[Any, Any, None]]


class Broker:
    """Carries "game G changed" to every server process (this one included)."""

    def publish(self, game_id: str) -> None:
        """Say that a game changed; callable from any thread, never blocks on the listeners."""
        raise NotImplementedError

    async def start(self, deliver: Deliver) -> None:
        """Begin delivering every published change (from any process) to ``deliver``."""
        raise NotImplementedError

    async def stop(self) -> None:
        """Stop delivering."""
        raise NotImplementedError


class MemoryBroker(Broker):
    """Changes within this process only (one process: the embedded default)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._deliver: Deliver | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def publish(self, game_id: str) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._spawn, game_id)

    def _spawn(self, game_id: str) -> None:
        if self._deliver is not None:
            task = asyncio.get_running_loop().create_task(self._deliver(game_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def start(self, deliver: Deliver) -> None:
        self._loop = asyncio.get_running_loop()
        self._deliver = deliver

    async def stop(self) -> None:
        self._loop = self._deliver = None
        for task in list(self._tasks):
            task.cancel()


class RedisBroker(Broker):
    """Changes between processes and hosts through Redis publish/subscribe (``redis://`` URL)."""

    def __init__(self, url: str) -> None:
        import redis
        import redis.asyncio

        self.url = url
        self._publisher = redis.Redis.from_url(url)
        self._subscriber = redis.asyncio.Redis.from_url(url)
        self._task: asyncio.Task[None] | None = None

    def publish(self, game_id: str) -> None:
        import redis

        # The change is stored: pages that miss its message catch up when they read or reconnect.
        with contextlib.suppress(redis.RedisError):
            self._publisher.publish(CHANNEL, game_id)

    async def start(self, deliver: Deliver) -> None:
        ready = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._listen(deliver, ready))
        await ready.wait()

    async def _listen(self, deliver: Deliver, ready: asyncio.Event) -> None:
        import redis

        while True:
            try:
                async with self._subscriber.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    ready.set()
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            data = message["data"]
                            asyncio.get_running_loop().create_task(
                                deliver(data.decode() if isinstance(data, bytes) else str(data))
                            )
            except redis.RedisError:
                ready.set()
                await asyncio.sleep(0.5)  # Redis restarting: subscribe again

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._subscriber.aclose()
        self._publisher.close()


def make_broker(url: str) -> Broker:
    """The broker of ``--broker``: ``memory`` or a ``redis://`` URL.

    Raises:
        CribbageError: for any other URL.
    """
    if url == "memory":
        return MemoryBroker()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisBroker(url)
    raise CribbageError(f"unknown broker {url!r}: use 'memory' or a redis:// URL")


@dataclass(eq=False)
class _Socket:
    """One open socket: its seat's token, and the last version sent (never send an older one)."""

    websocket: WebSocket
    token: str
    sent: int = -1
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Live:
    """This process's live sockets, by game."""

    def __init__(self, service: GameService, broker: Broker) -> None:
        self.service = service
        self.broker = broker
        self.sockets: dict[str, set[_Socket]] = {}

    async def changed(self, game_id: str) -> None:
        """A game changed (here or in another process): send each of its sockets its state."""
        for sock in list(self.sockets.get(game_id, ())):
            await self._send_state(game_id, sock)

    async def _send_state(self, game_id: str, sock: _Socket) -> None:
        async with sock.lock:
            try:
                state = await run_in_threadpool(self.service.state, game_id, sock.token)
            except ApiError as exc:
                await self._send(sock.websocket, {"type": "error", "error": exc.message})
                return
            if state["version"] < sock.sent:
                return  # a later state was sent already
            sock.sent = state["version"]
            await self._send(sock.websocket, {"type": "state", "state": state})

    @staticmethod
    async def _send(websocket: WebSocket, message: dict[str, Any]) -> None:
        with contextlib.suppress(Exception):  # a socket closing meanwhile is dropped by serve()
            await websocket.send_json(message)

    async def serve(self, websocket: WebSocket, game_id: str) -> None:
        """One socket, from its token to its end."""
        await websocket.accept()
        try:
            first = await asyncio.wait_for(websocket.receive_text(), FIRST_MESSAGE_SECONDS)
        except (TimeoutError, WebSocketDisconnect):
            await websocket.close(code=1008)
            return
        token = _token(first)
        if token is None:
            await self._send(websocket, {"type": "error", "error": FIRST_MESSAGE})
            await websocket.close(code=1008)
            return
        sock = _Socket(websocket, token)
        try:
            await run_in_threadpool(self.service.state, game_id, token)
        except ApiError as exc:
            await self._send(websocket, {"type": "error", "error": exc.message})
            await websocket.close(code=1008)
            return
        self.sockets.setdefault(game_id, set()).add(sock)
        try:
            await self._send_state(game_id, sock)
            while True:
                await self._answer(game_id, sock, await websocket.receive_text())
        except WebSocketDisconnect:
            pass
        finally:
            room = self.sockets.get(game_id)
            if room is not None:
                room.discard(sock)
                if not room:
                    del self.sockets[game_id]

    async def _answer(self, game_id: str, sock: _Socket, text: str) -> None:
        """A message after the token: an action, or an error naming what is wrong."""
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            await self._send(sock.websocket, {"type": "error", "error": "a message must be JSON"})
            return
        if not isinstance(message, dict) or message.get("type") != "action":
            await self._send(sock.websocket, {"type": "error", "error": ACTION_MESSAGE})
            return
        action = message.get("action")
        if not isinstance(action, dict):
            await self._send(sock.websocket, {"type": "error", "error": "'action' must be an object"})
            return
        try:
            await run_in_threadpool(self.service.act, game_id, sock.token, action)
        except ApiError as exc:
            await self._send(sock.websocket, {"type": "error", "error": exc.message, "status": exc.status})
            return
        self.broker.publish(game_id)


def _token(text: str) -> str | None:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    token = data.get("token") if isinstance(data, dict) else None
    return token if isinstance(token, str) and token else None
