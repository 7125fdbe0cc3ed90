"""The abuse limits' counters in this process's memory: :class:`MemoryWindows`, the ``limits``
storage of the memory broker (:meth:`.broker.Broker.limits_storage`; with Redis, the counters
are in the broker's Redis: :meth:`.redis_client.RedisClients.limits_storage`).

The windows are read on the storage's clock: ``limits``' own storages read the system's time;
:class:`MemoryWindows` reads the one it is given, so that a test moves a window on instead of
waiting for it.
"""

from __future__ import annotations

import bisect
import threading
import time
from collections.abc import Callable
from typing import Final

from limits.storage import MemoryStorage

__all__ = ["SWEEP_SECONDS", "Clock", "MemoryWindows"]

SWEEP_SECONDS: Final = 60.0
"""How often :class:`MemoryWindows` forgets the keys whose windows have passed."""

Clock = Callable[[], float]
"""The time in seconds since the epoch, as ``time.time`` tells it."""


class MemoryWindows(MemoryStorage):
    """The ``limits`` memory storage with its moving windows (what :class:`RateLimits` counts
    with) stamped and read on ``clock``: the system's time by default, a test's own clock in a
    test.  A request counts in a window of ``expiry`` seconds until ``expiry`` seconds after it;
    keys whose windows have passed are forgotten every :data:`SWEEP_SECONDS`.  Thread-safe.

    >>> now = [100.0]
    >>> windows = MemoryWindows(lambda: now[0])
    >>> [windows.acquire_entry("k", 2, 60) for _ in range(3)]
    [True, True, False]
    >>> windows.get_moving_window("k", 2, 60)  # (the oldest request of the window, count)
    (100.0, 2)
    >>> now[0] = 160.0
    >>> windows.acquire_entry("k", 2, 60)
    True
    """

    def __init__(self, clock: Clock = time.time) -> None:
        super().__init__()
        self.clock = clock
        self._windows: dict[str, tuple[int, list[float]]] = {}
        """Each key's window length and the times of its requests in the window, oldest first."""
        self._lock = threading.Lock()
        self._sweep_at = clock() + SWEEP_SECONDS

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        with self._lock:
            now = self.clock()
            stamps = self._stamps(key, expiry, now)
            if len(stamps) + amount > limit:
                return False
            for _ in range(amount):
                bisect.insort(stamps, now)  # in order even if the clock was set back
            return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        with self._lock:
            now = self.clock()
            stamps = self._stamps(key, expiry, now)
            return (stamps[0], len(stamps)) if stamps else (now, 0)

    def clear(self, key: str) -> None:
        with self._lock:
            self._windows.pop(key, None)
        super().clear(key)

    def reset(self) -> int | None:
        with self._lock:
            count = len(self._windows)
            self._windows.clear()
        return count + (super().reset() or 0)

    def _stamps(self, key: str, expiry: int, now: float) -> list[float]:
        """The key's requests in its window at ``now`` (the list itself, to add to)."""
        if now >= self._sweep_at:
            self._windows = {
                name: (length, stamps)
                for name, (length, stamps) in self._windows.items()
                if stamps and stamps[-1] > now - length
            }
            self._sweep_at = now + SWEEP_SECONDS
        stamps = self._windows.setdefault(key, (expiry, []))[1]
        del stamps[: bisect.bisect_right(stamps, now - expiry)]
        return stamps
