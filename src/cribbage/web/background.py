"""The server's background loops (pruning, turn clocks, Play now's pairing, the broker's
listener) and how they end.

Each loop runs its rounds until its :class:`Stop` is set, pausing between rounds on the stop
itself.  A shutdown (:func:`stop_tasks`) sets the stop, then cancels the loops' tasks and awaits
them.  The flag is what ends a loop for certain: on Python 3.11 a cancellation can be lost, since
:func:`asyncio.wait_for`, which the Redis client wraps each command in for its timeout, returns
the command's result instead of raising when the task is cancelled just as the command completes
(CPython gh-86296, fixed in 3.12).  A loop whose cancellation was lost so ran for ever, and the
shutdown awaiting it hung with it (``tests/web/test_web_shutdown.py``).

>>> async def demo() -> list[int]:
...     stop, rounds = Stop(), []
...     async def loop() -> None:
...         while not stop:
...             rounds.append(len(rounds))
...             await stop.pause(0.001)
...     task = asyncio.create_task(loop())
...     while len(rounds) < 3:
...         await asyncio.sleep(0.001)
...     await stop_tasks(stop, task)
...     return rounds[:3]
>>> asyncio.run(demo())
[0, 1, 2]
"""

from __future__ import annotations

import asyncio
import contextlib

__all__ = ["Stop", "stop_tasks"]


class Stop:
    """Whether the loops of one application are to end: false until :meth:`set`, then true."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def set(self) -> None:
        """The loops end: each at its next check or pause."""
        self._event.set()

    def __bool__(self) -> bool:
        return self._event.is_set()

    async def pause(self, seconds: float) -> bool:
        """Wait ``seconds``, or less if the loops are stopped meanwhile; whether they are."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._event.wait()
        return self._event.is_set()


async def stop_tasks(stop: Stop, *tasks: asyncio.Task[None]) -> None:
    """End the loops of ``stop``: set it, cancel their ``tasks`` and wait for each to end (by
    its cancellation, or, where that was lost, at its loop's next check of ``stop``)."""
    stop.set()
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError):
            await task
