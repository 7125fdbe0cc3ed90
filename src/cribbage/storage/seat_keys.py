"""A seat's extra keys: an account opens its own seat in another browser (``seat_keys``).

Each key is the SHA-256 of a token minted for the browser that asked; the seat's own token keeps
working (another browser still playing is not thrown out).  The keys are read with the seats
(:meth:`SeatRows.seats <cribbage.storage.seating.SeatRows.seats>`), so that every check of a seat's
token accepts them too (:meth:`LiveGame.seat_of <cribbage.app.games.live_game.LiveGame.seat_of>`); they are
void with the seat's token when its person leaves (:meth:`Storage.reseat`), and go with the game.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Final

from sqlalchemy import delete, select
from sqlalchemy.engine import Connection, Engine

from .tables import games, seat_keys, seats

MAX_KEYS: Final = 10
"""The most extra keys a seat keeps: minting one more drops the oldest."""


class SeatKeys:
    """A storage's extra seat keys."""

    engine: Engine
    now: Callable[[], datetime]

    def add_seat_key(self, game_id: str, account_id: str, key_hash: str) -> tuple[int, int] | None:
        """Give the account's seat of a game (a person's, taken) one more key, ``key_hash``,
        the oldest beyond :data:`MAX_KEYS` dropped, and grow the game's seating generation (every
        process reads the seats again): ``(seat, generation)``, or None, changing nothing, when
        the account holds no seat there (no such game, another's game, a seat it left)."""
        mine = (
            select(seats.c.seat)
            .where(
                seats.c.game_id == game_id,
                seats.c.account_id == account_id,
                seats.c.kind == "human",
                seats.c.taken,
                seats.c.token_hash.is_not(None),
            )
            .order_by(seats.c.seat)
        )
        with self.engine.begin() as conn:
            seat = conn.execute(mine).scalar()
            if seat is None:
                return None
            conn.execute(
                seat_keys.insert().values(token_hash=key_hash, game_id=game_id, seat=seat, created=self.now())
            )
            kept = _keys(conn, game_id, seat)
            if len(kept) > MAX_KEYS:
                old = kept[: len(kept) - MAX_KEYS]
                conn.execute(
                    delete(seat_keys).where(seat_keys.c.game_id == game_id, seat_keys.c.token_hash.in_(old))
                )
            bumped = (
                games.update()
                .where(games.c.id == game_id)
                .values(generation=games.c.generation + 1)
                .returning(games.c.generation)
            )
            generation = conn.execute(bumped).scalar_one()
        return int(seat), int(generation)


def _keys(conn: Connection, game_id: str, seat: int) -> list[str]:
    """The hashes of a seat's keys, the oldest first."""
    query = (
        select(seat_keys.c.token_hash)
        .where(seat_keys.c.game_id == game_id, seat_keys.c.seat == seat)
        .order_by(seat_keys.c.created, seat_keys.c.token_hash)
    )
    return [str(key) for key in conn.execute(query).scalars()]


def keys_by_seat(conn: Connection, game_id: str) -> dict[int, tuple[str, ...]]:
    """The hashes of a game's seat keys, by seat, the oldest first."""
    query = (
        select(seat_keys.c.seat, seat_keys.c.token_hash)
        .where(seat_keys.c.game_id == game_id)
        .order_by(seat_keys.c.seat, seat_keys.c.created, seat_keys.c.token_hash)
    )
    found: dict[int, list[str]] = {}
    for row in conn.execute(query):
        found.setdefault(row.seat, []).append(row.token_hash)
    return {seat: tuple(keys) for seat, keys in found.items()}


def void_keys(conn: Connection, game_id: str, seat: int) -> None:
    """Remove a seat's keys (its person left it, or it changed hands)."""
    conn.execute(delete(seat_keys).where(seat_keys.c.game_id == game_id, seat_keys.c.seat == seat))


def insert_keys(conn: Connection, game_id: str, seat: int, keys: tuple[str, ...], now: datetime) -> None:
    """Store keys for a new game's seat (a rematch keeps the seat's keys of the game before)."""
    if keys:
        rows = [{"token_hash": k, "game_id": game_id, "seat": seat, "created": now} for k in keys]
        conn.execute(seat_keys.insert(), rows)
