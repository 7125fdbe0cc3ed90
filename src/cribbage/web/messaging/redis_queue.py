"""The queue of "Play now" in Redis, shared by every process and host of the server.

Redis keys (``prefix``, by default ``cribbage:queue:``):

- ``waiting``: a hash, player → the pool they wait in (one pool at a time, across all pools);
- ``pool:<pool>``: a sorted set, player → rating;
- ``joined:<pool>``: a hash, player → ``"<joined> <ticket>"`` (when they joined, on the queue's
  clock, and a random ticket naming this stay in the queue);
- ``match:<player>``: the JSON of the player's match, expiring after :data:`MATCH_SECONDS`;
- ``seats:<match>``: a hash, player → the JSON of their seat at the match's game (what "Play
  now" answers them, :meth:`MatchQueue.keep_seats`), expiring after :data:`MATCH_SECONDS`.

Joining, leaving and pairing are each one Lua script, so each happens whole or not at all and
nothing is ever half-written.  A join carries a deadline on Redis's clock, after which its
script does nothing: a join whose answer is lost (Redis stalled, the network cut) is settled
once that deadline has passed, and is then taken back if it was done, so that a refused join
changes nothing (:meth:`RedisMatchQueue.join`).  :meth:`RedisMatchQueue.pair_once` reads the pool (one
``MULTI``), chooses the groups in Python, then takes them in one script that takes a group only
if every member is still waiting *with the ticket read*: a person taken by another process
meanwhile, or who left (and came back), makes the group fail, never a second match.  A round in
which a group failed is chosen again from a fresh read, so when :meth:`pair_once` returns,
nobody it read is left waiting with a compatible group (docs/matchmaking.md).  This supposes one
Redis (not a Cluster: the scripts name keys of the pool they read).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Collection, Mapping
from typing import Any, Final

from redis import RedisError

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
    window,
)
from .queue import MATCH_SECONDS, PREFIX, MatchQueue, already_waiting, match_waiting
from .redis_client import ASYNC_TIMEOUT_SECONDS, RedisClients
from .windows import Clock

__all__ = ["RedisMatchQueue", "unavailable"]

log = logging.getLogger(__name__)

ATTEMPTS: Final = 5
"""How many times a round of pairing is chosen again after another process took some of it."""

UNJOIN_TRIES: Final = 2
"""How many times a join whose answer was lost is asked to be taken back (:meth:`RedisMatchQueue.join`)."""


JOIN: Final = """
local now = redis.call('TIME')
if tonumber(now[1]) + tonumber(now[2]) / 1000000 > tonumber(ARGV[5]) then return {'late', ''} end
local pool = redis.call('HGET', KEYS[1], ARGV[1])
if pool then return {'waiting', pool} end
local match = redis.call('GET', KEYS[4])
if match then return {'match', match} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
return {'joined', redis.call('ZCARD', KEYS[2])}
"""
"""KEYS: waiting, pool:<pool>, joined:<pool>, match:<player>; ARGV: player, pool, rating,
"<joined> <ticket>", the join's deadline on Redis's clock (seconds).  ``{"late", ""}`` (run after
its deadline: nothing done), ``{"waiting", pool}`` (the pool the player waits in already),
``{"match", JSON}`` (a match waits for them), or ``{"joined", count waiting}``."""

UNJOIN: Final = """
if redis.call('HGET', KEYS[3], ARGV[1]) == ARGV[2] then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('HDEL', KEYS[3], ARGV[1])
end
return redis.call('GET', KEYS[4])
"""
"""KEYS: waiting, pool:<pool>, joined:<pool>, match:<player>; ARGV: player, "<joined> <ticket>".
Takes back the stay of that ticket if the player is in it (and in no other); the JSON of the
match waiting for the player, or nil."""

LEAVE: Final = """
local pool = redis.call('HGET', KEYS[1], ARGV[1])
if not pool then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', ARGV[2] .. 'pool:' .. pool, ARGV[1])
redis.call('HDEL', ARGV[2] .. 'joined:' .. pool, ARGV[1])
return 1
"""
"""KEYS: waiting; ARGV: player, prefix.  1 if the player was waiting (and is no longer)."""

STATUS: Final = """
local pool = redis.call('HGET', KEYS[1], ARGV[1])
if not pool then return false end
local joined = redis.call('HGET', ARGV[2] .. 'joined:' .. pool, ARGV[1])
return {pool, joined, redis.call('ZCARD', ARGV[2] .. 'pool:' .. pool)}
"""
"""KEYS: waiting; ARGV: player, prefix.  ``{pool, "<joined> <ticket>", count}``, or nil."""

TAKE: Final = """
local waiting, ranked, joined = KEYS[1], KEYS[2], KEYS[3]
local ttl = tonumber(ARGV[1])
local at, key = 2, 4
local taken = {}
while at <= #ARGV do
  local size, match = tonumber(ARGV[at]), ARGV[at + 1]
  local whole = 1
  for m = 0, size - 1 do
    if redis.call('HGET', joined, ARGV[at + 2 + 2 * m]) ~= ARGV[at + 3 + 2 * m] then whole = 0 end
  end
  if whole == 1 then
    for m = 0, size - 1 do
      local player = ARGV[at + 2 + 2 * m]
      redis.call('HDEL', waiting, player)
      redis.call('ZREM', ranked, player)
      redis.call('HDEL', joined, player)
      redis.call('SET', KEYS[key + m], match, 'EX', ttl)
    end
  end
  taken[#taken + 1] = whole
  at, key = at + 2 + 2 * size, key + size
end
return taken
"""
"""KEYS: waiting, pool:<pool>, joined:<pool>, then match:<player> of each member of each group;
ARGV: the matches' lifetime (seconds), then for each group its size, its match's JSON and each
member's name and ``"<joined> <ticket>"`` as read.  Each group is taken (its members out of the
queue, each given the match) only if every member still waits with that ticket: 1 taken, 0 not,
by group."""

UNDO: Final = """
local waiting, ranked, joined = KEYS[1], KEYS[2], KEYS[3]
local id, pool = ARGV[1], ARGV[2]
local back = {}
for key = 4, #KEYS do
  local at = 3 + 4 * (key - 4)
  local player, kept = ARGV[at], redis.call('GET', KEYS[key])
  if kept and cjson.decode(kept)['id'] == id then
    redis.call('DEL', KEYS[key])
    if ARGV[at + 1] == '1' and not redis.call('HGET', waiting, player) then
      redis.call('HSET', waiting, player, pool)
      redis.call('ZADD', ranked, ARGV[at + 2], player)
      redis.call('HSET', joined, player, ARGV[at + 3])
      back[#back + 1] = player
    end
  end
end
return back
"""
"""KEYS: waiting, pool:<pool>, joined:<pool>, then match:<player> of each player of the match;
ARGV: the match's id, its pool, then for each player their name, ``"1"`` to put them back (else
``"0"``), their rating and ``"<joined> <ticket>"``.  Each player whose match is this one has it
no more, and is put back in the pool if asked and waiting nowhere; the players put back."""


class RedisMatchQueue(MatchQueue):
    """The queue in Redis, shared by every process and host of the server: on the clients of a
    ``redis://`` URL of its own (closed by :meth:`close`), or on a process's clients (the
    broker's, :class:`~.redis_client.RedisClients`: left open for it).

    Each request to Redis may take :data:`~.redis_client.ASYNC_TIMEOUT_SECONDS` (:attr:`timeout`);
    a join must be done by Redis within half of it (its deadline, on Redis's own clock) or not
    at all, so that a join whose answer was lost is known to be settled, and is taken back,
    before it is refused (:meth:`join`)."""

    def __init__(
        self,
        redis: str | RedisClients,
        clock: Clock = time.time,
        pools: Mapping[str, Pool] = POOLS,
        prefix: str = PREFIX,
    ) -> None:
        super().__init__(clock, pools)
        self.prefix = prefix
        self.timeout = ASYNC_TIMEOUT_SECONDS
        """How long a request to Redis may take before the queue counts as unavailable."""
        self.lost = 0
        """How many groups this queue chose that another process took first (each chosen again)."""
        self._owned = isinstance(redis, str)
        """Whether its clients are its own (of a URL), closed with it."""
        self._clients = RedisClients(redis) if isinstance(redis, str) else redis
        self._redis = self._clients.asyncio  # never sends a request twice behind our back: the queue decides
        self._join = self._redis.register_script(JOIN)
        self._unjoin = self._redis.register_script(UNJOIN)
        self._leave = self._redis.register_script(LEAVE)
        self._status = self._redis.register_script(STATUS)
        self._take = self._redis.register_script(TAKE)
        self._undo = self._redis.register_script(UNDO)

    def _keys(self, pool: str) -> list[str]:
        return [self.prefix + "waiting", f"{self.prefix}pool:{pool}", f"{self.prefix}joined:{pool}"]

    async def join(self, player: str, pool: str, rating: float) -> Status:
        """See :meth:`MatchQueue.join`.  Redis's clock is read first, and the join is sent with
        a deadline on it (half the timeout later): it is done by then or never.  When its answer
        does not come (a timeout, a lost connection), the join is settled once our clock has
        run that long since Redis's was read; it is then taken back if it was done, and refused
        ``queue.unavailable`` with nothing changed (``queue.match_waiting`` if it was done and
        the player paired meanwhile: that match is theirs)."""
        player, rating = check_player_id(player), check_rating(rating)
        get_pool(pool, self.pools)
        ticket = f"{self.clock()!r} {secrets.token_hex(8)}"
        keys = [*self._keys(pool), f"{self.prefix}match:{player}"]
        async with unavailable():
            seconds, micros = await self._redis.time()
        settled = time.monotonic() + self.timeout / 2  # by then Redis's clock is past the deadline
        deadline = seconds + micros / 1_000_000 + self.timeout / 2
        try:
            async with unavailable():
                kind, found = await self._join(
                    keys=keys, args=[player, pool, repr(rating), ticket, repr(deadline)]
                )
        except AppError:
            await self._take_back(keys, player, ticket, settled)
            raise
        if kind == "late":
            raise AppError("queue.unavailable", "the queue is too slow to answer now: try again")
        if kind == "waiting":
            raise already_waiting(found)
        if kind == "match":
            raise match_waiting(Pairing.from_json(json.loads(found)))
        return Status(pool, 0.0, int(found), window(0.0))

    async def _take_back(self, keys: list[str], player: str, ticket: str, settled: float) -> None:
        """Take back a join whose outcome is unknown, once it is settled (at ``settled``, on
        ``time.monotonic``): its stay (``ticket``) removed if it was made; a try again if Redis
        does not answer, :data:`UNJOIN_TRIES` in all.

        Raises:
            AppError: ``queue.match_waiting`` if the join was done and its player paired
                meanwhile (the match is theirs: they are told it as any match).
        """
        await asyncio.sleep(max(0.0, settled - time.monotonic()))
        for _ in range(UNJOIN_TRIES):
            try:
                async with unavailable():
                    found = await self._unjoin(keys=keys, args=[player, ticket])
            except AppError:
                continue
            if found is not None:
                raise match_waiting(Pairing.from_json(json.loads(found)))
            return
        log.warning("a join refused as the queue was unreachable may stay: it could not be taken back")

    async def leave(self, player: str) -> bool:
        async with unavailable():
            return bool(await self._leave(keys=[self.prefix + "waiting"], args=[player, self.prefix]))

    async def status(self, player: str) -> Status | None:
        async with unavailable():
            answer = await self._status(keys=[self.prefix + "waiting"], args=[player, self.prefix])
        if not answer or not answer[1]:
            return None
        pool, joined, count = answer
        waited = self.clock() - float(joined.partition(" ")[0])
        return Status(pool, waited, int(count), window(waited))

    async def _read(self, pool: str) -> tuple[list[Entry], dict[str, str]]:
        """The people waiting in ``pool`` and their tickets, read at one moment."""
        _, ranked, joined = self._keys(pool)
        async with unavailable(), self._redis.pipeline(transaction=True) as pipe:
            pipe.zrange(ranked, 0, -1, withscores=True)
            pipe.hgetall(joined)
            ratings, tickets = await pipe.execute()
        entries = [
            Entry(player, float(rating), float(tickets[player].partition(" ")[0]))
            for player, rating in ratings
            if player in tickets
        ]
        return entries, tickets

    async def waiting(self, pool: str) -> list[Entry]:
        get_pool(pool, self.pools)
        return (await self._read(pool))[0]

    async def pair_once(self, pool: str, now: float | None = None) -> list[Pairing]:
        size = self._size(pool)
        made: list[Pairing] = []
        for _ in range(ATTEMPTS):
            at = self.clock() if now is None else now
            entries, tickets = await self._read(pool)
            matches = self._matches(choose_groups(entries, size, at), pool, at)
            if not matches:
                break
            keys, args = self._keys(pool), [str(MATCH_SECONDS)]
            for match in matches:
                keys += [f"{self.prefix}match:{player}" for player in match.players]
                args += [str(len(match.players)), json.dumps(match.to_json())]
                for player in match.players:
                    args += [player, tickets[player]]
            async with unavailable():
                taken = await self._take(keys=keys, args=args)
            made += [match for match, whole in zip(matches, taken, strict=True) if whole]
            self.lost += len(taken) - sum(taken)
            if all(taken):
                break  # else another process took some of them: choose again among those left
        return made

    async def take_match(self, player: str) -> Pairing | None:
        async with unavailable():
            found = await self._redis.getdel(f"{self.prefix}match:{player}")
        return None if found is None else Pairing.from_json(json.loads(found))

    async def match_for(self, player: str) -> Pairing | None:
        async with unavailable():
            found = await self._redis.get(f"{self.prefix}match:{player}")
        return None if found is None else Pairing.from_json(json.loads(found))

    async def undo_match(self, match: Pairing, back: Collection[str]) -> list[str]:
        keys = [*self._keys(match.pool), *(f"{self.prefix}match:{player}" for player in match.players)]
        args = [match.id, match.pool]
        for index, player in enumerate(match.players):
            stay = f"{match.joined_at(index)!r} {secrets.token_hex(8)}"
            args += [player, "1" if player in back else "0", repr(match.ratings[index]), stay]
        async with unavailable():
            put_back: list[str] = await self._undo(keys=keys, args=args)
        return put_back

    async def keep_seats(self, match_id: str, seats: Mapping[str, Mapping[str, Any]]) -> None:
        key = f"{self.prefix}seats:{match_id}"
        async with unavailable(), self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping={player: json.dumps(dict(seat)) for player, seat in seats.items()})
            pipe.expire(key, MATCH_SECONDS)
            await pipe.execute()

    async def seat_of(self, match_id: str, player: str) -> dict[str, Any] | None:
        async with unavailable():
            found = await self._redis.hget(f"{self.prefix}seats:{match_id}", player)
        if found is None:
            return None
        seat: dict[str, Any] = json.loads(found)
        return seat

    async def close(self) -> None:
        """Close the clients of its own URL (a process's clients are the broker's to close)."""
        if self._owned:
            await self._clients.aclose()


@contextlib.asynccontextmanager
async def unavailable() -> AsyncIterator[None]:
    """Turns a failure to reach Redis into the refusal ``queue.unavailable``.  Its message
    names no host, port or error of Redis (those are logged, at the debug level: a pairing loop
    meets them every round while Redis is down)."""
    try:
        yield
    except (RedisError, OSError) as exc:
        log.debug("the queue cannot be reached: %r", exc)
        raise AppError("queue.unavailable", "the queue cannot be reached now: try again") from exc
