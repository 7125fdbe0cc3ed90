"""The queue of "Play now", shared by every server process: in Redis, or in memory for one process.

Both implementations have the interface of :class:`MatchQueue` and choose tables with the same
pure function (:func:`cribbage.app.playnow.matchmaking.choose_groups`); only where the waiting people
are kept, and how a choice is taken atomically, differ.

The Redis queue, its keys and its scripts, are in :mod:`.redis_queue`; it shares the process's
Redis clients with the broker (:func:`queue_of`).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from ...app.errors import AppError
from ...app.playnow.matchmaking import (
    POOLS,
    Entry,
    Pairing,
    Pool,
    Status,
    check_player_id,
    check_rating,
    choose_groups,
    get_pool,
    seat_order,
    window,
)
from ...engine.errors import CribbageError
from ..background import Stop
from .broker import REDIS_SCHEMES, Broker, MemoryBroker
from .windows import Clock

if TYPE_CHECKING:
    from .redis_client import RedisClients

__all__ = [
    "MATCH_SECONDS",
    "PREFIX",
    "MatchQueue",
    "MemoryMatchQueue",
    "already_waiting",
    "make_queue",
    "match_waiting",
    "pair_forever",
    "queue_of",
]


MATCH_SECONDS: Final = 300
"""How long a match waits to be taken (:meth:`MatchQueue.take_match`) before it is dropped."""

PREFIX: Final = "cribbage:queue:"
"""What the queue's keys in Redis begin with, by default (``Settings.queue_prefix``)."""

log = logging.getLogger(__name__)


def already_waiting(pool: str) -> AppError:
    """The refusal of a join while the player waits in ``pool`` already."""
    return AppError("queue.already_waiting", f"you wait in the pool {pool!r} already", pool=pool)


def match_waiting(match: Pairing) -> AppError:
    """The refusal of a join while ``match`` waits to be taken: it names the match's pool only.
    The match itself (its players' ids, their unrounded ratings) is the queue's own; the player
    is told their seat, and the others' names with the game, by ``GET /api/play``."""
    return AppError("queue.match_waiting", "a match waits for you already: GET /api/play", pool=match.pool)


class MatchQueue:
    """The queue of every pool: people join it, wait, leave, and are paired into matches.

    ``clock`` gives the time in seconds (``time.time`` by default: with Redis it must be the
    same in every process); ``pools`` are the pools by name."""

    def __init__(self, clock: Clock = time.time, pools: Mapping[str, Pool] = POOLS) -> None:
        self.clock = clock
        self.pools = dict(pools)

    async def join(self, player: str, pool: str, rating: float) -> Status:
        """Put ``player`` in the queue of ``pool`` with ``rating``; their status.

        Raises:
            AppError: ``queue.already_waiting`` (with the ``pool`` they wait in) when the player
                waits already, in this pool or another, nothing changed; ``queue.match_waiting``
                (with the match's ``pool``) when a match made for them waits to be taken
                (:meth:`take_match`: a second "Play now" while the first one's game starts);
                ``queue.unknown_pool``, ``queue.bad_player``, ``queue.bad_rating`` for a bad
                argument; ``queue.unavailable`` when the queue cannot be reached: then too
                nothing changed (:class:`RedisMatchQueue` takes back a join whose outcome it
                does not know).
        """
        raise NotImplementedError

    async def leave(self, player: str) -> bool:
        """Take ``player`` out of the queue; whether they were waiting."""
        raise NotImplementedError

    async def status(self, player: str) -> Status | None:
        """How long ``player`` has waited and how many wait in their pool; None: not waiting."""
        raise NotImplementedError

    async def waiting(self, pool: str) -> list[Entry]:
        """The people waiting in ``pool`` now, by rating (to watch the queue, and for checks)."""
        raise NotImplementedError

    async def pair_once(self, pool: str, now: float | None = None) -> list[Pairing]:
        """Make the tables of ``pool`` that the people waiting at ``now`` (default: the clock)
        allow, take their people out of the queue and leave each of them their match
        (:meth:`take_match`); the matches made by this call.  Safe to run in every process at
        once: each person is in one match at most."""
        raise NotImplementedError

    async def take_match(self, player: str) -> Pairing | None:
        """The match made for ``player``, once (it is then forgotten); None: none made (yet)."""
        raise NotImplementedError

    async def match_for(self, player: str) -> Pairing | None:
        """The match made for ``player``, left for :meth:`take_match`."""
        raise NotImplementedError

    async def undo_match(self, match: Pairing, back: Collection[str]) -> list[str]:
        """Undo ``match``, whose game will not be made (one of its people left meanwhile): it
        is forgotten for each of its players who has it still, and those of them in ``back``
        wait again in its pool, at their rating and since they first joined (their window
        kept); the players put back.  A player who has it no longer (taken, expired) is left
        as they are."""
        raise NotImplementedError

    async def keep_seats(self, match_id: str, seats: Mapping[str, Mapping[str, Any]]) -> None:
        """Keep, for every process to read, each player's seat at the game made for the match
        ``match_id`` (``seats``: player → a JSON object), for :data:`MATCH_SECONDS`."""
        raise NotImplementedError

    async def seat_of(self, match_id: str, player: str) -> dict[str, Any] | None:
        """``player``'s seat kept by :meth:`keep_seats` for ``match_id``; None: none (yet)."""
        raise NotImplementedError

    async def close(self) -> None:
        """Let go of the queue's connections."""

    def _size(self, pool: str) -> int:
        return get_pool(pool, self.pools).players

    def _matches(self, groups: Iterable[list[Entry]], pool: str, now: float) -> list[Pairing]:
        matches = []
        for group in groups:
            seats = seat_order(group)
            players = tuple(entry.player for entry in seats)
            ratings = tuple(entry.rating for entry in seats)
            joined = tuple(entry.joined for entry in seats)
            matches.append(Pairing(secrets.token_urlsafe(12), pool, players, ratings, now, joined))
        return matches


class MemoryMatchQueue(MatchQueue):
    """The queue in this process (the single-process server): every operation runs whole under
    one lock, so it is atomic."""

    def __init__(self, clock: Clock = time.time, pools: Mapping[str, Pool] = POOLS) -> None:
        super().__init__(clock, pools)
        self._lock = threading.Lock()
        self._where: dict[str, str] = {}  # player → pool
        self._waiting: dict[str, dict[str, Entry]] = {name: {} for name in self.pools}
        self._made: dict[str, tuple[float, Pairing]] = {}  # player → (expires, match)
        self._seats: dict[str, tuple[float, dict[str, dict[str, Any]]]] = {}  # match → (expires, seats)

    async def join(self, player: str, pool: str, rating: float) -> Status:
        player, rating = check_player_id(player), check_rating(rating)
        get_pool(pool, self.pools)
        with self._lock:
            if player in self._where:
                raise already_waiting(self._where[player])
            now = self.clock()
            kept = self._made.get(player)
            if kept is not None and kept[0] > now:
                raise match_waiting(kept[1])
            self._where[player] = pool
            self._waiting[pool][player] = Entry(player, rating, now)
            return Status(pool, 0.0, len(self._waiting[pool]), window(0.0))

    async def leave(self, player: str) -> bool:
        with self._lock:
            pool = self._where.pop(player, None)
            if pool is None:
                return False
            del self._waiting[pool][player]
            return True

    async def status(self, player: str) -> Status | None:
        with self._lock:
            pool = self._where.get(player)
            if pool is None:
                return None
            waited = self.clock() - self._waiting[pool][player].joined
            return Status(pool, waited, len(self._waiting[pool]), window(waited))

    async def waiting(self, pool: str) -> list[Entry]:
        get_pool(pool, self.pools)
        with self._lock:
            return sorted(self._waiting[pool].values(), key=lambda entry: (entry.rating, entry.player))

    async def pair_once(self, pool: str, now: float | None = None) -> list[Pairing]:
        size = self._size(pool)
        with self._lock:
            now = self.clock() if now is None else now
            waiting = self._waiting[pool]
            matches = self._matches(choose_groups(waiting.values(), size, now), pool, now)
            expires = self.clock() + MATCH_SECONDS
            for expired in [p for p, (until, _) in self._made.items() if until <= self.clock()]:
                del self._made[expired]
            for match in matches:
                for player in match.players:
                    del waiting[player], self._where[player]
                    self._made[player] = (expires, match)
            return matches

    async def take_match(self, player: str) -> Pairing | None:
        with self._lock:
            kept = self._made.pop(player, None)
        return kept[1] if kept is not None and kept[0] > self.clock() else None

    async def match_for(self, player: str) -> Pairing | None:
        with self._lock:
            kept = self._made.get(player)
        return kept[1] if kept is not None and kept[0] > self.clock() else None

    async def undo_match(self, match: Pairing, back: Collection[str]) -> list[str]:
        put_back = []
        with self._lock:
            now = self.clock()
            for index, player in enumerate(match.players):
                kept = self._made.get(player)
                if kept is None or kept[0] <= now or kept[1].id != match.id:
                    continue
                del self._made[player]
                if player in back and player not in self._where:
                    self._where[player] = match.pool
                    entry = Entry(player, match.ratings[index], match.joined_at(index))
                    self._waiting[match.pool][player] = entry
                    put_back.append(player)
        return put_back

    async def keep_seats(self, match_id: str, seats: Mapping[str, Mapping[str, Any]]) -> None:
        with self._lock:
            now = self.clock()
            for expired in [m for m, (until, _) in self._seats.items() if until <= now]:
                del self._seats[expired]
            self._seats[match_id] = (now + MATCH_SECONDS, {p: dict(seat) for p, seat in seats.items()})

    async def seat_of(self, match_id: str, player: str) -> dict[str, Any] | None:
        with self._lock:
            kept = self._seats.get(match_id)
        if kept is None or kept[0] <= self.clock() or player not in kept[1]:
            return None
        return dict(kept[1][player])


def make_queue(
    redis: str | RedisClients,
    clock: Clock = time.time,
    pools: Mapping[str, Pool] = POOLS,
    prefix: str = PREFIX,
) -> MatchQueue:
    """The queue of a broker's URL (``--broker``): ``memory`` or a ``redis://`` URL (on clients
    of its own, closed with the queue), or in the Redis of a process's clients (left open); its
    keys in Redis named by ``prefix``.

    Raises:
        CribbageError: for any other URL.
    """
    if redis == "memory":
        return MemoryMatchQueue(clock, pools)
    if not isinstance(redis, str) or redis.startswith(REDIS_SCHEMES):
        from .redis_queue import RedisMatchQueue  # (it builds on this module)

        return RedisMatchQueue(redis, clock, pools, prefix)
    raise CribbageError(f"unknown queue {redis!r}: use 'memory' or a redis:// URL")


def queue_of(broker: str | Broker, prefix: str, pools: Mapping[str, Pool]) -> MatchQueue:
    """The queue of ``pools`` for the application's broker: in Redis, on the broker's own
    clients, when the broker is Redis (a URL: on clients of its own), in this process's memory
    otherwise."""
    if isinstance(broker, str):
        return make_queue(broker, pools=pools, prefix=prefix)
    if broker.redis is not None:
        return make_queue(broker.redis, pools=pools, prefix=prefix)
    if not isinstance(broker, MemoryBroker):
        log.warning("the broker %r is not Redis: 'Play now' pairs within this process", broker)
    return make_queue("memory", pools=pools)


async def pair_forever(
    queue: MatchQueue,
    deliver: Callable[[Pairing], Awaitable[object]],
    pools: Iterable[str] | None = None,
    every: float = 1.0,
    stop: Stop | None = None,
) -> None:
    """Pair every pool (all of ``queue.pools`` by default) every ``every`` seconds and give each
    match made here to ``deliver`` (to create its game and tell the sockets of this process);
    until ``stop`` (checked between rounds) or cancelled.  Run it in every process: each match
    is made once, by one of them.  A round that cannot reach the queue is skipped; a match that
    ``deliver`` fails on is logged (its people were told it already: ``deliver`` should not
    fail)."""
    names = list(queue.pools if pools is None else pools)
    stop = Stop() if stop is None else stop
    while not stop:
        for pool in names:
            try:
                matches = await queue.pair_once(pool)
            except AppError:
                continue
            for match in matches:
                try:
                    await deliver(match)
                except Exception:
                    log.exception("the match %s of %s could not be delivered", match.id, match.players)
        await stop.pause(every)
