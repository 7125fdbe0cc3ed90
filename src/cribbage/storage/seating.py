"""Who sits where (:class:`SeatRows`): a game's seats and their extra keys, invitations, and
the accounts that play or played them."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import replace

from sqlalchemy import delete, false, select

from .database import Rows
from .rows import ERASED_NAME, Joined, Listed, StoredSeat, _seat, _utc
from .seat_keys import MAX_KEYS, keys_by_seat, keys_of
from .tables import _TAKE, accounts, games, seat_keys, seats


class SeatRows(Rows):
    """A storage's seats: who sits where, their invitation codes and extra keys, and the
    accounts behind them (``storage.seats``)."""

    def load(self, game_id: str) -> list[StoredSeat]:
        """A game's seats in order, each with its extra keys ([] for a game stored without them:
        one person at seat 0)."""
        query = seats.select().where(seats.c.game_id == game_id).order_by(seats.c.seat)
        with self.engine.connect() as conn:
            found = [_seat(row) for row in conn.execute(query)]
            keys = keys_by_seat(conn, game_id) if found else {}
        return [replace(seat, keys=keys[seat.seat]) if seat.seat in keys else seat for seat in found]

    def take(self, code: str, token_hash: str, name: str) -> Joined | None:
        """Take the open seat of an invitation code for a person: their token's hash and name.

        Atomic: of several calls with one code, exactly one takes the seat (``won``); the others
        change nothing.  None when no seat has this code.
        """
        with self.engine.begin() as conn:
            took = conn.execute(_TAKE, {"the_code": code, "the_hash": token_hash, "the_name": name})
            row = conn.execute(select(seats.c.game_id, seats.c.seat).where(seats.c.code == code)).first()
            if row is not None and took.rowcount == 1:  # a seat taken touches its game (retention)
                conn.execute(games.update().where(games.c.id == row.game_id).values(updated=self.now()))
        if row is None:
            return None
        return Joined(row.game_id, row.seat, took.rowcount == 1)

    def invitation(self, code: str) -> Listed | None:
        """The game in progress with a seat of this invitation code (taken or not): its options
        and seats, ``listed`` its creation; None for an unknown code or a game over."""
        with self.engine.connect() as conn:
            row = conn.execute(select(seats.c.game_id).where(seats.c.code == code)).first()
            game = None
            if row is not None:
                query = select(games.c.options, games.c.created).where(games.c.id == row.game_id)
                game = conn.execute(query.where(games.c.over == false())).first()
            if row is None or game is None:
                return None
            found = conn.execute(seats.select().where(seats.c.game_id == row.game_id).order_by(seats.c.seat))
            seated = tuple(_seat(one) for one in found)
        return Listed(row.game_id, json.loads(game.options), seated, _utc(game.created))

    def add_key(self, game_id: str, account_id: str, key_hash: str) -> tuple[int, int] | None:
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
            kept = keys_of(conn, game_id, seat)
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

    def accounts(self, game_id: str) -> list[tuple[int, str, str | None]]:
        """A game's seats in order: each its number, its kind and the account that plays it (a
        person's seat) or played it until its person left (a computer's), or None."""
        query = (
            select(seats.c.seat, seats.c.kind, seats.c.account_id)
            .where(seats.c.game_id == game_id)
            .order_by(seats.c.seat)
        )
        with self.engine.connect() as conn:
            return [(row.seat, row.kind, row.account_id) for row in conn.execute(query)]

    def leavers(self, game_id: str) -> dict[int, str]:
        """The seats of a game whose person left them open (a table without ``takeover``): each
        the account of the first who left it (``seats.left_by``), whose loss the game is."""
        query = select(seats.c.seat, seats.c.left_by).where(
            seats.c.game_id == game_id, seats.c.left_by.is_not(None)
        )
        with self.engine.connect() as conn:
            return {row.seat: row.left_by for row in conn.execute(query)}

    def players(self, game_ids: Collection[str]) -> dict[str, list[tuple[int, str, bool]]]:
        """The players of these games, by game, each seat in order as ``(seat, name, deleted)``:
        the name of the seat's account if it has one (as it is now), else the seat's own; a
        deleted account's seat is ``deleted`` (its name :data:`ERASED_NAME`).  A game no longer
        stored (pruned) is missing."""
        if not game_ids:
            return {}
        query = (
            select(seats.c.game_id, seats.c.seat, seats.c.name, seats.c.erased)
            .add_columns(accounts.c.name.label("account"))
            .outerjoin(accounts, accounts.c.id == seats.c.account_id)
            .where(seats.c.game_id.in_(list(game_ids)))
            .order_by(seats.c.game_id, seats.c.seat)
        )
        found: dict[str, list[tuple[int, str, bool]]] = {}
        with self.engine.connect() as conn:
            for row in conn.execute(query):
                name = ERASED_NAME if row.erased else row.account or row.name or ""
                found.setdefault(row.game_id, []).append((row.seat, name, bool(row.erased)))
        return found
