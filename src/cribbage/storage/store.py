"""The storage: a games database behind SQLAlchemy, its game rows (insert, load, update, reseat, versions)."""

from __future__ import annotations

import select
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Final, cast

from sqlalchemy import create_engine, event, false, func
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, DisconnectionError, IntegrityError, SQLAlchemyError
from sqlalchemy.sql import ClauseElement, Select, Update
from sqlalchemy.sql import select as sql_select  # `select` is the standard library's here
from sqlalchemy.sql.compiler import SQLCompiler

from .accounts import Accounts
from .chat import Chats
from .clocks import ClockRows, _clock
from .migrations import UnknownRevision, migrate
from .passkeys import PasskeyRows
from .pruning import Pruning
from .push import PushRows
from .rows import Conflict, StorageError, StoredGame, StoredSeat, _dumps, _loads, _now, _utc
from .seat_keys import SeatKeys, insert_keys, void_keys
from .seating import SeatRows
from .tables import _LOAD, _MOVED, _POSITION, _UPDATE, _UPDATE_SEATED, _VERSION, games, metadata, seats
from .urls import safe_url


def _rematch_accounts(game_id: str, rematch_of: str) -> Update:
    """Link each seat of a rematch to the account of the same seat, held by the same token, in
    the game it is the rematch of."""
    old = seats.alias("old")
    account = sql_select(old.c.account_id).where(
        old.c.game_id == rematch_of, old.c.seat == seats.c.seat, old.c.token_hash == seats.c.token_hash
    )
    return seats.update().where(seats.c.game_id == game_id).values(account_id=account.scalar_subquery())


class _Refused(Exception):
    """Rolls a reseating back: a condition it depends on no longer held."""


def _wrapped(sql: str, params: Any, exc: Exception, dialect: Any, broken: bool = False) -> BaseException:
    """A driver's error as SQLAlchemy raises it (:meth:`Storage._first_row`)."""
    return DBAPIError.instance(
        sql, params, exc, dialect.loaded_dbapi.Error, connection_invalidated=broken, dialect=dialect
    )


PING_IDLE_SECONDS: Final = 10.0
"""A pooled connection of a database server idle for longer than this is pinged before use."""


def _readable(fd: int) -> bool:
    """Whether a socket has something to read (or is closed), without waiting."""
    poll = select.poll()
    poll.register(fd, select.POLLIN | select.POLLPRI)
    return bool(poll.poll(0))


def _check_on_checkout(engine: Engine) -> None:
    """Hand out only live connections of a database server, as ``pool_pre_ping`` does, at a
    fraction of its cost: a connection idle for over :data:`PING_IDLE_SECONDS` is pinged (a
    round trip: a silent network may have dropped it); one used since is given out unless its
    socket has something to read, which a connection between requests has only when the server
    is ending it (a restart, ``pg_terminate_backend``).  A dead one is replaced (the pool's
    ``DisconnectionError``), so a request after the database came back never sees it."""

    @event.listens_for(engine, "connect")
    def _opened(_dbapi_connection: Any, record: Any) -> None:
        record.info["returned"] = time.monotonic()

    @event.listens_for(engine, "checkin")
    def _returned(_dbapi_connection: Any, record: Any) -> None:
        if record is not None:
            record.info["returned"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _alive(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        idle = time.monotonic() - record.info.get("returned", 0.0)
        try:
            if idle > PING_IDLE_SECONDS:
                alive = engine.dialect.do_ping(dbapi_connection)
            else:
                alive = not _readable(dbapi_connection.fileno())
        except Exception:
            alive = False
        if not alive:
            raise DisconnectionError("the database ended this connection")


class _Compiled:
    """A statement compiled for a database, with what converts its values for the driver."""

    def __init__(self, statement: ClauseElement, dialect: Any) -> None:
        compiled = cast("SQLCompiler", statement.compile(dialect=dialect))
        self.sql: str = compiled.string
        self.names: list[str] | None = list(compiled.positiontup or ()) if compiled.positional else None
        self.convert = {
            name: processor
            for name, bind in compiled.binds.items()
            if (processor := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None
        }

    def params(self, values: dict[str, Any]) -> Any:
        """The driver's parameters for ``values`` (by name)."""
        if self.convert:
            values = {
                name: self.convert[name](value) if name in self.convert else value
                for name, value in values.items()
            }
        return tuple(values[name] for name in self.names) if self.names is not None else values


class Storage(SeatRows, SeatKeys, ClockRows, Pruning, Chats, Accounts, PasskeyRows, PushRows):
    """The games table behind an SQLAlchemy engine (thread-safe: one connection per call): the
    game rows here, the seats, clocks, pruning, chat and accounts from the classes it is made of.

    ``clock`` gives the time written when a game is saved or a seat taken (tests set it).
    """

    def __init__(self, url: str, *, clock: Callable[[], datetime] = _now) -> None:
        self.url = url
        self.now = clock
        """What time it is (the retention tests give their own clock)."""
        # A private database ("sqlite://", as tests and embedders ask for) is a file in a
        # temporary folder removed with the storage: SQLite's locking then serves several
        # threads at once, which one in-memory connection shared between them does not (a
        # background task's rollback could undo a request's write).
        self._private = (
            tempfile.TemporaryDirectory(prefix="cribbage-")
            if url in ("sqlite://", "sqlite:///:memory:")
            else None
        )
        if self._private is not None:
            url = f"sqlite:///{Path(self._private.name) / 'games.db'}"
        try:
            self.engine = self._engine(url)
            self.migrated = migrate(self.engine, metadata)
            """The schema revision the database was at, and the one it is at now (the newest)."""
            # One statement alone needs no transaction around it: each BEGIN, COMMIT or
            # ROLLBACK would be one more round trip to the database in every request.  Its own
            # pool, in autocommit from the connection's start: switching a shared connection
            # there and back at each checkout (execution_options) cost three times the read.
            self._single = self._engine(url, autocommit=True)
            self._compiled: dict[ClauseElement, _Compiled] = {}
            """The statements of :meth:`_raw`, compiled for the database once."""
        except (SQLAlchemyError, ImportError, UnknownRevision) as exc:
            reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
            raise StorageError(f"cannot open the database {safe_url(self.url)}: {reason}") from None

    @property
    def local(self) -> bool:
        """The database is a file of this machine (SQLite): a read or a write takes micro-
        seconds and never waits on a network."""
        return self.engine.dialect.name == "sqlite"

    @staticmethod
    def _engine(url: str, *, autocommit: bool = False) -> Engine:
        """An engine on ``url``; with ``autocommit``, for single statements (a smaller pool)."""
        isolation = {"isolation_level": "AUTOCOMMIT"} if autocommit else {}
        if not url.startswith("sqlite"):
            size = 10 if autocommit else 20
            engine = create_engine(url, pool_size=size, max_overflow=size, **isolation)
            _check_on_checkout(engine)
            return engine
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **isolation)

        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine

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
            with self._single.connect() as conn:  # one statement: it holds or changes nothing by itself
                return conn.execute(statement, values).rowcount == 1
        return bool(self._raw(statement, values, lambda cursor: cursor.rowcount == 1))  # every action's

    def load(self, game_id: str) -> StoredGame | None:
        """The stored game, or None."""
        with self._single.connect() as conn:  # one statement: no transaction around it
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
        row = self._first_row(_POSITION, {"game": game_id})
        return None if row is None else (int(row[0]), int(row[1]))

    def moved(
        self, game_id: str, version: int, generation: int
    ) -> tuple[int, int, dict[str, Any] | None] | None:
        """A game's stored version and seating generation, and its record if either differs
        from ``version`` and ``generation`` (a copy held in memory at those is behind); None if
        there is no such game.  One read, where :meth:`position` and :meth:`load` are two."""
        row = self._first_row(_MOVED, {"game": game_id, "version": version, "generation": generation})
        if row is None:
            return None
        return int(row[0]), int(row[1]), None if row[2] is None else _loads(row[2])

    def _first_row(self, query: Select[Any], values: dict[str, Any]) -> Sequence[Any] | None:
        """The first row of a read of plain values (no type conversion of the row), run on a
        pooled driver connection of the autocommit engine: the read every request makes,
        without the SQLAlchemy connection and result around it, which cost twice the read
        itself (:meth:`_raw`)."""
        return cast("Sequence[Any] | None", self._raw(query, values, lambda cursor: cursor.fetchone()))

    def _raw(self, statement: ClauseElement, values: dict[str, Any], result: Callable[[Any], Any]) -> Any:
        """``result(cursor)`` of one statement run on a pooled driver connection of the
        autocommit engine, its values converted by their types as SQLAlchemy converts them (a
        time, a boolean).  A driver's error is raised as SQLAlchemy's (an ``OperationalError``
        for a database away), as every other method's; a connection found broken is dropped
        from the pool."""
        dialect = self._single.dialect
        compiled = self._compiled.get(statement)
        if compiled is None:
            compiled = self._compiled[statement] = _Compiled(statement, dialect)
        params = compiled.params(values)
        try:
            conn = self._single.raw_connection()
        except dialect.loaded_dbapi.Error as exc:
            raise _wrapped(compiled.sql, params, exc, dialect) from exc
        try:
            cursor = conn.cursor()
            try:
                cursor.execute(compiled.sql, params)
                return result(cursor)
            finally:
                cursor.close()
        except dialect.loaded_dbapi.Error as exc:
            broken = dialect.is_disconnect(exc, conn.dbapi_connection, None)
            if broken:
                conn.invalidate(exc)
            raise _wrapped(compiled.sql, params, exc, dialect, broken) from exc
        finally:
            conn.close()  # back to the pool

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
        try:
            with self.engine.begin() as conn:
                changed = conn.execute(
                    seats.update()
                    .where(seats.c.game_id == game_id, seats.c.seat == seat.seat, holds)
                    .values(**values)
                )
                if changed.rowcount != 1:
                    raise _Refused
                void_keys(conn, game_id, seat.seat)  # the seat changed hands: its keys with its token
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
                generation = conn.execute(bumped, values).scalar_one_or_none()
                if generation is None:
                    raise _Refused
        except (_Refused, IntegrityError):
            return None
        return int(generation)

    def close(self) -> None:
        """Release the database connections (and remove a private database)."""
        self._single.dispose()
        self.engine.dispose()
        if self._private is not None:
            self._private.cleanup()
