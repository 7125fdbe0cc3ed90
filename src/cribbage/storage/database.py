"""The connections a storage's repositories share (:class:`Database`): the engines, their
checks of a server's connections, the statements compiled once, and the clock; and the base of
the repositories (:class:`Rows`)."""

from __future__ import annotations

import select
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Final, cast

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.sql import ClauseElement, Select
from sqlalchemy.sql.compiler import SQLCompiler

from .rows import _now


def _wrapped(sql: str, params: Any, exc: Exception, dialect: Any, broken: bool = False) -> BaseException:
    """A driver's error as SQLAlchemy raises it (:meth:`Database.raw`)."""
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


class Database:
    """The database of a storage, shared by its repositories: ``engine`` for transactions,
    ``single`` for single statements, and the clock ``now`` (the time written when a game is
    saved or a seat taken; tests set it).  Opening it connects to nothing yet.
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
        self.engine = _engine(url)
        # One statement alone needs no transaction around it: each BEGIN, COMMIT or ROLLBACK
        # would be one more round trip to the database in every request.  Its own pool, in
        # autocommit from the connection's start: switching a shared connection there and back
        # at each checkout (execution_options) cost three times the read.
        self.single = _engine(url, autocommit=True)
        self._compiled: dict[ClauseElement, _Compiled] = {}
        """The statements of :meth:`raw`, compiled for the database once."""

    @property
    def local(self) -> bool:
        """The database is a file of this machine (SQLite): a read or a write takes micro-
        seconds and never waits on a network."""
        return self.engine.dialect.name == "sqlite"

    def first_row(self, query: Select[Any], values: dict[str, Any]) -> Sequence[Any] | None:
        """The first row of a read of plain values (no type conversion of the row), run on a
        pooled driver connection of the autocommit engine: the read every request makes,
        without the SQLAlchemy connection and result around it, which cost twice the read
        itself (:meth:`raw`)."""
        return cast("Sequence[Any] | None", self.raw(query, values, lambda cursor: cursor.fetchone()))

    def raw(self, statement: ClauseElement, values: dict[str, Any], result: Callable[[Any], Any]) -> Any:
        """``result(cursor)`` of one statement run on a pooled driver connection of the
        autocommit engine, its values converted by their types as SQLAlchemy converts them (a
        time, a boolean).  A driver's error is raised as SQLAlchemy's (an ``OperationalError``
        for a database away), as every other method's; a connection found broken is dropped
        from the pool."""
        dialect = self.single.dialect
        compiled = self._compiled.get(statement)
        if compiled is None:
            compiled = self._compiled[statement] = _Compiled(statement, dialect)
        params = compiled.params(values)
        try:
            conn = self.single.raw_connection()
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

    def close(self) -> None:
        """Release the database connections (and remove a private database)."""
        self.single.dispose()
        self.engine.dispose()
        if self._private is not None:
            self._private.cleanup()


class Rows:
    """A repository of a storage: the reads and writes of some of its tables, over the
    :class:`Database` it shares with the others."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @property
    def engine(self) -> Engine:
        """The engine for transactions (and reads of several statements)."""
        return self._db.engine

    def now(self) -> datetime:
        """What time it is, by the storage's clock."""
        return self._db.now()
