"""What was settled about the rating of a game that asked to be rated (``rated_tables``): the
application decides (:mod:`cribbage.app.games.rating_policy`), this keeps it.

A game's status is written once: :meth:`RatedTableRows.settle` and :meth:`RatedTableRows.count`
insert it only when the game has none, and answer the status that stands (theirs, or the one
another request wrote first).

>>> from cribbage.storage import Storage, StoredGame
>>> store = Storage("sqlite://")
>>> store.games.insert(StoredGame("g1", "0" * 64, {}, {"actions": []}, 0, False))
>>> rated = store.rated_tables
>>> rated.settle("g1", "aborted"), rated.settle("g1", "counted"), rated.settled("g1")
('aborted', 'aborted', 'aborted')
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from itertools import combinations
from typing import Final

from sqlalchemy import Connection, false, func, select
from sqlalchemy.exc import IntegrityError

from .database import Rows
from .rows import _now
from .tables import accounts, rated_tables, seats

__all__ = ["COUNTED", "PAIR_LIMIT", "RatedTableRows"]

COUNTED: Final = "counted"
PAIR_LIMIT: Final = "pair_limit"


class RatedTableRows(Rows):
    """A storage's settled statuses of the rated tables' ratings (``storage.rated_tables``)."""

    def settled(self, game_id: str) -> str | None:
        """The settled status of a game's rating, or None: nothing settled yet."""
        query = select(rated_tables.c.status).where(rated_tables.c.game_id == game_id)
        with self.engine.connect() as conn:
            found = conn.execute(query).scalar_one_or_none()
        return None if found is None else str(found)

    def settle(self, game_id: str, status: str, at: datetime | None = None) -> str:
        """Settle a game's rating as ``status`` unless it is settled already; the status that stands."""
        try:
            with self.engine.begin() as conn:
                return _insert(conn, game_id, status, at or _now())
        except IntegrityError:  # another request settled it first (or the game is gone)
            return self.settled(game_id) or status

    def count(
        self,
        game_id: str,
        players: Sequence[str],
        *,
        limit: int,
        hours: float = 24,
        at: datetime | None = None,
    ) -> str:
        """Settle a game between accounts ``players`` as ``counted``, or as ``pair_limit`` when two
        of them have :data:`limit` counted games together already in the last ``hours``; the status
        that stands.  The accounts' rows are locked while it counts (PostgreSQL; SQLite has one
        writer), so two games of one pair settled at once are counted one after the other."""
        moment = at or _now()
        ids = sorted(set(players))
        try:
            with self.engine.begin() as conn:
                if conn.dialect.name == "sqlite":  # take the one write lock before reading
                    conn.execute(accounts.update().where(false()).values(name=accounts.c.name))
                lock = select(accounts.c.id).where(accounts.c.id.in_(ids)).order_by(accounts.c.id)
                conn.execute(lock.with_for_update()).all()
                since = moment - timedelta(hours=hours)
                full = any(_pair_games(conn, a, b, since) >= limit for a, b in combinations(ids, 2))
                return _insert(conn, game_id, PAIR_LIMIT if full else COUNTED, moment)
        except IntegrityError:
            return self.settled(game_id) or COUNTED

    def pair_games(self, first: str, second: str, since: datetime) -> int:
        """The counted games two accounts sat at together, settled since ``since``."""
        with self.engine.connect() as conn:
            return _pair_games(conn, first, second, since)


def _pair_games(conn: Connection, first: str, second: str, since: datetime) -> int:
    mine, theirs = seats.alias("mine"), seats.alias("theirs")
    query = (
        select(func.count(func.distinct(rated_tables.c.game_id)))
        .select_from(rated_tables)
        .join(mine, mine.c.game_id == rated_tables.c.game_id)
        .join(theirs, theirs.c.game_id == rated_tables.c.game_id)
        .where(
            rated_tables.c.status == COUNTED,
            rated_tables.c.at > since,
            mine.c.account_id == first,
            theirs.c.account_id == second,
        )
    )
    return int(conn.execute(query).scalar_one())


def _insert(conn: Connection, game_id: str, status: str, at: datetime) -> str:
    found = conn.execute(
        select(rated_tables.c.status).where(rated_tables.c.game_id == game_id)
    ).scalar_one_or_none()
    if found is not None:
        return str(found)
    conn.execute(rated_tables.insert().values(game_id=game_id, status=status, at=at))
    return status
