"""The one place a server process connects to Redis: :class:`RedisClients`.

A process with a ``redis://`` broker (``--broker``) reaches one Redis, at one URL, for four things:
the broker's messages and presence reports (:mod:`.redis_broker`), the abuse limits' counters
(:meth:`RedisClients.limits_storage`) and the queue of "Play now" (:mod:`.redis_queue`).  They
share two clients, made here with one set of options: a blocking client, called from worker
threads (publishing, presence, the limits), and an asyncio client, awaited on the event loop (the
broker's listener and the queue).  Each client keeps a pool of connections, so what is shared is
the pool: a process holds as many connections as it uses at once, not a pool per use.

Both clients answer in text (``decode_responses``) and connect within :data:`TIMEOUT_SECONDS`;
a Redis that does not answer fails a request fast, and each user decides what that means (a
change noted for later, a limit that refuses or lets through, a queue that is unavailable).
"""

from __future__ import annotations

from typing import Final

import redis
import redis.asyncio
from limits.storage import RedisStorage
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.retry import Retry

__all__ = ["ASYNC_TIMEOUT_SECONDS", "HEALTH_CHECK_SECONDS", "TIMEOUT_SECONDS", "RedisClients"]

TIMEOUT_SECONDS: Final = 0.5
"""How long connecting to Redis, or a request of the blocking client, may take before it counts
as failed: a request of the blocking client is on an action's path (a change published, a
presence report read, a limit counted)."""

ASYNC_TIMEOUT_SECONDS: Final = 2.0
"""How long a request of the asyncio client may take before it counts as failed: the queue's
(:class:`~.redis_queue.RedisMatchQueue`, whose join must be done by Redis within half of it);
the broker's listener waits for its messages with a timeout of its own."""

HEALTH_CHECK_SECONDS: Final = 5
"""After how long idle a connection of the asyncio client is checked (a ``PING``) before it is
used: the listener's subscription notices a connection dropped without a word."""


class RedisClients:
    """The Redis clients of one server process, from one URL (``redis://``, ``rediss://`` or
    ``unix://``): made once (by the broker, :class:`~.redis_broker.RedisBroker`) and shared by
    whatever in the process talks to Redis.  Nothing connects until it is used.

    :attr:`blocking` retries a request once on a fresh connection when its connection was lost
    (Redis restarted), which is harmless for what it sends (a change published twice, a presence
    report written twice, a request counted twice), never after a timeout: a Redis that does not
    answer costs one timeout.  :attr:`asyncio` never sends a request twice behind its caller's
    back: the queue decides itself whether a join was done.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.blocking: redis.Redis = redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=TIMEOUT_SECONDS,
            socket_connect_timeout=TIMEOUT_SECONDS,
            retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
        )
        """The blocking client (call it from a worker thread, never on the event loop)."""
        self.asyncio: redis.asyncio.Redis = redis.asyncio.Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=ASYNC_TIMEOUT_SECONDS,
            socket_connect_timeout=TIMEOUT_SECONDS,
            retry=AsyncRetry(NoBackoff(), 0),
            health_check_interval=HEALTH_CHECK_SECONDS,
        )
        """The asyncio client (on the process's event loop)."""

    def limits_storage(self) -> RedisStorage:
        """The abuse limits' ``limits`` storage, on the blocking client's pool; a failure to
        reach Redis is a :class:`limits.errors.StorageError`."""
        return RedisStorage(self.url, connection_pool=self.blocking.connection_pool, wrap_exceptions=True)

    async def aclose(self) -> None:
        """Close every connection of both clients (when the process stops)."""
        await self.asyncio.aclose()
        self.blocking.close()
