"""The broker: carries one fact between server processes, "game G changed", who is connected
(:mod:`.presence`), and what the people at a table said (:mod:`cribbage.web.chat`).

:class:`Broker` is what the rest of the server sees.  :class:`MemoryBroker` carries the facts
within one process (the embedded default: SQLite, one process, no service needed);
:class:`~.redis_broker.RedisBroker` carries them between processes and hosts with Redis
publish/subscribe, which already does the fan-out, reconnection and delivery to every
subscriber that we would otherwise write.  Why Redis rather than PostgreSQL LISTEN/NOTIFY: it
works whatever the database is (also with SQLite files on each host), its client reconnects by
itself, and a restart of it loses nothing, since a message only says "read the game again"; the
state itself is always read from the database.

The broker also chooses where the abuse limits count (:meth:`Broker.limits_storage`): in this
process's memory, or in the broker's Redis, shared by every process.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Final

from limits.storage import Storage

from ...engine.errors import CribbageError
from .windows import MemoryWindows

if TYPE_CHECKING:
    from .redis_client import RedisClients

__all__ = [
    "PRESENCE_SECONDS",
    "REDIS_SCHEMES",
    "Broker",
    "Deliver",
    "Heard",
    "MemoryBroker",
    "Resync",
    "make_broker",
]

PRESENCE_SECONDS: Final = 30.0
"""With Redis, how long the seats of a process that died may still count as connected: its
reports count for two thirds of this unless renewed, and the others read them every third."""

Deliver = Callable[[str], Coroutine[Any, Any, None]]
"""Given a game's id that changed: tells this process's sockets of it."""
Resync = Callable[[], Coroutine[Any, Any, None]]
"""Has every socket of this process read its game again (changes may have been missed)."""
Heard = Callable[[str, str], Coroutine[Any, Any, None]]
"""Given a game's id and a chat message (encoded) said in another process."""

REDIS_SCHEMES: Final = ("redis://", "rediss://", "unix://")
"""How the URL of a Redis begins (``--broker``: anything else but ``memory`` is refused)."""


class Broker:
    """Carries "game G changed" to every server process (this one included)."""

    redis: RedisClients | None = None
    """The process's Redis clients when the broker is Redis (the queue of "Play now" and the
    limits share them, :mod:`.redis_client`), else None."""

    def publish(self, game_id: str, origin: str = "") -> None:
        """Say that a game changed; callable from any thread, never blocks on the listeners.
        ``origin``: the node (:attr:`~.presence.Presence.node`) of the process that told its own
        sockets already; the change is delivered to the other processes that report sockets of
        the game ("": to every process, which drops its copy of the game's presence reports)."""
        raise NotImplementedError

    async def start(self, deliver: Deliver, resync: Resync | None = None, origin: str = "") -> None:
        """Begin delivering every published change (from any process) to ``deliver``, but those
        published with ``origin`` this process's node (told already); after a lost connection
        to the broker is made again, ``resync`` is awaited (changes published meanwhile were
        missed: the sockets read their games again)."""
        raise NotImplementedError

    heard: Heard | None = None
    """Where the chat messages of the other processes go (set before :meth:`start`)."""

    wanted: Callable[[str], bool] | None = None
    """Whether this process has a socket of a game (set before :meth:`start`): the change of a
    game it has none of is not delivered (nothing would be sent)."""

    def say(self, game_id: str, text: str, origin: str) -> None:
        """Carry a chat message of a game (the socket message, encoded) to every process but
        ``origin``'s (which sent it to its own sockets).  Blocking: call it from a thread.  A
        message that cannot be carried now (Redis down) is lost to the other processes' open
        sockets; it is stored, and a socket opened later reads it in the table's history."""
        raise NotImplementedError

    settle_seconds: float = 0.0
    """How long after a process reported its first socket of a game another process may still
    decide, from the reports it read before, that nobody else is to be told of its changes."""

    expires: bool = False
    """Whether presence reports expire unless renewed (:meth:`refresh`): reports shared between
    processes, one of which may die without withdrawing its own."""

    presence_seconds: float = PRESENCE_SECONDS

    def report(self, game_id: str, node: str, seats: frozenset[int] | None) -> None:
        """Say that the process ``node`` has sockets of a game open now, and which of its seats
        (None: no socket, the report is withdrawn).  Blocking: call it from a thread, never
        fails (a report that cannot be made is renewed by :meth:`refresh`)."""
        raise NotImplementedError

    def refresh(self, node: str, reports: Mapping[str, frozenset[int] | None]) -> None:
        """Renew the process ``node``'s reports (every game it has sockets of) before they expire."""

    def connected(self, game_id: str) -> frozenset[int] | None:
        """The seats of a game with a socket open in any process; None when the broker cannot
        tell now (Redis down).  Blocking: call it from a thread."""
        raise NotImplementedError

    def limits_storage(self) -> Storage:
        """Where counters shared by every process (the abuse limits,
        :class:`~cribbage.web.ratelimits.RateLimits`) are kept: a ``limits`` storage, in this
        process for the memory broker (moving windows on the system's clock,
        :class:`~.windows.MemoryWindows`), in the broker's Redis for Redis."""
        return MemoryWindows()

    async def stop(self) -> None:
        """Stop delivering."""
        raise NotImplementedError


class MemoryBroker(Broker):
    """Changes within this process only (one process: the embedded default)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._deliver: Deliver | None = None
        self._origin = ""
        self._tasks: set[asyncio.Task[None]] = set()
        self._present: dict[str, dict[str, frozenset[int]]] = {}
        self._present_lock = threading.Lock()

    def report(self, game_id: str, node: str, seats: frozenset[int] | None) -> None:
        with self._present_lock:
            nodes = self._present.setdefault(game_id, {})
            if seats is not None:
                nodes[node] = seats
            else:
                nodes.pop(node, None)
                if not nodes:
                    del self._present[game_id]

    def connected(self, game_id: str) -> frozenset[int] | None:
        with self._present_lock:
            return frozenset().union(*self._present.get(game_id, {}).values())

    def publish(self, game_id: str, origin: str = "") -> None:
        loop = self._loop
        if origin and origin == self._origin:
            return  # the one process told its sockets already
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._spawn, game_id)

    def say(self, game_id: str, text: str, origin: str) -> None:
        loop, heard = self._loop, self.heard
        if origin == self._origin or heard is None:
            return  # the one process told its sockets already
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._hear, heard, game_id, text)

    def _hear(self, heard: Heard, game_id: str, text: str) -> None:
        task = asyncio.get_running_loop().create_task(heard(game_id, text))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _spawn(self, game_id: str) -> None:
        if self._deliver is not None:
            task = asyncio.get_running_loop().create_task(self._deliver(game_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def start(self, deliver: Deliver, resync: Resync | None = None, origin: str = "") -> None:
        self._loop = asyncio.get_running_loop()
        self._deliver = deliver
        self._origin = origin

    async def stop(self) -> None:
        self._loop = self._deliver = None
        for task in list(self._tasks):
            task.cancel()


def make_broker(url: str) -> Broker:
    """The broker of ``--broker``: ``memory`` or a ``redis://`` URL.

    Raises:
        CribbageError: for any other URL.
    """
    if url == "memory":
        return MemoryBroker()
    if url.startswith(REDIS_SCHEMES):
        from .redis_broker import RedisBroker  # (it builds on this module)

        return RedisBroker(url)
    raise CribbageError(f"unknown broker {url!r}: use 'memory' or a redis:// URL")
