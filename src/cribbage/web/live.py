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
A socket may also send ``{"type": "action", "action": {...}}``, with an optional ``ref`` of the
client's: the refusal of such an action then carries it, and once the action is stored the socket
is sent ``{"type": "acted", "ref": ..., "version": N}`` before the state.  ``{"type": "seen",
"version": N}`` says the page shows the seat's decision (its turn clock runs from now, see
:meth:`~cribbage.app.GameService.seen`); anything else gets
``{"type": "error", "error": "...", "code": CODE}`` (the code names the problem; nothing the client
sent is repeated) and the socket stays open.  A message is at most :data:`MAX_MESSAGE` bytes (the
server, ``cribbage serve``, refuses longer ones before they are read whole; this module refuses
them too, whatever runs it); a binary message is answered with an error; a database that does not
answer is an error (``database_unavailable``, as HTTP's 503), not the end of the socket.

Spectators (``{"watch": CODE}``) all see the same state: it is read and encoded once per change
of the game and the same text sent to each of them.

The abuse limits (:mod:`.ratelimits`) hold here as over HTTP: a missing or wrong token is a
failure of the client's address, and an address over ``wrong_token`` is refused before its token
is read; the socket and each action on it count against its token's ``token`` limit, each message
of a spectator against its address's ``spectator`` limit; an address may hold ``sockets`` sockets
open at once in a process, a game ``spectators`` spectators' sockets.  A refusal
is ``{"type": "error", "error": "...", "code": "too_many", "limit": NAME, "retry_after": N}``,
then the socket is closed with 1013 (try again later).

Presence: each process reports to the broker which seats of a game have a socket open in it
(when the first socket of a seat opens or its last one closes), and publishes the game, so every
socket of the game is sent its state again with the new ``connected`` seats.  The memory broker
keeps the reports in this process.  Redis keeps them in one hash per game
(``cribbage:presence:GAME``: a field per process, with the seats and the moment the report
expires, two thirds of :data:`PRESENCE_SECONDS` after it was made); each process renews its
reports and reads the others' every third of it, so the seats of a process that died (even by
``kill -9``) stop counting as connected within :data:`PRESENCE_SECONDS` of its last report, and
the processes still there send their sockets the change.

Who publishes: the service, once after every change it stored (it is given the broker's
:meth:`Broker.publish` as its sink, and :class:`Presence` to read, when it is made); this module
publishes only presence changes, which are no stored state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import threading
import time
from collections.abc import Callable, Collection, Coroutine
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy.exc import InterfaceError, OperationalError
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..app import AppError, GameService
from ..engine.errors import CribbageError
from .errors import status_of
from .hardening import WS_MAX_SIZE, good_game_id
from .ratelimits import LimitError, RateLimits, token_key

__all__ = [
    "CHANNEL",
    "DATABASE_RETRY_SECONDS",
    "MAX_MESSAGE",
    "PRESENCE_KEY",
    "PRESENCE_SECONDS",
    "Broker",
    "Live",
    "MemoryBroker",
    "Presence",
    "RedisBroker",
    "make_broker",
]

CHANNEL: Final = "cribbage:games"
"""The Redis channel of changes: each message is a game's id."""

PRESENCE_KEY: Final = "cribbage:presence:"
"""The prefix of a game's Redis hash of presence reports (one field per server process)."""

PRESENCE_SECONDS: Final = 30.0
"""With Redis, how long the seats of a process that died may still count as connected: its
reports count for two thirds of this unless renewed, and the others read them every third."""

FIRST_MESSAGE_SECONDS: Final = 10.0
"""How long a new socket may take to send its token."""

FIRST_MESSAGE: Final = 'the first message must be {"token": "..."} (or {"watch": "CODE"} to watch)'
ACTION_MESSAGE: Final = (
    'a message must be {"type": "action", "action": {...}}, {"type": "seen", "version": N}'
    ' or {"type": "leave"}'
)

TRY_AGAIN_LATER: Final = 1013
"""The close code of a socket refused by a limit (RFC 6455's registry: "Try Again Later")."""

REDIS_TIMEOUT_SECONDS: Final = 0.5
"""How long a request to Redis may wait (connecting or answering) before it counts as failed."""

REDIS_RETRY_SECONDS: Final = 0.5
"""While Redis is down, how often the publisher and the listener try again."""

MAX_MESSAGE: Final = WS_MAX_SIZE
"""The longest message a client may send on a live socket (bytes once decompressed; characters
here).  The longest a page sends, an action with a ``ref``, is under 300."""

MESSAGE_TOO_BIG: Final = 1009
"""The close code of a socket that sent a message over :data:`MAX_MESSAGE` (RFC 6455)."""

DATABASE_RETRY_SECONDS: Final = 5
"""What a client is told to wait (``retry_after``) while the database does not answer."""

DATABASE_ERRORS: Final = (OperationalError, InterfaceError)
"""What the database raises when it does not answer (restarting, unreachable)."""

MAX_REF: Final = 64
"""The longest ``ref`` a client may give an action sent over its socket, in characters."""

MAX_PENDING: Final = 100_000
"""How many changed games the publisher keeps while Redis is down (each one id, sent once)."""

Deliver = Callable[[str], Coroutine[Any, Any, None]]
Resync = Callable[[], Coroutine[Any, Any, None]]


class Broker:
    """Carries "game G changed" to every server process (this one included)."""

    def publish(self, game_id: str) -> None:
        """Say that a game changed; callable from any thread, never blocks on the listeners."""
        raise NotImplementedError

    async def start(self, deliver: Deliver, resync: Resync | None = None) -> None:
        """Begin delivering every published change (from any process) to ``deliver``; after a
        lost connection to the broker is made again, ``resync`` is awaited (changes published
        meanwhile were missed: the sockets read their games again)."""
        raise NotImplementedError

    expires: bool = False
    """Whether presence reports expire unless renewed (:meth:`refresh`): reports shared between
    processes, one of which may die without withdrawing its own."""

    presence_seconds: float = PRESENCE_SECONDS

    def report(self, game_id: str, node: str, seats: frozenset[int]) -> None:
        """Say which seats of a game have a socket open in the process ``node`` now (none: the
        report is withdrawn).  Blocking: call it from a thread, never fails (a report that
        cannot be made is renewed by :meth:`refresh`)."""
        raise NotImplementedError

    def refresh(self, node: str, reports: dict[str, frozenset[int]]) -> None:
        """Renew the process ``node``'s reports (every game it has sockets of) before they expire."""

    def connected(self, game_id: str) -> frozenset[int] | None:
        """The seats of a game with a socket open in any process; None when the broker cannot
        tell now (Redis down).  Blocking: call it from a thread."""
        raise NotImplementedError

    def limits_storage(self) -> Any:
        """Where counters shared by every process (the abuse limits) are kept: a ``limits``
        storage, in this process for the memory broker, in Redis for Redis."""
        from limits.storage import MemoryStorage

        return MemoryStorage()

    async def stop(self) -> None:
        """Stop delivering."""
        raise NotImplementedError


class MemoryBroker(Broker):
    """Changes within this process only (one process: the embedded default)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._deliver: Deliver | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._present: dict[str, dict[str, frozenset[int]]] = {}
        self._present_lock = threading.Lock()

    def report(self, game_id: str, node: str, seats: frozenset[int]) -> None:
        with self._present_lock:
            nodes = self._present.setdefault(game_id, {})
            if seats:
                nodes[node] = seats
            else:
                nodes.pop(node, None)
                if not nodes:
                    del self._present[game_id]

    def connected(self, game_id: str) -> frozenset[int] | None:
        with self._present_lock:
            return frozenset().union(*self._present.get(game_id, {}).values())

    def publish(self, game_id: str) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._spawn, game_id)

    def _spawn(self, game_id: str) -> None:
        if self._deliver is not None:
            task = asyncio.get_running_loop().create_task(self._deliver(game_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def start(self, deliver: Deliver, resync: Resync | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        self._deliver = deliver

    async def stop(self) -> None:
        self._loop = self._deliver = None
        for task in list(self._tasks):
            task.cancel()


class RedisBroker(Broker):
    """Changes between processes and hosts through Redis publish/subscribe (``redis://`` URL).

    :meth:`publish` publishes at once, so the message is in Redis before the action is answered.
    When that fails, Redis counts as down: the change is noted and a thread of the broker
    publishes what is noted once Redis answers again, and until then :meth:`publish` only notes,
    so actions never wait on a Redis that is down (they are stored; only the pages wait).  The
    listener subscribes again when Redis is back and has every socket of this process read its
    game again (changes published meanwhile by other processes were lost to it).
    """

    expires = True

    def __init__(self, url: str, presence_seconds: float = PRESENCE_SECONDS) -> None:
        import redis
        import redis.asyncio
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        self.url = url
        self.presence_seconds = presence_seconds
        self._publisher = redis.Redis.from_url(
            url,
            socket_timeout=REDIS_TIMEOUT_SECONDS,
            socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
            retry=Retry(NoBackoff(), 1),  # once more on a fresh connection (Redis restarted)
        )
        self._subscriber = redis.asyncio.Redis.from_url(
            url, socket_connect_timeout=REDIS_TIMEOUT_SECONDS, health_check_interval=5
        )
        self._task: asyncio.Task[None] | None = None
        self._pending: dict[str, None] = {}  # the games to publish when Redis is back, each once
        self._down = False
        self._wake = threading.Condition()
        self._stopped = False
        self._thread = threading.Thread(target=self._publish_pending, name="redis-publisher", daemon=True)

    def publish(self, game_id: str) -> None:
        import redis

        with self._wake:
            down = self._down
        if not down:
            try:
                self._publisher.publish(CHANNEL, game_id)
                return
            except (redis.RedisError, OSError):
                pass
        with self._wake:
            self._down = True
            if len(self._pending) < MAX_PENDING:
                self._pending[game_id] = None
            self._wake.notify()

    def _write(self, pipe: Any, game_id: str, node: str, seats: frozenset[int]) -> None:
        key = PRESENCE_KEY + game_id
        if not seats:
            pipe.hdel(key, node)
            return
        expires = time.time() + self.presence_seconds * 2 / 3  # read every third: gone within 1
        pipe.hset(key, node, f"{expires:.3f} {','.join(map(str, sorted(seats)))}")
        pipe.expire(key, max(1, round(2 * self.presence_seconds)))

    def report(self, game_id: str, node: str, seats: frozenset[int]) -> None:
        import redis

        with self._wake:
            if self._down:
                return  # renewed by refresh() once Redis answers
        try:
            pipe = self._publisher.pipeline(transaction=False)
            self._write(pipe, game_id, node, seats)
            pipe.execute()
        except (redis.RedisError, OSError):
            pass

    def refresh(self, node: str, reports: dict[str, frozenset[int]]) -> None:
        import redis

        if not reports:
            return
        try:
            pipe = self._publisher.pipeline(transaction=False)
            for game_id, seats in reports.items():
                self._write(pipe, game_id, node, seats)
            pipe.execute()
        except (redis.RedisError, OSError):
            pass

    def connected(self, game_id: str) -> frozenset[int] | None:
        import redis

        with self._wake:
            if self._down:
                return None
        try:
            reports = self._publisher.hgetall(PRESENCE_KEY + game_id)
        except (redis.RedisError, OSError):
            return None
        now = time.time()
        seats: set[int] = set()
        for value in reports.values():
            expires, _, listed = (value.decode() if isinstance(value, bytes) else str(value)).partition(" ")
            with contextlib.suppress(ValueError):
                if float(expires) > now:
                    seats.update(int(seat) for seat in listed.split(",") if seat)
        return frozenset(seats)

    def _publish_pending(self) -> None:
        """The publisher thread: while Redis is down, publish what is noted (in one round trip)
        every moment until it succeeds.  Ends when the broker stops."""
        import redis

        while True:
            with self._wake:
                # Woken by publish() or stop(); the timeout only bounds each wait.
                self._wake.wait_for(lambda: self._pending or self._stopped, timeout=60.0)
                if self._stopped:
                    return
                games = list(self._pending)
                self._pending.clear()
            try:
                pipe = self._publisher.pipeline(transaction=False)
                for game_id in games:
                    pipe.publish(CHANNEL, game_id)
                pipe.execute()
            except (redis.RedisError, OSError):
                with self._wake:
                    self._pending = dict.fromkeys(games) | self._pending
                    if self._wake.wait_for(lambda: self._stopped, timeout=REDIS_RETRY_SECONDS):
                        return
            else:
                with self._wake:
                    self._down = bool(self._pending)

    async def start(self, deliver: Deliver, resync: Resync | None = None) -> None:
        self._thread.start()
        ready = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._listen(deliver, resync, ready))
        await ready.wait()

    async def _listen(self, deliver: Deliver, resync: Resync | None, ready: asyncio.Event) -> None:
        import redis

        loop = asyncio.get_running_loop()
        tasks: set[asyncio.Task[None]] = set()
        lost = False
        for _ in iter(int, 1):  # until cancelled by stop(); each turn waits on Redis or sleeps
            try:
                async with self._subscriber.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    ready.set()
                    if lost and resync is not None:
                        lost = False
                        await resync()
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            data = message["data"]
                            task = loop.create_task(
                                deliver(data.decode() if isinstance(data, bytes) else str(data))
                            )
                            tasks.add(task)
                            task.add_done_callback(tasks.discard)
            except (redis.RedisError, OSError):
                ready.set()
                lost = True
                await asyncio.sleep(REDIS_RETRY_SECONDS)  # Redis restarting: subscribe again

    def limits_storage(self) -> Any:
        from limits.storage import RedisStorage

        return RedisStorage(
            self.url,
            wrap_exceptions=True,
            socket_timeout=REDIS_TIMEOUT_SECONDS,
            socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
        )

    async def stop(self) -> None:
        with self._wake:
            self._stopped = True
            self._wake.notify()
        if self._thread.is_alive():
            await asyncio.to_thread(self._thread.join, 5.0)
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
    """The seat's token; a spectator's socket has none ("")."""
    watch: str = ""
    """A spectator's watch code ("" for a seat's socket)."""
    seat: int = -1
    """The seat (-1: a spectator, who never counts as connected)."""
    address: str = "unknown"
    """The client's address (a spectator's messages count against it)."""
    sent: int = -1
    last: str | None = None
    """The last state message sent, encoded: the same state is never sent twice in a row."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


CheckAction = Callable[[dict[str, Any]], dict[str, Any]]
"""Checks an action sent on a socket as HTTP checks its body: the action to act on, or an
:class:`AppError` (``bad_request``) naming the problem without repeating the input."""


class Presence:
    """Which seats of each game have a live socket open, here and (through the broker) in every
    server process.  Made before the service, which reads it (:meth:`connected`); :class:`Live`
    tells it of this process's sockets."""

    def __init__(self, broker: Broker) -> None:
        self.broker = broker
        self.node = secrets.token_hex(8)
        """This process's name in the presence reports."""
        self.here: dict[str, frozenset[int]] = {}
        """The seats with a socket open in this process, by game."""
        self._report_lock = threading.Lock()

    def connected(self, game_id: str) -> Collection[int]:
        """The seats of a game with a live socket open now, here or in another process."""
        here = self.here.get(game_id, frozenset())
        return here | (self.broker.connected(game_id) or frozenset())

    def report(self, game_id: str) -> None:
        """Tell the broker the seats of a game with a socket here (blocking: from a thread)."""
        with self._report_lock:  # reports of one game land in the order they were made
            self.broker.report(game_id, self.node, self.here.get(game_id, frozenset()))


class Live:
    """This process's live sockets, by game.  ``presence`` is the one the service was given."""

    def __init__(
        self,
        service: GameService,
        broker: Broker,
        limits: RateLimits | None = None,
        check_action: CheckAction | None = None,
        presence: Presence | None = None,
    ) -> None:
        self.service = service
        self.broker = broker
        self.limits = limits
        self.check_action = check_action
        self.presence = presence or Presence(broker)
        self.sockets: dict[str, set[_Socket]] = {}
        self._open: dict[str, int] = {}  # the sockets open here, by client address
        self._seen: dict[str, frozenset[int]] = {}  # the presence last checked by the heartbeat
        self._heartbeat: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start delivering the broker's changes (and renewing presence reports that expire)."""
        await self.broker.start(self.changed, self.resync)
        if self.broker.expires:
            self._heartbeat = asyncio.get_running_loop().create_task(self._renew())

    async def stop(self) -> None:
        """Stop; this process's presence reports are withdrawn (they would expire anyway)."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
        gone = dict.fromkeys(self.presence.here, frozenset[int]())
        if gone:
            with contextlib.suppress(Exception):
                await run_in_threadpool(self.broker.refresh, self.presence.node, gone)
        await self.broker.stop()

    async def _presence_changed(self, game_id: str) -> None:
        """After a socket opened or closed: report the game's seats here if they changed."""
        seats = frozenset(sock.seat for sock in self.sockets.get(game_id, ()) if sock.seat >= 0)
        here = self.presence.here
        if seats == here.get(game_id, frozenset()):
            return
        if seats:
            here[game_id] = seats
        else:
            here.pop(game_id, None)
        await run_in_threadpool(self.presence.report, game_id)
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
                await run_in_threadpool(self.broker.refresh, self.presence.node, dict(self.presence.here))
                now = await run_in_threadpool(self._presences, list(self.sockets))
                seen, self._seen = self._seen, now
                for game_id, seats in now.items():
                    if seats != seen.get(game_id):
                        await self.changed(game_id)

    async def changed(self, game_id: str, *, only_newer: bool = False) -> None:
        """A game changed (here or in another process): send each of its sockets its state.
        The spectators' state is read and encoded once for all of them."""
        watchers: dict[str, list[_Socket]] = {}
        for sock in list(self.sockets.get(game_id, ())):
            if sock.watch:
                watchers.setdefault(sock.watch, []).append(sock)
            else:
                await self._send_state(game_id, sock, only_newer=only_newer)
        for code, socks in watchers.items():
            await self._send_watched(code, socks, only_newer=only_newer)

    async def resync(self) -> None:
        """Changes may have been missed (the broker was away): send every socket whose game
        moved on meanwhile its state."""
        for game_id in list(self.sockets):
            await self.changed(game_id, only_newer=True)

    async def _send_state(self, game_id: str, sock: _Socket, *, only_newer: bool = False) -> None:
        async with sock.lock:
            try:
                if sock.watch:
                    state = await run_in_threadpool(self.service.watch, sock.watch)
                else:
                    state = await run_in_threadpool(self.service.state, game_id, sock.token)
            except AppError as exc:
                await self._send(sock.websocket, {"type": "error", "error": exc.message, "code": exc.code})
                if exc.code == "unauthorized":  # its person left (from another tab or process): done
                    with contextlib.suppress(Exception):
                        await sock.websocket.close(code=1008)
                return
            except DATABASE_ERRORS:
                await self._send(sock.websocket, _database_away())
                return
            await self._deliver(
                sock, state["version"], _encode({"type": "state", "state": state}), only_newer
            )

    async def _send_watched(self, code: str, socks: list[_Socket], *, only_newer: bool) -> None:
        """The spectators of a watch code: one state, encoded once, sent to each."""
        try:
            state = await run_in_threadpool(self.service.watch, code)
        except AppError as exc:
            message = _encode({"type": "error", "error": exc.message, "code": exc.code})
        except DATABASE_ERRORS:
            message = _encode(_database_away())
        else:
            text = _encode({"type": "state", "state": state})
            for sock in socks:
                async with sock.lock:
                    await self._deliver(sock, state["version"], text, only_newer)
            return
        for sock in socks:
            await self._send_text(sock.websocket, message)

    async def _deliver(self, sock: _Socket, version: int, text: str, only_newer: bool) -> None:
        """Send a state message (``text``, at ``version``) unless the socket had a later one or
        this one already.  Hold ``sock.lock``."""
        if version < sock.sent or (only_newer and version == sock.sent):
            return  # a later state was sent already
        if text == sock.last:
            return  # nothing new (a change of presence elsewhere, a repeated message)
        sock.sent, sock.last = version, text
        await self._send_text(sock.websocket, text)

    @staticmethod
    async def _send(websocket: WebSocket, message: dict[str, Any]) -> None:
        await Live._send_text(websocket, _encode(message))

    @staticmethod
    async def _send_text(websocket: WebSocket, text: str) -> None:
        with contextlib.suppress(Exception):  # a socket closing meanwhile is dropped by serve()
            await websocket.send_text(text)

    async def serve(self, websocket: WebSocket, game_id: str) -> None:
        """One socket, from its upgrade to its end."""
        await websocket.accept()
        address = websocket.client.host if websocket.client else "unknown"
        if not await self._within(websocket, "check", "wrong_token", address):
            return
        if not await self._under_cap(websocket, "sockets", self._open.get(address, 0)):
            return
        self._open[address] = self._open.get(address, 0) + 1
        try:
            await self._serve(websocket, game_id, address)
        except WebSocketDisconnect:
            pass
        finally:
            left = self._open.pop(address) - 1
            if left:
                self._open[address] = left

    async def _serve(self, websocket: WebSocket, game_id: str, address: str) -> None:
        if not good_game_id(game_id):  # never reaches the database (a NUL byte, say)
            await self._refuse(websocket, _error("not_found", "no such game"))
            return
        try:
            first = await asyncio.wait_for(_receive(websocket), FIRST_MESSAGE_SECONDS)
        except TimeoutError:
            await self._close(websocket, 1008)
            return
        who = None if first is None or len(first) > MAX_MESSAGE else _first(first)
        if who is None:
            await self._failed(address)
            await self._refuse(websocket, _error("bad_first_message", FIRST_MESSAGE))
            return
        token, watch = who
        if token and not await self._within(websocket, "hit", "token", token_key(token)):
            return
        try:
            if watch:
                first_state = await run_in_threadpool(self.service.watch, watch)
                if first_state["id"] != game_id:
                    raise AppError("no_watch_code", "no table has this watch code")
            else:
                first_state = await run_in_threadpool(self.service.state, game_id, token)
        except AppError as exc:
            if exc.code in ("unauthorized", "no_watch_code"):  # a wrong token or watch code
                await self._failed(address)
            await self._refuse(websocket, {"type": "error", "error": exc.message, "code": exc.code})
            return
        except DATABASE_ERRORS:
            await self._send(websocket, _database_away())
            await self._close(websocket, TRY_AGAIN_LATER)
            return
        watching = sum(1 for other in self.sockets.get(game_id, ()) if other.watch)
        if watch and not await self._under_cap(websocket, "spectators", watching):
            return
        seat = first_state["seat"]
        sock = _Socket(websocket, token, watch=watch, seat=-1 if seat is None else seat, address=address)
        self.sockets.setdefault(game_id, set()).add(sock)
        try:
            await self._presence_changed(game_id)
            await self._send_state(game_id, sock)
            while await self._answer(game_id, sock, await _receive(websocket)):
                pass
        finally:
            room = self.sockets.get(game_id)
            if room is not None:
                room.discard(sock)
                if not room:
                    del self.sockets[game_id]
            with contextlib.suppress(Exception):
                await self._presence_changed(game_id)

    async def _answer(self, game_id: str, sock: _Socket, text: str | None) -> bool:
        """A message after the token (``None``: a binary one): an action, leaving, or an error
        naming what is wrong.  False once the socket is closed (its person left, or it went over
        a limit)."""
        if sock.token:
            if not await self._within(sock.websocket, "hit", "token", token_key(sock.token)):
                return False
        elif not await self._within(sock.websocket, "hit", "spectator", sock.address):
            return False
        if text is None:
            await self._send(
                sock.websocket, _error("binary_message", "a message must be text (JSON), not binary")
            )
            return True
        if len(text) > MAX_MESSAGE:
            too_long = f"a message is at most {MAX_MESSAGE} bytes"
            await self._refuse(sock.websocket, _error("too_large", too_long), MESSAGE_TOO_BIG)
            return False
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            await self._send(sock.websocket, _error("bad_json", "a message must be JSON"))
            return True
        if isinstance(message, dict) and message.get("type") == "leave" and not sock.watch:
            return await self._leave(game_id, sock)
        if isinstance(message, dict) and message.get("type") == "seen" and not sock.watch:
            await self._shown(game_id, sock, message.get("version"))
            return True
        if not isinstance(message, dict) or message.get("type") != "action":
            await self._send(sock.websocket, _error("bad_message", ACTION_MESSAGE))
            return True
        ref = message.get("ref")
        if ref is not None and not _good_ref(ref):
            bad_ref = f"'ref' must be text of at most {MAX_REF} characters or an integer"
            await self._send(sock.websocket, _error("bad_ref", bad_ref))
            return True
        tag = {} if ref is None else {"ref": ref}
        action = message.get("action")
        if sock.watch:
            await self._send(
                sock.websocket, {**_error("spectator_cannot_act", "a spectator cannot act"), **tag}
            )
            return True
        if not isinstance(action, dict):
            await self._send(sock.websocket, {**_error("bad_action", "'action' must be an object"), **tag})
            return True
        if self.check_action is not None:
            try:
                action = self.check_action(action)
            except AppError as exc:
                refused = _error("bad_action", exc.message, status_of(exc.code))
                await self._send(sock.websocket, {**refused, **tag})
                return True
        await self._act(game_id, sock, action, tag)
        return True

    async def _leave(self, game_id: str, sock: _Socket) -> bool:
        """``{"type": "leave"}``: ``left``, then the socket is closed (False); or an error.
        Under the socket's lock, so that no state the change brings comes before the answer."""
        async with sock.lock:
            try:
                left = await run_in_threadpool(self.service.leave, game_id, sock.token)
            except AppError as exc:
                await self._send(sock.websocket, _refusal(exc))
                return True
            except DATABASE_ERRORS:
                await self._send(sock.websocket, _database_away())
                return True
            await self._send(sock.websocket, {"type": "left", **left})
            await self._close(sock.websocket, 1000)
            return False

    async def _act(self, game_id: str, sock: _Socket, action: dict[str, Any], tag: dict[str, Any]) -> None:
        """An action: stored, then ``acted`` (with a ``ref``) before the state it brings (the
        service publishes the change as it is stored: the socket's lock holds that state back
        until the answer is sent); or an error."""
        async with sock.lock:
            try:
                state = await run_in_threadpool(self.service.act, game_id, sock.token, action)
            except AppError as exc:
                await self._send(sock.websocket, {**_refusal(exc), **tag})
                return
            except DATABASE_ERRORS:
                await self._send(sock.websocket, {**_database_away(), **tag})
                return
            if tag:  # stored: the client knows at once, whenever its state message comes
                await self._send(sock.websocket, {"type": "acted", **tag, "version": state["version"]})

    async def _shown(self, game_id: str, sock: _Socket, version: object) -> None:
        """``{"type": "seen", "version": N}``: the page shows its decision of that version
        (:meth:`GameService.seen`); no answer but an error (every socket gets its new state
        when it started the turn clock: the service publishes it)."""
        try:
            await run_in_threadpool(self.service.seen, game_id, sock.token, version)
        except AppError as exc:
            await self._send(sock.websocket, _refusal(exc))
        except DATABASE_ERRORS:
            await self._send(sock.websocket, _database_away())

    async def _within(self, websocket: WebSocket, how: str, name: str, key: str) -> bool:
        """Count (``hit``) or test (``check``) ``key`` against the limit ``name``; over it, say
        so with the limit's code and values and close the socket (False)."""
        if self.limits is None:
            return True
        count = self.limits.hit if how == "hit" else self.limits.check
        try:
            await run_in_threadpool(count, name, key)
        except LimitError as exc:
            await self._refuse(websocket, {"type": "error", **exc.to_json()}, TRY_AGAIN_LATER)
            return False
        return True

    async def _under_cap(self, websocket: WebSocket, name: str, count: int) -> bool:
        """Whether one more socket is allowed with ``count`` open under the cap ``name``; if not,
        say so as a limit does and close the socket (False)."""
        if self.limits is None:
            return True
        try:
            self.limits.within_cap(name, count)
        except LimitError as exc:
            await self._refuse(websocket, {"type": "error", **exc.to_json()}, TRY_AGAIN_LATER)
            return False
        return True

    async def _refuse(self, websocket: WebSocket, message: dict[str, Any], code: int = 1008) -> None:
        """Send ``message`` and close the socket with ``code``."""
        await self._send(websocket, message)
        await self._close(websocket, code)

    @staticmethod
    async def _close(websocket: WebSocket, code: int) -> None:
        with contextlib.suppress(Exception):  # closed by the client meanwhile
            await websocket.close(code=code)

    async def _failed(self, address: str) -> None:
        """A missing or wrong token from ``address``: one failure against ``wrong_token``."""
        if self.limits is not None:
            await run_in_threadpool(self.limits.failed, "wrong_token", address)


async def _receive(websocket: WebSocket) -> str | None:
    """The next message's text (``None``: a binary message).

    Raises:
        WebSocketDisconnect: the client closed the socket.
    """
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    return text if isinstance(text, str) else None


def _encode(message: dict[str, Any]) -> str:
    """A message as sent (as Starlette's ``send_json`` writes it)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _error(code: str, message: str, status: int | None = None) -> dict[str, Any]:
    """An error message: its ``code`` names the problem, ``error`` says it in English, ``status``
    is the HTTP status of the code (:func:`~cribbage.web.errors.status_of`) unless given."""
    return {"type": "error", "error": message, "code": code, "status": status or status_of(code)}


def _refusal(exc: AppError) -> dict[str, Any]:
    """The error message of a refusal of the application: its code, values and status."""
    return {"type": "error", **exc.to_json(), "status": status_of(exc.code)}


def _database_away() -> dict[str, Any]:
    """The database does not answer: as HTTP's 503, try again in a few seconds."""
    message = "the database is not answering: try again in a few seconds"
    return {**_error("database_unavailable", message), "retry_after": DATABASE_RETRY_SECONDS}


def _good_ref(ref: object) -> bool:
    """Whether ``ref`` may tag an action: short text, or an integer (not a boolean)."""
    if isinstance(ref, str):
        return len(ref) <= MAX_REF
    return type(ref) is int


def _first(text: str) -> tuple[str, str] | None:
    """A socket's first message: a seat's ``(token, "")`` or a spectator's ``("", code)``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    token, watch = data.get("token"), data.get("watch")
    if isinstance(token, str) and token:
        return token, ""
    if isinstance(watch, str) and watch:
        return "", watch
    return None
