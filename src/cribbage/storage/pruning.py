"""Removing old games: those in progress untouched for long, and those finished long ago."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Final

from sqlalchemy import and_, false, func, or_, select, true
from sqlalchemy.sql.elements import ColumnElement

from .database import Rows
from .rows import Pruned, StorageError
from .tables import chat_messages, chat_reports, games, push_subscriptions, seat_keys, seats

PRUNE_BATCH: Final = 500
"""Games deleted per transaction: a large pruning holds the database's write lock only briefly
at a time, so the server's own writes go on between batches."""


def _cutoffs(now: datetime, keep_days: int, keep_finished_days: int) -> ColumnElement[bool] | None:
    """The condition on a game that makes it prunable (None: nothing is): in progress and not
    touched for ``keep_days`` (nor its running turn clock's deadline that recent), or finished
    (its last action) more than ``keep_finished_days`` ago; 0 days keeps those games forever."""
    for name, days in (("keep_days", keep_days), ("keep_finished_days", keep_finished_days)):
        if type(days) is not int or days < 0:
            raise StorageError(
                f"{name} must be a whole number of days, 0 (keep forever) or more, not {days!r}"
            )
    now = now.astimezone(UTC)
    stale = []
    if keep_days:
        cutoff = now - timedelta(days=keep_days)
        # A running turn clock counts as a touch at its deadline: a correspondence game (days a
        # move) is kept while its clock runs, whatever ``keep_days`` is.
        running = and_(games.c.clock_deadline.is_not(None), games.c.clock_deadline >= cutoff.timestamp())
        stale.append(and_(games.c.over == false(), games.c.updated < cutoff, ~running))
    if keep_finished_days:
        stale.append(and_(games.c.over == true(), games.c.updated < now - timedelta(days=keep_finished_days)))
    return or_(*stale) if stale else None


class Pruning(Rows):
    """A storage's counting and pruning of games (``storage.pruning``)."""

    def count(self, *, over: bool | None = None) -> int:
        """How many games are stored (only those over, or in progress, when asked)."""
        query = select(func.count()).select_from(games)
        if over is not None:
            query = query.where(games.c.over == over)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def prune(
        self,
        *,
        keep_days: int,
        keep_finished_days: int,
        now: datetime | None = None,
        dry_run: bool = False,
        batch: int = PRUNE_BATCH,
    ) -> Pruned:
        """Remove the games in progress untouched (no action, no seat taken) for ``keep_days``
        and the finished games whose last action is older than ``keep_finished_days``, with
        their seat rows; 0 days keeps those forever.  ``dry_run`` only counts them.

        Safe with several processes on one database: each ``DELETE`` states the age condition
        itself, so a game another process touched meanwhile is kept, and a game removed by
        another pruning is simply not counted here.  Deletes go ``batch`` games a transaction.

        Raises:
            StorageError: a negative or fractional number of days; nothing is removed.
        """
        stale = _cutoffs(now or self.now(), keep_days, keep_finished_days)
        if stale is None:
            return Pruned(0, 0, 0)
        size = func.length(games.c.record) + func.length(games.c.options)
        if dry_run:
            query = select(games.c.over, func.count(), func.coalesce(func.sum(size), 0)).where(stale)
            with self.engine.connect() as conn:
                rows = conn.execute(query.group_by(games.c.over)).all()
            counts = {bool(row[0]): (int(row[1]), int(row[2])) for row in rows}
            unfinished, finished = counts.get(False, (0, 0)), counts.get(True, (0, 0))
            return Pruned(unfinished[0], finished[0], unfinished[1] + finished[1])
        some = select(games.c.id).where(stale).limit(batch)
        delete = games.delete().where(games.c.id.in_(some), stale).returning(games.c.id, games.c.over, size)
        removed: list[tuple[str, bool, int]] = []
        while True:
            with self.engine.begin() as conn:
                rows = conn.execute(delete).all()
                ids = [row[0] for row in rows]
                if ids:  # SQLite enforces no foreign keys: the seat and chat rows go here
                    conn.execute(seat_keys.delete().where(seat_keys.c.game_id.in_(ids)))
                    conn.execute(seats.delete().where(seats.c.game_id.in_(ids)))
                    conn.execute(chat_reports.delete().where(chat_reports.c.game_id.in_(ids)))
                    conn.execute(chat_messages.delete().where(chat_messages.c.game_id.in_(ids)))
                    conn.execute(push_subscriptions.delete().where(push_subscriptions.c.game_id.in_(ids)))
            removed += [(row[0], bool(row[1]), int(row[2] or 0)) for row in rows]
            if len(rows) < batch:
                break
        return Pruned(
            unfinished=sum(not over for _id, over, _size in removed),
            finished=sum(over for _id, over, _size in removed),
            bytes=sum(size for _id, _over, size in removed),
            ids=tuple(game_id for game_id, _over, _size in removed),
        )
