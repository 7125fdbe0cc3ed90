"""Who sits where: seats, invitations, the public lobby and watch codes."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from sqlalchemy import false, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from .rows import Conflict, Joined, Listed, StoredSeat, _seat, _utc
from .seat_keys import keys_by_seat
from .tables import _TAKE, games, seats


class SeatRows:
    """A storage's seats, invitation codes, lobby and watch codes, and the rematch a game went on to."""

    engine: Engine
    _single: Engine
    now: Callable[[], datetime]

    def seats(self, game_id: str) -> list[StoredSeat]:
        """A game's seats in order, each with its extra keys ([] for a game stored without them:
        one person at seat 0)."""
        query = seats.select().where(seats.c.game_id == game_id).order_by(seats.c.seat)
        with self.engine.connect() as conn:
            found = [_seat(row) for row in conn.execute(query)]
            keys = keys_by_seat(conn, game_id) if found else {}
        return [replace(seat, keys=keys[seat.seat]) if seat.seat in keys else seat for seat in found]

    def take_seat(self, code: str, token_hash: str, name: str) -> Joined | None:
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

    def watch_code(self, game_id: str, code: str) -> str:
        """The game's watch code: the one it has, else ``code``, stored now.

        Raises:
            Conflict: ``code`` is another game's already (draw another), or there is no such game;
                nothing was stored.
        """
        query = select(games.c.watch_code).where(games.c.id == game_id)
        with self._single.connect() as conn:
            found = conn.execute(query).scalar_one_or_none()
            if found is not None:
                return str(found)
            give = games.update().where(games.c.id == game_id, games.c.watch_code.is_(None))
            try:
                if conn.execute(give.values(watch_code=code)).rowcount == 1:
                    return code
            except IntegrityError:
                raise Conflict(f"watch code {code!r} is in use already") from None
            found = conn.execute(query).scalar_one_or_none()  # given meanwhile by another request
        if found is None:
            raise Conflict(f"no game {game_id!r} to give watch code {code!r}")
        return str(found)

    def watched(self, code: str) -> str | None:
        """The game of a watch code, or None."""
        with self.engine.connect() as conn:
            found = conn.execute(select(games.c.id).where(games.c.watch_code == code)).scalar_one_or_none()
        return None if found is None else str(found)

    def rematch(self, game_id: str) -> str | None:
        """The game a finished game's people went on to ("play again"), or None."""
        query = select(games.c.id).where(games.c.rematch_of == game_id)
        with self.engine.connect() as conn:
            found = conn.execute(query).scalar_one_or_none()
        return None if found is None else str(found)

    def lobby(self, limit: int = 100) -> list[Listed]:
        """The listed games in progress with an open seat, the most recently listed first."""
        open_seat = (
            select(seats.c.game_id).where(seats.c.game_id == games.c.id, seats.c.taken == false()).exists()
        )
        query = (
            select(games.c.id.label("game_id"), games.c.listed, games.c.options)
            .where(games.c.listed.is_not(None), games.c.over == false(), open_seat)
            .order_by(games.c.listed.desc(), games.c.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            found = conn.execute(query).all()
            ids = [row.game_id for row in found]
            rows = conn.execute(
                seats.select().where(seats.c.game_id.in_(ids)).order_by(seats.c.game_id, seats.c.seat)
            ).all()
        by_game: dict[str, list[StoredSeat]] = {game_id: [] for game_id in ids}
        for row in rows:
            by_game[row.game_id].append(_seat(row))
        return [
            Listed(row.game_id, json.loads(row.options), tuple(by_game[row.game_id]), _utc(row.listed))
            for row in found
        ]
