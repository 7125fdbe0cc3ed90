"""A seat's extra keys: an account opens its own seat in another browser (``seat_keys``).

Each key is the SHA-256 of a token minted for the browser that asked; the seat's own token keeps
working (another browser still playing is not thrown out).  The keys are read with the seats
(:meth:`SeatRows.load <cribbage.storage.seating.SeatRows.load>`), so that every check of a seat's
token accepts them too (:meth:`LiveGame.seat_of <cribbage.app.games.live_game.LiveGame.seat_of>`); they are
void with the seat's token when its person leaves
(:meth:`GameRows.reseat <cribbage.storage.games.GameRows.reseat>`), and go with the game.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from sqlalchemy import delete, select
from sqlalchemy.engine import Connection

from .tables import seat_keys

MAX_KEYS: Final = 10
"""The most extra keys a seat keeps: minting one more drops the oldest."""


def keys_of(conn: Connection, game_id: str, seat: int) -> list[str]:
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
