"""A storage's games (:class:`GameRows`): their rows (insert, load, update, versions), who
sits where after the start (reseat), the public lobby, watch codes and the rematch a game went
on to."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import false, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql import Update

from .clocks import _clock
from .database import Rows
from .rows import Conflict, Listed, StoredGame, StoredSeat, _dumps, _loads, _now, _seat, _utc
from .seat_keys import insert_keys, void_keys
from .tables import _LOAD, _MOVED, _POSITION, _UPDATE, _UPDATE_SEATED, _VERSION, games, seats


def _rematch_accounts(game_id: str, rematch_of: str) -> Update:
    """Link each seat of a rematch to the account of the same seat, held by the same token, in
    the game it is the rematch of."""
    old = seats.alias("old")
    account = select(old.c.account_id).where(
        old.c.game_id == rematch_of, old.c.seat == seats.c.seat, old.c.token_hash == seats.c.token_hash
    )
    return seats.update().where(seats.c.game_id == game_id).values(account_id=account.scalar_subquery())


def _reseated(seat: StoredSeat, holder: str | None) -> dict[str, Any]:
    """The values of a seat's row that ``seat`` takes over, its person (``holder``) leaving it
    or nobody's seat taken (None)."""
    values: dict[str, Any] = {
        "kind": seat.kind,
        "level": seat.level,
        "name": seat.name,
        "token_hash": seat.token_hash,
        "code": seat.code,
        "taken": seat.taken,
        "erased": False,
    }
    if seat.kind != "computer":
        # An open seat is nobody's account until someone takes it.  A computer taking over
        # keeps the account of the person who left: the game is still theirs, and their loss
        # when it is rated (cribbage.app.games.rated).  So is a seat left open: its first leaver's
        # account is kept as left_by, whoever finishes the game in it.
        values["account_id"] = None
        if holder is not None:
            values["left_by"] = func.coalesce(seats.c.left_by, seats.c.account_id)
    return values


class _Refused(Exception):
    """Rolls a reseating back: a condition it depends on no longer held."""


class GameRows(Rows):
    """A storage's games: each game's row, its seats' changes after the start, the lobby, watch
    codes and rematches (``storage.games``)."""

    def insert(
        self,
        game: StoredGame,
        seated: Sequence[StoredSeat] = (),
        *,
        listed: bool = False,
        rematch_of: str | None = None,
    ) -> None:
        """Store a new game, with its seats and, if ``listed``, its place in the lobby: all or nothing.
        With ``rematch_of``, it is that finished game's rematch (only one is ever stored).

        Raises:
            Conflict: the game's id, an invitation code or the rematch of ``rematch_of`` is in
                use already; nothing was stored.
        """
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    games.insert().values(
                        id=game.id,
                        token_hash=game.token_hash,
                        options=_dumps(game.options),
                        record=_dumps(game.record),
                        version=game.version,
                        over=game.over,
                        created=game.created,
                        updated=game.updated,
                        listed=game.created if listed else None,
                        rematch_of=rematch_of,
                    )
                )
                if seated:
                    conn.execute(
                        seats.insert(),
                        [
                            {
                                "game_id": game.id,
                                "seat": seat.seat,
                                "kind": seat.kind,
                                "level": seat.level,
                                "name": seat.name,
                                "token_hash": seat.token_hash,
                                "code": seat.code,
                                "taken": seat.taken,
                            }
                            for seat in seated
                        ],
                    )
                for seat in seated:  # a rematch's seats keep their keys
                    insert_keys(conn, game.id, seat.seat, seat.keys, game.created)
                if seated and rematch_of is not None:  # its seats stay their accounts'
                    conn.execute(_rematch_accounts(game.id, rematch_of))
        except IntegrityError:
            raise Conflict(f"game {game.id!r} or one of its codes is in use already") from None

    def update(
        self,
        game_id: str,
        record: dict[str, Any] | str,
        *,
        version: int,
        over: bool,
        expected: int,
        generation: int | None = None,
        clock: tuple[float | None, frozenset[int]] | None = None,
    ) -> bool:
        """Save a game's new record (its JSON value, or its JSON text as is) if its stored
        version is still ``expected`` and, given a ``generation``, its seating generation still
        that one (and, with ``clock``, its turn clock's deadline and away seats, in the same
        transaction).

        Returns False (and changes nothing) when another writer saved a different version first,
        or changed the seats.
        """
        values: dict[str, Any] = {
            "game": game_id,
            "expected": expected,
            "record": record if isinstance(record, str) else _dumps(record),
            "version": version,
            "over": over,
            "updated": self.now(),
        }
        statement = _UPDATE
        if generation is not None:
            statement, values["seating"] = _UPDATE_SEATED, generation
        if clock is not None:
            statement = statement.values(**_clock(version, *clock))
            with self._db.single.connect() as conn:  # one statement: it holds or changes nothing by itself
                return conn.execute(statement, values).rowcount == 1
        return bool(self._db.raw(statement, values, lambda cursor: cursor.rowcount == 1))  # every action's

    def delete(self, game_id: str) -> None:
        """Remove a game and its seats (a tournament's table given another process's game)."""
        with self.engine.begin() as conn:
            conn.execute(games.delete().where(games.c.id == game_id))

    def load(self, game_id: str) -> StoredGame | None:
        """The stored game, or None."""
        with self._db.single.connect() as conn:  # one statement: no transaction around it
            row = conn.execute(_LOAD, {"game": game_id}).first()
        if row is None:
            return None
        return StoredGame(
            id=row.id,
            token_hash=row.token_hash,
            options=_loads(row.options),
            record=_loads(row.record),
            version=row.version,
            over=row.over,
            created=_utc(row.created),  # SQLite keeps no zone: its times are UTC
            updated=_utc(row.updated),
            rematch_of=row.rematch_of,
        )

    def version(self, game_id: str) -> int | None:
        """The stored version of a game (None if there is no such game): a cheap check that a
        copy held in memory is still the latest."""
        with self.engine.connect() as conn:
            value = conn.execute(_VERSION, {"game": game_id}).scalar_one_or_none()
        return None if value is None else int(value)

    def position(self, game_id: str) -> tuple[int, int] | None:
        """A game's stored version and seating generation (None if there is no such game): one
        cheap read telling whether a copy held in memory is still the latest."""
        row = self._db.first_row(_POSITION, {"game": game_id})
        return None if row is None else (int(row[0]), int(row[1]))

    def moved(
        self, game_id: str, version: int, generation: int
    ) -> tuple[int, int, dict[str, Any] | None] | None:
        """A game's stored version and seating generation, and its record if either differs
        from ``version`` and ``generation`` (a copy held in memory at those is behind); None if
        there is no such game.  One read, where :meth:`position` and :meth:`load` are two."""
        row = self._db.first_row(_MOVED, {"game": game_id, "version": version, "generation": generation})
        if row is None:
            return None
        return int(row[0]), int(row[1]), None if row[2] is None else _loads(row[2])

    def reseat(
        self,
        game_id: str,
        seat: StoredSeat,
        *,
        holder: str | None,
        record: dict[str, Any] | None = None,
        version: int = 0,
        over: bool = False,
        expected: int = 0,
    ) -> int | None:
        """Change who sits in a seat after the game's start, all or nothing: the seat's row
        becomes ``seat``, the game's seating generation grows and, with a ``record``, the game is
        saved at ``version`` if its stored version is still ``expected``.

        ``holder`` is the hash of the token that must hold the seat now (a person leaving), or
        None for a seat that must be open (a computer taking it).  Returns the new seating
        generation, or None, changing nothing, when that or the version no longer holds (another
        request was first).
        """
        holds = seats.c.token_hash == holder if holder is not None else seats.c.taken == false()
        bump, values = games.update().where(games.c.id == game_id), {}
        if record is not None:  # saved too, if its version is still the expected one
            bump, values = (
                _UPDATE,
                {
                    "game": game_id,
                    "expected": expected,
                    "record": _dumps(record),
                    "version": version,
                    "over": over,
                    "updated": _now(),
                },
            )
        bumped = bump.values(generation=games.c.generation + 1).returning(games.c.generation)
        try:
            with self.engine.begin() as conn:
                changed = conn.execute(
                    seats.update()
                    .where(seats.c.game_id == game_id, seats.c.seat == seat.seat, holds)
                    .values(**_reseated(seat, holder))
                )
                if changed.rowcount != 1:
                    raise _Refused
                void_keys(conn, game_id, seat.seat)  # the seat changed hands: its keys with its token
                generation = conn.execute(bumped, values).scalar_one_or_none()
                if generation is None:
                    raise _Refused
        except (_Refused, IntegrityError):
            return None
        return int(generation)

    def watch_code(self, game_id: str, code: str) -> str:
        """The game's watch code: the one it has, else ``code``, stored now.

        Raises:
            Conflict: ``code`` is another game's already (draw another), or there is no such game;
                nothing was stored.
        """
        query = select(games.c.watch_code).where(games.c.id == game_id)
        with self._db.single.connect() as conn:
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
