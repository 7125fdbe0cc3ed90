""" "Play now", orchestrated: a player joins the queue at their rating, the matches the queue
makes are given their games, and each player is answered their seat (docs/matchmaking.md, "How
it is wired").

The queue is given (:class:`PlayQueue`: the web layer's in Redis or in memory, shared by every
process).  Each process pairs every pool (the queue is atomic, so each person is in one match,
made by one process) and delivers each match it made (:meth:`PlayNow.deliver`): the game is
created through the service (:func:`~.play.seat_match`) and each player's seat and seat token
kept in the queue under the match's id, where any process asked by the player finds them
(:meth:`PlayNow.poll`).  The database's calls run in worker threads, never on the event loop.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Collection, Mapping
from typing import Any, Final, Generic, Protocol, TypeVar

from anyio import to_thread

from ..errors import AppError
from ..games.series import FIRST_TO, check_first_to
from ..service import GameService
from .matchmaking import POOLS, Pairing, Pool, Status, get_pool, queue_name, queues, split_queue
from .play import absent, rating_in, seat_match

__all__ = ["QUEUES", "STARTING_SECONDS", "PlayNow", "PlayQueue"]

log = logging.getLogger(__name__)

T = TypeVar("T")

STARTING_SECONDS: Final = 30.0
"""How long a player's match may wait for its game (being created by the process that made the
match) before they are told it failed (``play.match_failed``) and may play again."""

QUEUES: Final = queues(POOLS, range(FIRST_TO[0], FIRST_TO[1] + 1))
"""The queues of "Play now": one a pool and ``first_to`` (:func:`~.matchmaking.queue_name`)."""


class PlayQueue(Protocol):
    """The queue's operations that :class:`PlayNow` calls (the web layer's ``MatchQueue``:
    every process's view of one queue; its refusals are :class:`AppError` codes ``queue.*``)."""

    @property
    def pools(self) -> Mapping[str, Pool]:
        """The queues by name (:data:`QUEUES`)."""
        ...

    @property
    def clock(self) -> Callable[[], float]:
        """The time in seconds, the same in every process."""
        ...

    async def join(self, player: str, pool: str, rating: float) -> Status: ...

    async def leave(self, player: str) -> bool: ...

    async def status(self, player: str) -> Status | None: ...

    async def pair_once(self, pool: str, now: float | None = None) -> list[Pairing]: ...

    async def take_match(self, player: str) -> Pairing | None: ...

    async def match_for(self, player: str) -> Pairing | None: ...

    async def undo_match(self, match: Pairing, back: Collection[str]) -> list[str]: ...

    async def keep_seats(self, match_id: str, seats: Mapping[str, Mapping[str, Any]]) -> None: ...

    async def seat_of(self, match_id: str, player: str) -> dict[str, Any] | None: ...

    async def close(self) -> None: ...


async def _in_thread(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` in a worker thread (the server's own, as its routes' blocking calls)."""
    return await to_thread.run_sync(functools.partial(call, *args))


def _told(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer naming a queue (``pool``) as the player is told it: the pool and ``first_to``."""
    pool, first_to = split_queue(answer["pool"])
    return {**answer, "pool": pool, "first_to": first_to}


Queue = TypeVar("Queue", bound=PlayQueue)


class PlayNow(Generic[Queue]):
    """The queue of one application and the service its matches' games are created by.  The
    queue is the edge's own (a ``MatchQueue`` of the web layer, whose loop pairs it)."""

    def __init__(self, service: GameService, queue: Queue) -> None:
        self.service = service
        self.queue = queue

    async def join(self, account_id: str, pool: str, first_to: object = 1) -> dict[str, Any]:
        """Put the account in the queue of ``pool`` and ``first_to`` at its rating in the pool:
        its status.

        Raises:
            AppError: ``play.bad_first_to``, ``queue.unknown_pool``, and the queue's refusals.
        """
        if "/" in pool:  # a pool's name, never a queue's: refused as unknown
            get_pool(pool, {})
        name = queue_name(pool, check_first_to(first_to))
        get_pool(name, self.queue.pools)  # before the database is asked
        rating = await _in_thread(rating_in, self.service, account_id, pool)
        try:
            status = await self.queue.join(account_id, name, rating)
        except AppError as exc:  # the queue it waits in named as the pool and first_to
            if isinstance(exc.values.get("pool"), str):
                exc.values = _told(exc.values)
            raise
        return _told(status.to_json())

    async def poll(self, account_id: str) -> dict[str, Any]:
        """The account's status (``{pool, first_to, waited, waiting, window}``) while it waits;
        ``{"match": {game, seat, token, pool, first_to}}`` once, when the game of its match is
        ready; ``{"pool", "first_to", "starting": true}`` while that game is being created.

        Raises:
            AppError: ``play.not_waiting`` when the account neither waits nor has a match;
                ``play.match_failed`` when its match's game was not created in time.
        """
        status = await self.queue.status(account_id)
        if status is not None:
            return _told(status.to_json())
        match = await self.queue.match_for(account_id)
        if match is None:
            raise AppError("play.not_waiting", "you are not waiting to play: POST /api/play first")
        seat = await self.queue.seat_of(match.id, account_id)
        if seat is None:
            if self.queue.clock() - match.made < STARTING_SECONDS:
                return _told({"pool": match.pool, "starting": True})
            await self.queue.take_match(account_id)
            raise AppError("play.match_failed", "the game of your match could not be created: play again")
        if await self.queue.take_match(account_id) is None:  # taken meanwhile by another request
            raise AppError("play.not_waiting", "you are not waiting to play: POST /api/play first")
        return {"match": _told({**seat, "pool": match.pool})}

    async def leave(self, account_id: str) -> bool:
        """Take the account out of the queue: whether it was waiting."""
        return await self.queue.leave(account_id)

    async def gone(self, account_id: str) -> None:
        """The account signed out or was deleted: out of the queue, so that nobody is paired
        with it.  A match made already stays made, as on a leave (``DELETE /api/play``).  If
        the queue cannot be reached now, it stays there, and the pairing finds it absent
        (:meth:`deliver`): either way it is seated at no game."""
        try:
            await self.queue.leave(account_id)
        except AppError as exc:
            log.warning("an account that signed out or was deleted could not leave the queue (%s)", exc.code)

    async def deliver(self, match: Pairing) -> bool:
        """Create the game of a match made here and keep each player's seat for them: whether
        it was made.  It is not when one of its accounts is no longer there (deleted or signed
        out meanwhile, :func:`~.play.absent`): the match is undone, and the others wait again
        as they waited (:meth:`PlayQueue.undo_match`)."""
        pool = get_pool(match.pool, self.queue.pools)  # its table and variant; first_to from its name
        first_to = split_queue(match.pool)[1]
        gone = await _in_thread(absent, self.service, match.players)
        if not gone:
            try:
                seated = await _in_thread(seat_match, self.service, pool, match.players, first_to)
            except AppError as exc:  # deleted since absent() looked (the game is then not made)
                if exc.code != "not_found":
                    raise
                gone = await _in_thread(absent, self.service, match.players)
            else:
                seats = {player: place.to_json() for player, place in zip(match.players, seated, strict=True)}
                await self.queue.keep_seats(match.id, seats)
                return True
        back = await self.queue.undo_match(match, [player for player in match.players if player not in gone])
        log.info(
            "a match of %s was undone: %d of its accounts left, %d wait again",
            match.pool,
            len(gone),
            len(back),
        )
        return False

    async def pair_once(self) -> list[Pairing]:
        """One round over every pool, each match made delivered: the matches whose games were
        made (for tests and tools; the server pairs every pool every few seconds)."""
        made = []
        for pool in self.queue.pools:
            for match in await self.queue.pair_once(pool):
                if await self.deliver(match):
                    made.append(match)
        return made

    async def close(self) -> None:
        """Let go of the queue's connections."""
        await self.queue.close()
