"""The states of a game to this process's live sockets, each change once, in every server process.

A :class:`~cribbage.web.messaging.broker.Broker` (:mod:`.messaging`) carries one fact between
processes: "game G changed" (:class:`MemoryBroker` within one process, :class:`RedisBroker` between
processes and hosts); the state itself is read from the database (by the process that stored
the change, from the copy it stored).

A change of a game is read once for all of its sockets here, at one stored version
(:meth:`~cribbage.app.GameService.state_parts`): the public part of its ``STATE``, the same for every
seat and spectator, is encoded once and each socket's message is that text with its seat's own
part spliced in (:mod:`.fanout`).  Spectators all get the same message.  A change stored by this
process is read and encoded in the thread that stored it, right after the save (the service's
sink, :meth:`Delivery.stored`), from the copy it stored, without reading the game again; the
other processes with sockets of the game hear of it through the broker and read it from the
database.  A socket is never sent an older state than one it had, nor the same state twice.

Presence (which seats have a socket open, in any process) is described in :mod:`.messaging.redis_broker`: this
module reports this process's sockets, publishes a change of seats (no stored state), and every
third of the presence time renews its reports and sends the sockets of a game whose presence
changed unannounced (another process died) their states.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable, Collection, Coroutine, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import anyio
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket

from ..app import AppError, GameService
from .errors import DATABASE_ERRORS
from .fanout import Key, Message, messages
from .messaging.broker import Broker
from .messaging.presence import Presence
from .socket_messages import close, database_unavailable, refusal, send, send_text
from .threads import Threads

__all__ = ["Delivery", "LiveSocket"]


@dataclass(eq=False)
class LiveSocket:
    """One open socket: its seat's token, and the last version sent (never send an older one)."""

    websocket: WebSocket
    token: str
    """The seat's token; a spectator's socket has none ("")."""
    watch: str = ""
    """A spectator's watch code ("" for a seat's socket)."""
    seat: int = -1
    """The seat (-1: a spectator, who never counts as connected)."""
    address: str = "unknown"
    """The client's address (a spectator's messages count against it)."""
    sent: int = -1
    read: int = 0
    """The number of the read of the last state sent (reads are numbered as they begin, in any
    thread): an older read, which may have missed a change of presence, is never sent after it."""
    last: str | None = None
    """The last state message sent, encoded: the same state is never sent twice in a row."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while an answer and the states it brings must keep their order."""

    @property
    def key(self) -> Key:
        """Which state the socket is sent: its seat's token's, or its watch code's."""
        return self.token, self.watch


class Delivery:
    """This process's live sockets, by game, and the delivery of their states.  ``presence`` is
    the one the service was given."""

    def __init__(self, service: GameService, broker: Broker, presence: Presence, threads: Threads) -> None:
        self.service = service
        self.broker = broker
        self.presence = presence
        self.sockets: dict[str, set[LiveSocket]] = {}
        self._seen: dict[str, frozenset[int]] = {}  # the presence last checked by the heartbeat
        self._heartbeat: asyncio.Task[None] | None = None
        self._reads = itertools.count(1)
        """Numbers the reads of states as they begin (a later one saw every change an earlier
        one did); from any thread."""
        self._wanted: dict[str, frozenset[Key]] = {}
        """The keys of each game's sockets here (replaced whole, never changed: read by
        :meth:`stored` in the service's threads)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pushes: set[asyncio.Task[None]] = set()
        self._threads = threads

    async def start(self) -> None:
        """Start delivering the broker's changes (and renewing presence reports that expire)."""
        self._loop = asyncio.get_running_loop()
        self.broker.wanted = self.sockets.__contains__
        await self.broker.start(self.changed, self.resync, origin=self.presence.node)
        if self.broker.expires:
            self._heartbeat = asyncio.get_running_loop().create_task(self._renew())

    async def stop(self) -> None:
        """Stop; this process's presence reports are withdrawn (they would expire anyway)."""
        self._loop = None
        for task in list(self._pushes):
            task.cancel()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
        gone = dict.fromkeys(self.presence.here)  # every report withdrawn
        with contextlib.suppress(Exception):
            await run_in_threadpool(self.broker.refresh, self.presence.node, gone)
        await self.broker.stop()

    # ------------------------------------------------------------ sockets opening and closing

    async def opened(self, game_id: str, sock: LiveSocket) -> None:
        """A socket of the game opened: reported, and sent its first state."""
        self.sockets.setdefault(game_id, set()).add(sock)
        self._note(game_id)
        await self._presence_changed(game_id)
        await self._send_first(game_id, sock)

    async def closed(self, game_id: str, sock: LiveSocket) -> None:
        """A socket of the game closed (never raises).  Its seat's withdrawal reaches the broker
        even when the socket's task was cancelled (the server stopping it, or a test client that
        cancels its socket as it closes): else the other processes would see the seat connected
        until this process's report expired."""
        room = self.sockets.get(game_id)
        if room is not None:
            room.discard(sock)
            if not room:
                del self.sockets[game_id]
        self._note(game_id)
        with anyio.CancelScope(shield=True), contextlib.suppress(Exception):
            await self._presence_changed(game_id)

    def _note(self, game_id: str) -> None:
        """Note the keys of a game's sockets here after one opened or closed (for :meth:`stored`)."""
        room = self.sockets.get(game_id)
        if room:
            self._wanted[game_id] = frozenset(sock.key for sock in room)
        else:
            self._wanted.pop(game_id, None)

    async def _presence_changed(self, game_id: str) -> None:
        """After a socket opened or closed: report the game's sockets and seats here if they
        changed (before a new socket's first state is read), and publish a change of seats.
        The first socket of a game here reads it again once the others know of it (a change
        stored meanwhile may not have been told here: :attr:`Broker.settle_seconds`)."""
        room = self.sockets.get(game_id)
        seats = frozenset(sock.seat for sock in room if sock.seat >= 0) if room else None
        here = self.presence.here
        before = here.get(game_id)
        if seats == before:
            return
        if seats is None:
            here.pop(game_id, None)
        else:
            here[game_id] = seats
        await run_in_threadpool(self.presence.report, game_id)
        if before is None and self.broker.settle_seconds:
            asyncio.get_running_loop().call_later(self.broker.settle_seconds, self._spawn, game_id, 0, None)
        if (seats or frozenset()) != (before or frozenset()):
            self.broker.publish(game_id)

    def _presences(self, games: list[str]) -> dict[str, frozenset[int]]:
        return {game_id: frozenset(self.presence.connected(game_id)) for game_id in games}

    async def _renew(self) -> None:
        """Every third of the presence time (at fixed moments, however long a round takes):
        renew this process's reports, and send the sockets of each game whose presence changed
        unannounced (another process died) their states (a socket is never sent the same state
        twice, so the others hear nothing)."""
        loop = asyncio.get_running_loop()
        every = self.broker.presence_seconds / 3
        due = loop.time()
        while True:
            due = max(due + every, loop.time())
            await asyncio.sleep(due - loop.time())
            with contextlib.suppress(Exception):
                await run_in_threadpool(self.presence.renew)
                now = await run_in_threadpool(self._presences, list(self.sockets))
                seen, self._seen = self._seen, now
                for game_id, seats in now.items():
                    if seats != seen.get(game_id):
                        await self.changed(game_id)

    # ------------------------------------------------------------ changes of a game

    def stored(self, game_id: str, connected: Collection[int] | None = None) -> None:
        """The service's sink: a change of the game was stored (in the calling thread, which
        stored it).  This process's sockets of the game are sent it: their states are read from
        the copy just stored and encoded here, then sent from the event loop; the other
        processes are told through the broker.  Never raises (the change is stored already).
        ``connected``: who has a live socket open, as the change's answer read it (else read
        here)."""
        loop, keys = self._loop, self._wanted.get(game_id)
        if loop is None:  # not started: nothing here listens
            self.broker.publish(game_id)
            return
        if keys:  # else a socket opened later reads its first state after this change
            read, made = next(self._reads), None
            with contextlib.suppress(Exception):  # the database away: a read from the loop says so
                made = self._read(game_id, keys, saved=True, connected=connected)
            with contextlib.suppress(RuntimeError):  # the loop closed (stopping): no socket here
                loop.call_soon_threadsafe(self._spawn, game_id, read, made)
        self.broker.publish(game_id, origin=self.presence.node)

    def soon(self, send: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """From any thread: run ``send()`` on the event loop (nothing if it is not running:
        no socket here)."""
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed (stopping)
                loop.call_soon_threadsafe(self._run, send)

    def _run(self, send: Callable[[], Coroutine[Any, Any, None]]) -> None:
        task = asyncio.get_running_loop().create_task(send())
        self._pushes.add(task)
        task.add_done_callback(self._pushes.discard)

    def _spawn(self, game_id: str, read: int, made: dict[Key, Message] | None) -> None:
        """On the loop: send the sockets of a game a change stored here (or, if it could not be
        read, read it again)."""
        if made is None:
            self._run(partial(self.changed, game_id))
        else:
            self._run(partial(self._send_all, list(self.sockets.get(game_id, ())), read, made))

    async def changed(self, game_id: str, *, only_newer: bool = False) -> None:
        """A game changed (another process said so, or a socket opened or closed): send each of
        its sockets its state.  Every state of the game is read, at one stored version, and
        encoded in one call of a worker thread."""
        socks = list(self.sockets.get(game_id, ()))
        if not socks:
            return
        try:
            read = next(self._reads)
            made = await self._threads.run(self._read, game_id, {sock.key for sock in socks})
        except DATABASE_ERRORS:
            for sock in socks:
                await send(sock.websocket, database_unavailable())
            return
        await self._send_all(socks, read, made, only_newer)

    async def resync(self) -> None:
        """Changes may have been missed (the broker was away): report the sockets here again
        (Redis may have lost them), then send each socket whose game moved on its state."""
        with contextlib.suppress(Exception):
            await run_in_threadpool(self.presence.renew)
        for game_id in list(self.sockets):
            await self.changed(game_id, only_newer=True)

    def _read(
        self,
        game_id: str,
        keys: Collection[Key],
        *,
        saved: bool = False,
        connected: Collection[int] | None = None,
    ) -> dict[Key, Message]:
        """The state message of each (token, watch code), encoded, or why there is none
        (blocking: from a worker thread): read at one version (``saved``: as this process just
        stored it, :meth:`GameService.state_parts`)."""
        tokens = {token for token, watch in keys if not watch}
        spectators = any(watch for _token, watch in keys)
        try:
            parts = self.service.state_parts(game_id, tokens, spectators, saved=saved, connected=connected)
        except AppError as exc:
            return dict.fromkeys(keys, exc)
        return messages(parts, keys)

    # ------------------------------------------------------------ sending

    async def _send_first(self, game_id: str, sock: LiveSocket) -> None:
        """A new socket's first state (or why there is none)."""
        try:
            read = next(self._reads)
            made = await self._threads.run(self._read, game_id, [sock.key])
        except DATABASE_ERRORS:
            await send(sock.websocket, database_unavailable())
            return
        await self._send_all([sock], read, made)

    async def _send_all(
        self, socks: list[LiveSocket], read: int, made: Mapping[Key, Message], only_newer: bool = False
    ) -> None:
        """Send each socket its message (or why it has none); a socket opened since the read
        (none for it; or a spectator of a game that is gone) is sent its own first state anyway."""
        for sock in socks:
            message = made.get(sock.key)
            if message is None:
                continue
            if isinstance(message, AppError):
                await self._send_refused(sock, message)
                continue
            async with sock.lock:
                await self._deliver(sock, read, *message, only_newer)

    async def _send_refused(self, sock: LiveSocket, exc: AppError) -> None:
        """Say why a socket's state was not read; closed if its person left (another tab)."""
        async with sock.lock:
            await send(sock.websocket, refusal(exc))
            if exc.code == "unauthorized" and not sock.watch:
                await close(sock.websocket, 1008)

    @staticmethod
    async def _deliver(sock: LiveSocket, read: int, version: int, text: str, only_newer: bool) -> None:
        """Send a state message (``text``, at ``version``) unless the socket had a later one or
        this one already.  Hold ``sock.lock``."""
        if read < sock.read or version < sock.sent or (only_newer and version == sock.sent):
            return  # a later state was sent already
        if text == sock.last:
            return  # nothing new (a change of presence elsewhere, a repeated message)
        sock.read, sock.sent, sock.last = read, version, text
        await send_text(sock.websocket, text)
