"""The turn clocks of the games (:class:`ClockRows`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from .database import Rows
from .rows import StoredClock
from .tables import games


def _away(text: str) -> frozenset[int]:
    return frozenset(int(seat) for seat in text.split(",") if seat.strip().isdigit())


def _clock(version: int, deadline: float | None, away: frozenset[int]) -> dict[str, Any]:
    """The columns of a game's turn clock."""
    return {
        "clock_version": version,
        "clock_deadline": deadline,
        "clock_away": ",".join(map(str, sorted(away))),
    }


class ClockRows(Rows):
    """A storage's turn clocks: a game's row keeps its clock beside its record (``storage.clocks``)."""

    def set(self, game_id: str, version: int, deadline: float | None, away: frozenset[int]) -> None:
        """Store a game's turn clock (for its ``version``: a later action replaces it)."""
        with self._db.single.connect() as conn:
            conn.execute(
                games.update().where(games.c.id == game_id).values(**_clock(version, deadline, away))
            )

    def start(self, game_id: str, version: int, deadline: float) -> bool:
        """Bring the deadline of a game's turn at ``version`` forward to ``deadline`` (the seat's
        page showed the decision: its clock runs from now), never later; one statement, so a
        later turn stored meanwhile is left alone.  True if it changed the deadline."""
        with self.engine.begin() as conn:
            changed = conn.execute(
                games.update()
                .where(
                    games.c.id == game_id,
                    games.c.clock_version == version,
                    games.c.clock_deadline > deadline,
                )
                .values(clock_deadline=deadline)
            )
            return bool(changed.rowcount == 1)

    def void(self, game_id: str, deadline: float) -> None:
        """Stop a game's turn clock that ran out with nothing to do (its table waits for people,
        or its version moved on without a clock), unless another one was stored meanwhile."""
        with self.engine.begin() as conn:
            conn.execute(
                games.update()
                .where(games.c.id == game_id, games.c.clock_deadline == deadline)
                .values(clock_deadline=None)
            )

    def load(self, game_id: str) -> StoredClock | None:
        """A game's turn clock, or None (it has none, or it was never started)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(games.c.clock_version, games.c.clock_deadline, games.c.clock_away).where(
                    games.c.id == game_id
                )
            ).first()
        if row is None or row.clock_version is None:
            return None
        return StoredClock(int(row.clock_version), row.clock_deadline, _away(row.clock_away or ""))

    def due(self, now: float, limit: int = 100) -> list[str]:
        """The games whose turn clock ran out by ``now`` (the earliest first)."""
        query = (
            select(games.c.id)
            .where(games.c.clock_deadline.is_not(None), games.c.clock_deadline <= now)
            .order_by(games.c.clock_deadline)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [str(game_id) for game_id in conn.execute(query).scalars()]
