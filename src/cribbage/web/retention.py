"""Retention: the server removes old games by itself.

A game in progress that nobody has touched (no action, no seat taken) for ``keep_days``, and a
finished game whose last action is more than ``keep_finished_days`` old, are removed with their
seats (:meth:`~cribbage.storage.pruning.Pruning.prune`); 0 days keeps them forever.
Until then a player's finished game stays downloadable (``GET /api/games/{id}/record``).

Every server process runs :func:`prune_periodically` in its lifespan: a first pass soon after the
start, then one every ``interval`` seconds.  Several processes on one database may prune at
once: each ``DELETE`` checks the age itself, so nothing fails and a game just touched is kept.
The pass runs in a worker thread, in batches, so neither the event loop nor the database is held.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Final

from ..app import GameService
from ..engine.errors import CribbageError
from .background import Stop

__all__ = ["KEEP_DAYS", "KEEP_FINISHED_DAYS", "Retention", "parse_days", "prune_periodically"]

KEEP_DAYS: Final = 30
"""Days a game in progress is kept after it was last touched."""

KEEP_FINISHED_DAYS: Final = 365
"""Days a finished game (and its downloadable record) is kept after its last action."""

INTERVAL: Final = 3600.0
"""Seconds between two prunings of one server process."""

FIRST_DELAY: Final = 60.0
"""Seconds from a server's start to its first pruning (the start itself stays quick)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Retention:
    """How long games are kept (days; 0: forever) and how often a server prunes (seconds)."""

    keep_days: int = KEEP_DAYS
    keep_finished_days: int = KEEP_FINISHED_DAYS
    interval: float = INTERVAL
    first_delay: float = FIRST_DELAY

    def __post_init__(self) -> None:
        for name in ("keep_days", "keep_finished_days"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise CribbageError(
                    f"{name} must be a whole number of days, 0 (forever) or more, not {value!r}"
                )
        for name in ("interval", "first_delay"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and value >= 0 and value == value):
                raise CribbageError(f"the retention's {name} must be 0 seconds or more, not {value!r}")
        if self.interval == 0:
            raise CribbageError("the retention's interval must be more than 0 seconds")

    @property
    def forever(self) -> bool:
        """Nothing is ever removed: no pruning task is needed."""
        return self.keep_days == 0 and self.keep_finished_days == 0


def parse_days(text: str, setting: str) -> int:
    """A number of days from the command line or the environment: a whole number, 0 or more
    (0: keep forever); a :class:`CribbageError` naming ``setting`` otherwise.

    >>> parse_days("30", "--keep-days")
    30
    >>> parse_days("-1", "--keep-days")
    Traceback (most recent call last):
    ...
    cribbage.engine.errors.CribbageError: --keep-days is a whole number of days, 0 (forever) or more: '-1'
    """
    value = text.strip()
    if not value.isdecimal():  # '²' is a digit that int() refuses
        raise CribbageError(f"{setting} is a whole number of days, 0 (forever) or more: {text!r}")
    return int(value)


async def prune_periodically(service: GameService, retention: Retention, stop: Stop | None = None) -> None:
    """Prune the service's database now and then, until ``stop`` (the server's lifespan) or
    cancelled."""
    stop = Stop() if stop is None else stop
    if retention.forever or await stop.pause(retention.first_delay):
        return
    while True:
        try:
            pruned = await asyncio.to_thread(
                service.prune, keep_days=retention.keep_days, keep_finished_days=retention.keep_finished_days
            )
            if pruned.games:
                log.info(
                    "pruned %d unfinished and %d finished games (%d bytes)",
                    pruned.unfinished,
                    pruned.finished,
                    pruned.bytes,
                )
        except Exception:  # a database briefly away: try again at the next interval
            log.exception("pruning old games failed; trying again in %g s", retention.interval)
        if await stop.pause(retention.interval):
            return
