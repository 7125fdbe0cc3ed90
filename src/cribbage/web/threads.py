"""Blocking calls of the live sockets' hot paths, run in threads at the least cost per hand-off.

An action sent on a live socket, and the read of a change another process stored, each hand one
call from the event loop to a thread (the database and the engine block).  Starlette's
``run_in_threadpool`` (anyio's worker threads) costs about 100 microseconds of CPU a hand-off
(its capacity limiter, cancel scope and checkpoints), :meth:`asyncio.loop.run_in_executor`
about 75, :class:`Threads` about 50 (bench/bench_cost.py: a person's whole action costs about
1.7 ms with two processes).  Unlike anyio's, a call here is not shielded from cancellation: a
cancelled caller stops waiting and the call finishes in its thread (an action is then stored
and published all the same; only its answer is not sent).  Everything else keeps
``run_in_threadpool``.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from typing import Any, Final, TypeVar

__all__ = ["MAX_THREADS", "Threads"]

T = TypeVar("T")

MAX_THREADS: Final = 40
"""At most this many calls run at once (as many as anyio's default); more wait their turn."""

_Call = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...]]


class Threads:
    """Threads started as calls need them (up to ``most``), each taking the next call of one
    queue; they live as long as the process (daemon threads, idle between calls)."""

    def __init__(self, most: int = MAX_THREADS, name: str = "live") -> None:
        self.most = most
        self.name = name
        self._calls: queue.SimpleQueue[_Call] = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)  # released by each thread waiting for a call
        self._count = 0
        self._lock = threading.Lock()

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a thread; its result, or what it raised."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._calls.put((loop, future, function, args))
        if not self._idle.acquire(blocking=False):
            self._start()
        return await future

    def _start(self) -> None:
        with self._lock:
            if self._count >= self.most:
                return  # a call waits for a thread to finish its own
            self._count += 1
            number = self._count
        threading.Thread(target=self._work, name=f"{self.name}-{number}", daemon=True).start()

    def _work(self) -> None:
        while True:
            loop, future, function, args = self._calls.get()
            try:
                result = function(*args)
            except BaseException as exc:  # the caller's, whatever it is
                _settle(loop, future, exc, failed=True)
            else:
                _settle(loop, future, result, failed=False)
            del loop, future, function, args
            self._idle.release()


def _settle(loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], value: Any, failed: bool) -> None:
    """Give a call's outcome to its caller on its loop (none if the loop closed meanwhile)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(_set, future, value, failed)


def _set(future: asyncio.Future[Any], value: Any, failed: bool) -> None:
    if future.cancelled():
        return  # the caller stopped waiting
    if failed:
        future.set_exception(value)
    else:
        future.set_result(value)
