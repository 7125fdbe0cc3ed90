""" "Play now", wired: the queue of the application's broker, the games of its matches, and what
each player is answered (the routes are :mod:`.routers.play`; docs/matchmaking.md, "How it is
wired").

Every process runs :meth:`PlayNow.run` in its lifespan: it pairs every pool (the queue is
atomic, so each person is in one match, made by one process) and delivers each match it made:
the game is created through the service (:func:`cribbage.app.playnow.play.seat_match`) and each
player's seat and seat token kept in the queue under the match's id
(:meth:`~cribbage.web.messaging.queue.MatchQueue.keep_seats`), where any process asked by the player
finds them (:meth:`PlayNow.poll`).
"""

from __future__ import annotations

import logging
from typing import Any, Final

from starlette.concurrency import run_in_threadpool

from ..app import AppError, GameService
from ..app.games.series import FIRST_TO, check_first_to
from ..app.playnow.matchmaking import POOLS, Pairing, get_pool, queue_name, queues, split_queue
from ..app.playnow.play import absent, rating_in, seat_match
from .background import Stop
from .messaging.queue import MatchQueue, pair_forever

__all__ = ["QUEUES", "STARTING_SECONDS", "PlayNow"]

log = logging.getLogger(__name__)

STARTING_SECONDS: Final = 30.0
"""How long a player's match may wait for its game (being created by the process that made the
match) before they are told it failed (``play.match_failed``) and may play again."""


QUEUES: Final = queues(POOLS, range(FIRST_TO[0], FIRST_TO[1] + 1))
"""The queues of "Play now": one a pool and ``first_to``
(:func:`~cribbage.app.playnow.matchmaking.queue_name`)."""


def _told(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer naming a queue (``pool``) as the player is told it: the pool and ``first_to``."""
    pool, first_to = split_queue(answer["pool"])
    return {**answer, "pool": pool, "first_to": first_to}


class PlayNow:
    """The queue of one application and the service its matches' games are created by."""

    def __init__(self, service: GameService, queue: MatchQueue, every: float = 1.0) -> None:
        self.service = service
        self.queue = queue
        self.every = every

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
        rating = await run_in_threadpool(rating_in, self.service, account_id, pool)
        try:
            status = await self.queue.join(account_id, name, rating)
        except AppError as exc:  # the queue it waits in named as the pool and first_to
            values = dict(exc.values)
            if isinstance(values.get("pool"), str):
                values = _told(values)
            raise AppError(exc.code, exc.message, **values) from None
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
        out meanwhile, :func:`~cribbage.app.playnow.play.absent`): the match is undone, and the others
        wait again as they waited (:meth:`~cribbage.web.messaging.queue.MatchQueue.undo_match`)."""
        pool = get_pool(match.pool, self.queue.pools)  # its table and variant; first_to from its name
        first_to = split_queue(match.pool)[1]
        gone = await run_in_threadpool(absent, self.service, match.players)
        if not gone:
            try:
                seated = await run_in_threadpool(seat_match, self.service, pool, match.players, first_to)
            except AppError as exc:  # deleted since absent() looked (the game is then not made)
                if exc.code != "not_found":
                    raise
                gone = await run_in_threadpool(absent, self.service, match.players)
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
        made (for tests and tools; :meth:`run` is the loop)."""
        made = []
        for pool in self.queue.pools:
            for match in await self.queue.pair_once(pool):
                if await self.deliver(match):
                    made.append(match)
        return made

    async def run(self, stop: Stop | None = None) -> None:
        """Pair every pool every :attr:`every` seconds, until ``stop`` or cancelled."""
        await pair_forever(self.queue, self.deliver, every=self.every, stop=stop)

    async def close(self) -> None:
        await self.queue.close()
