"""A clock that tests move by hand, for code that takes a ``Clock`` (seconds since the epoch):
a test of a time limit advances it past the limit instead of waiting for the real one."""

from __future__ import annotations

import threading


class FakeTime:
    """A clock the test moves by hand (thread-safe: servers read it from worker threads)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now
        self.lock = threading.Lock()

    def __call__(self) -> float:
        with self.lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self.lock:
            self.now += seconds
