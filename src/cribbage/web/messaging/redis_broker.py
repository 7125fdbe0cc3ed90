"""The broker between processes and hosts: :class:`RedisBroker`, on Redis publish/subscribe.

Presence: Redis keeps the reports of every process (:mod:`.presence`) in one hash per game
(``cribbage:presence:GAME``: a field per process, with the seats, none for a process with
spectators only, and the moment the report expires, two thirds of
:data:`~.broker.PRESENCE_SECONDS` after it was made); each process renews its reports and reads
the others' every third of it, so the seats of a process that died (even by ``kill -9``) stop
counting as connected within :data:`~.broker.PRESENCE_SECONDS` of its last report, and the
processes still there send their sockets the change.  A process keeps the reports it read of a
game for a moment (:data:`PRESENCE_CACHE_SECONDS`), until the next presence message of the game:
states and actions seldom ask Redis.

Who hears a change: a change a process stored and sent its own sockets (``origin``) is sent by
Redis only to the other processes that report sockets of the game, each on its own channel
(:data:`NODE_CHANNEL`), by one script that reads the game's presence hash and publishes
(:data:`ROUTE`): a process hears nothing of the many games it has no socket of, nor its own
changes.  Nothing is missed: a process reports its sockets of a game before it reads the game's
first state for them, so a change stored before the report is in that read and one routed after
it reaches the process.  Presence messages (a change of connected seats) and changes published
without an origin go to every process on :data:`CHANNEL` (each drops its copy of the reports).
A process whose copy of a game's reports (read for the ``connected`` seats of the state it just
sent) names no other process publishes nothing at all: a game with one process's sockets (a
person playing computers) costs Redis nothing.  As that copy may be a moment old
(:attr:`~.broker.Broker.settle_seconds`), a process that reports its first socket of a game reads
the game again that long after (:class:`~cribbage.web.live.Live`), for a change it was not told of.

The broker's clients (:class:`~.redis_client.RedisClients`) are the process's: the queue of
"Play now" and the abuse limits share them, and the broker closes them when it stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Mapping
from typing import Any, Final, cast

from limits.storage import Storage
from redis import RedisError

from .broker import PRESENCE_SECONDS, Broker, Deliver, Resync
from .redis_client import RedisClients

__all__ = [
    "CHANNEL",
    "CHAT_PREFIX",
    "NODE_CHANNEL",
    "PRESENCE_CACHE_SECONDS",
    "PRESENCE_KEY",
    "REDIS_RETRY_SECONDS",
    "RedisBroker",
]

CHANNEL: Final = "cribbage:games"
"""The Redis channel every process hears: a game's id, for a change published without an origin
(a change of the seats connected, mostly: each process drops its copy of the game's reports)."""

CHAT_PREFIX: Final = "chat:"
"""A chat message (no game id holds a colon): ``chat:GAME NODE TEXT``, where ``TEXT`` is the
socket message, encoded, and ``NODE`` the process that sent it to its own sockets."""

NODE_CHANNEL: Final = "cribbage:node:"
"""The prefix of a process's own channel (its node follows), where the changes of the games it
reports sockets of come (a game's id), and their chat messages, but those it sent itself."""

ROUTE: Final = """
local sent = 0
for _, node in ipairs(redis.call('HKEYS', KEYS[1])) do
  if node ~= ARGV[1] then
    redis.call('PUBLISH', ARGV[2] .. node, ARGV[3])
    sent = sent + 1
  end
end
return sent
"""
"""The Redis script that sends a message (``ARGV[3]``) of a game to every process that reports
sockets of it (the fields of its presence hash, ``KEYS[1]``) but ``ARGV[1]``, each on its own
channel (the prefix ``ARGV[2]`` and its node); the number of processes sent it."""

PRESENCE_KEY: Final = "cribbage:presence:"
"""The prefix of a game's Redis hash of presence reports (one field per server process)."""

REDIS_RETRY_SECONDS: Final = 0.5
"""While Redis is down, how often the publisher and the listener try again."""

LISTEN_SECONDS: Final = 1.0
"""How long the listener waits for a message before it looks whether it is to stop."""

PRESENCE_CACHE_SECONDS: Final = 1.0
"""How long a process keeps the presence reports of a game it read from Redis at most (less
when :data:`PRESENCE_SECONDS` is short): a presence message (a change of the seats of another
process) drops them at once, so only a process stopped or dead unannounced is seen so much
later (its reports carry the moment they expire, checked at each read, cached or not)."""

MAX_PENDING: Final = 100_000
"""How many changed games the publisher keeps while Redis is down (each one id, sent once)."""


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
    redis: RedisClients

    def __init__(self, url: str, presence_seconds: float = PRESENCE_SECONDS) -> None:
        self.redis = RedisClients(url)
        self.presence_seconds = presence_seconds
        self._reports: dict[str, tuple[float, dict[str, str]]] = {}
        """Each game's presence reports as last read (:meth:`connected`), by process, with when
        they were (:func:`time.monotonic`, taken before the read)."""
        self.settle_seconds = min(PRESENCE_CACHE_SECONDS, presence_seconds / 6)
        self._epoch = 0  # counts the presence messages, so a read older than one is not kept
        self._kept = threading.Lock()  # over _reports and _epoch (threads read, the loop forgets)
        self._publisher = self.redis.blocking  # (from worker threads and its own thread)
        self._route = self._publisher.register_script(ROUTE)
        self._task: asyncio.Task[None] | None = None
        self._pending: dict[tuple[str, str, str], None] = {}
        """The messages to send when Redis is back, each once: (game, origin, message)."""
        self._unwritten: dict[tuple[str, str], frozenset[int] | None] = {}
        """The presence reports to write when Redis is back, the newest of each (game, node)
        (a report withdrawn while Redis was away would otherwise stand until it expires)."""
        self._down = False
        self._wake = threading.Condition()
        self._stopped = False
        self._thread = threading.Thread(target=self._publish_pending, name="redis-publisher", daemon=True)

    def publish(self, game_id: str, origin: str = "") -> None:
        if origin and self._alone(game_id, origin):
            return  # no other process has sockets of the game
        with self._wake:
            down = self._down
        if not down:
            try:
                self._send(self._publisher, game_id, origin, game_id)
                return
            except (RedisError, OSError):
                pass
        with self._wake:
            self._down = True
            if len(self._pending) < MAX_PENDING:
                self._pending[game_id, origin, game_id] = None
            self._wake.notify()

    def _alone(self, game_id: str, origin: str) -> bool:
        """Whether the reports of a game read less than :attr:`settle_seconds` ago (and no
        presence message since) name no process but ``origin``."""
        kept = self._reports.get(game_id)
        if kept is None or time.monotonic() - kept[0] >= self.settle_seconds:
            return False
        return all(node == origin for node in kept[1])

    def _send(self, client: Any, game_id: str, origin: str, message: str) -> None:
        """Publish a game's message (on ``client``, Redis or a pipeline): to every process on
        :data:`CHANNEL` without an origin, else to the other processes with sockets of it."""
        if origin:
            self._route(keys=[PRESENCE_KEY + game_id], args=[origin, NODE_CHANNEL, message], client=client)
        else:
            client.publish(CHANNEL, message)

    def say(self, game_id: str, text: str, origin: str) -> None:
        with self._wake:
            if self._down or self._alone(game_id, origin):
                return
        with contextlib.suppress(RedisError, OSError):
            self._send(self._publisher, game_id, origin, f"{CHAT_PREFIX}{game_id} {origin} {text}")

    def _write(self, pipe: Any, game_id: str, node: str, seats: frozenset[int] | None) -> None:
        key = PRESENCE_KEY + game_id
        if seats is None:
            pipe.hdel(key, node)
            return
        expires = time.time() + self.presence_seconds * 2 / 3  # read every third: gone within 1
        pipe.hset(key, node, f"{expires:.3f} {','.join(map(str, sorted(seats)))}")
        pipe.expire(key, max(1, round(2 * self.presence_seconds)))

    def report(self, game_id: str, node: str, seats: frozenset[int] | None) -> None:
        """Written at once; while Redis is down (or if the write fails) noted, and written by
        the publisher thread, before the messages noted with it, once Redis answers."""
        try:
            with self._wake:
                later = self._down or bool(self._unwritten)  # in order after those noted
                if later:
                    self._note_report(game_id, node, seats)
            if not later:
                try:
                    pipe = self._publisher.pipeline(transaction=False)
                    self._write(pipe, game_id, node, seats)
                    pipe.execute()
                except (RedisError, OSError):
                    with self._wake:
                        self._note_report(game_id, node, seats)
        finally:
            self._forget(game_id)  # this process's own report changed: read again

    def _note_report(self, game_id: str, node: str, seats: frozenset[int] | None) -> None:
        """(Holding ``_wake``.)  A report for the publisher thread to write."""
        self._down = True
        if len(self._unwritten) < MAX_PENDING or (game_id, node) in self._unwritten:
            self._unwritten[game_id, node] = seats
        self._wake.notify()

    def refresh(self, node: str, reports: Mapping[str, frozenset[int] | None]) -> None:
        if not reports:
            return
        with self._wake:  # these are the newest: a noted one of the same game is older
            for game_id in reports:
                self._unwritten.pop((game_id, node), None)
        try:
            pipe = self._publisher.pipeline(transaction=False)
            for game_id, seats in reports.items():
                self._write(pipe, game_id, node, seats)
            pipe.execute()
        except (RedisError, OSError):  # (the first write after a restart, on a dead connection)
            with self._wake:  # noted for the publisher thread, as a report is: written once Redis answers
                for game_id, seats in reports.items():
                    self._note_report(game_id, node, seats)

    def connected(self, game_id: str) -> frozenset[int] | None:
        """Read from Redis, or from this process's copy of the reports read less than
        :data:`PRESENCE_CACHE_SECONDS` ago and no presence message since (one round trip to
        Redis saved in almost every state read and action)."""
        with self._wake:
            if self._down:
                return None
        now, moment = time.time(), time.monotonic()
        kept = self._reports.get(game_id)
        if kept is not None and moment - kept[0] < self.settle_seconds:
            reports = kept[1]
        else:
            epoch = self._epoch
            try:
                reports = cast(dict[str, str], self._publisher.hgetall(PRESENCE_KEY + game_id))  # (text)
            except (RedisError, OSError):
                return None
            with self._kept:
                if epoch == self._epoch:  # else a presence message came meanwhile: the read may predate it
                    if len(self._reports) >= MAX_PENDING:
                        self._reports.clear()
                    self._reports[game_id] = (moment, reports)
        seats: set[int] = set()
        for value in reports.values():
            expires, _, listed = value.partition(" ")
            with contextlib.suppress(ValueError):
                if float(expires) > now:
                    seats.update(int(seat) for seat in listed.split(",") if seat)
        return frozenset(seats)

    def _publish_pending(self) -> None:
        """The publisher thread: while Redis is down, write the reports and publish the messages
        that are noted (in one round trip) every moment until it succeeds.  Ends when the broker
        stops."""
        while True:
            with self._wake:
                # Woken by publish() or stop(); the timeout only bounds each wait.
                self._wake.wait_for(lambda: self._pending or self._unwritten or self._stopped, timeout=60.0)
                if self._stopped:
                    return
                noted = list(self._pending)
                self._pending.clear()
                unwritten, self._unwritten = self._unwritten, {}
            try:
                pipe = self._publisher.pipeline(transaction=False)
                for (game_id, node), seats in unwritten.items():  # before the messages they cause
                    self._write(pipe, game_id, node, seats)
                for game_id, origin, message in noted:
                    self._send(pipe, game_id, origin, message)
                pipe.execute()
            except (RedisError, OSError):
                with self._wake:
                    self._pending = dict.fromkeys(noted) | self._pending
                    self._unwritten = unwritten | self._unwritten  # a newer one noted meanwhile wins
                    if self._wake.wait_for(lambda: self._stopped, timeout=REDIS_RETRY_SECONDS):
                        return
            else:
                for game_id, _node in unwritten:
                    self._forget(game_id)
                with self._wake:
                    self._down = bool(self._pending or self._unwritten)

    async def start(self, deliver: Deliver, resync: Resync | None = None, origin: str = "") -> None:
        self._thread.start()
        ready = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._listen(deliver, resync, ready, origin))
        await ready.wait()

    async def _listen(
        self, deliver: Deliver, resync: Resync | None, ready: asyncio.Event, origin: str
    ) -> None:
        loop = asyncio.get_running_loop()
        tasks: set[asyncio.Task[None]] = set()
        lost = False
        while not self._stopped:  # until stop(); each turn waits on Redis or sleeps
            try:
                async with self.redis.asyncio.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL, *([NODE_CHANNEL + origin] if origin else []))
                    ready.set()
                    self._forget()  # presence messages may have been lost meanwhile
                    if lost and resync is not None:
                        lost = False
                        await resync()
                    while not self._stopped:  # (a cancellation may be lost: background.py)
                        message = await pubsub.get_message(timeout=LISTEN_SECONDS)
                        if message is None or message.get("type") != "message":
                            continue
                        text: str = message["data"]
                        if text.startswith(CHAT_PREFIX):
                            self._heard(text, origin, tasks)
                            continue
                        game_id = text  # never its own change: those go to the other processes
                        if message["channel"] == CHANNEL:  # to every process
                            self._forget(game_id)  # a change of presence, maybe: read again
                        if self.wanted is not None and not self.wanted(game_id):
                            continue  # no socket of the game here
                        task = loop.create_task(deliver(game_id))
                        tasks.add(task)
                        task.add_done_callback(tasks.discard)
            except (RedisError, OSError):
                ready.set()
                lost = True
                await asyncio.sleep(REDIS_RETRY_SECONDS)  # Redis restarting: subscribe again

    def _heard(self, text: str, origin: str, tasks: set[asyncio.Task[None]]) -> None:
        """A chat message on the channel: to :attr:`heard`, unless this process said it."""
        game_id, _, rest = text.removeprefix(CHAT_PREFIX).partition(" ")
        sender, _, said = rest.partition(" ")
        if self.heard is None or (origin and sender == origin):
            return
        task = asyncio.get_running_loop().create_task(self.heard(game_id, said))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    def _forget(self, game_id: str | None = None) -> None:
        """Drop the kept presence reports of a game (of every game: ``None``)."""
        with self._kept:
            self._epoch += 1
            if game_id is None:
                self._reports.clear()
            else:
                self._reports.pop(game_id, None)

    def limits_storage(self) -> Storage:
        return self.redis.limits_storage()

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
        await self.redis.aclose()
