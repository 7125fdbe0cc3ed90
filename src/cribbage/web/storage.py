"""Where the server keeps its games: two SQL tables, through SQLAlchemy.

Each game is one row of ``games``: its JSON record (:meth:`cribbage.engine.record.Game.to_json`,
replayed on load), the options it was created with, the hash of the creator's token, a version
(the number of actions in the record), whether it is over, and timestamps.  The record is written
before every answer, so a server stopped at any moment, even by ``kill -9``, loses no game.

The row also says when the game was listed in the public lobby, its watch code, its seating
generation, the game it is the rematch of and its turn clock (:data:`games`).  Who sits where is
in ``seats``, one row per seat of a game: a person or a computer (with its level), the display
name, the hash of the seat's token once someone has taken it, and the seat's invitation code (a
person's seat that is open at creation).  Taking a seat is one ``UPDATE ... WHERE taken =
false``: of two joins with one code, exactly one wins.  A game without seat rows (made before
seats were stored) is one person (seat 0, the token of ``games``) against computers.

Opening a database brings its schema to the newest revision (:mod:`cribbage.web.migrations`).

Any SQLAlchemy URL works; the default is an SQLite file in the user's data folder
(:func:`default_url`).  SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed action
survives the process being killed (only a power cut may lose the last ones), and writes take a
fraction of a millisecond.

>>> store = Storage("sqlite://")
>>> store.insert(StoredGame("g1", "0" * 64, {"level": "weak"}, {"actions": []}, 0, False))
>>> store.update("g1", {"actions": [1]}, version=1, over=False, expected=0)
True
>>> store.update("g1", {"actions": [2]}, version=1, over=False, expected=0)  # someone else won
False
>>> store.load("g1").record
{'actions': [1]}
>>> store.insert(StoredGame("g2", "1" * 64, {}, {"actions": []}, 0, False),
...              [StoredSeat(0, "human", None, "Aiko", "1" * 64, None, True),
...               StoredSeat(1, "human", None, "Player 2", None, "K7QX2M", False)])
>>> store.take_seat("K7QX2M", "2" * 64, "Boris")
Joined(game_id='g2', seat=1, won=True)
>>> store.take_seat("K7QX2M", "3" * 64, "Chen")  # the seat is taken already
Joined(game_id='g2', seat=1, won=False)
>>> [(seat.name, seat.taken) for seat in store.seats("g2")]
[('Aiko', True), ('Boris', True)]
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final, cast

import orjson
from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    and_,
    bindparam,
    create_engine,
    event,
    false,
    func,
    or_,
    select,
    true,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.sql import Select
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ColumnElement

from ..engine.errors import CribbageError
from .migrations import UnknownRevision, migrate

__all__ = [
    "Clock",
    "Conflict",
    "Joined",
    "Listed",
    "Pruned",
    "Storage",
    "StorageError",
    "StoredGame",
    "StoredSeat",
    "database_url",
    "default_url",
    "safe_url",
]

DB_NAME: Final = "games.db"

metadata = MetaData()
"""The tables at the newest schema revision (:mod:`cribbage.web.migrations` brings a database there)."""

games = Table(
    "games",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("record", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("over", Boolean, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
    Column("generation", Integer, nullable=False, server_default="0"),
    Column("listed", DateTime(timezone=True)),
    Column("watch_code", String(16)),
    Column("rematch_of", String(64)),
    Column("clock_version", Integer),
    Column("clock_deadline", Float),
    Column("clock_away", String(32)),
    UniqueConstraint("watch_code", name="uq_games_watch_code"),
    UniqueConstraint("rematch_of", name="uq_games_rematch_of"),
    ForeignKeyConstraint(["rematch_of"], ["games.id"], name="fk_games_rematch_of", ondelete="SET NULL"),
    Index("ix_games_listed", "listed"),
    Index("ix_games_clock_deadline", "clock_deadline"),
)
"""One row a game.  Besides its record: ``generation``, how many times its seats changed after
its start (a person left, a computer took a seat: every process compares it, with the version,
with the copy it holds in memory); ``listed``, when it was listed in the public lobby (None: it
is not); ``watch_code``, its watch link's code; ``rematch_of``, the finished game whose rematch
("play again") it is; and its turn clock, if it has one: the ``clock_version`` the clock belongs
to (None: no clock), by when the seat to act then must act (``clock_deadline``, seconds since
the epoch, None while nobody's turn runs: the game waits for people, or is over) and the seats
marked away (a computer moved for them; ``clock_away``, comma-separated)."""

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("level", String(16)),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64)),
    Column("code", String(16), unique=True),
    Column("taken", Boolean, nullable=False),
)
"""Who sits where: ``kind`` is ``human`` or ``computer`` (with its ``level``); ``token_hash`` and
the joiner's ``name`` are set when a person takes the seat; ``code`` is the seat's invitation."""


@dataclass(frozen=True, slots=True)
class Clock:
    """A game's turn clock as stored: the version it belongs to, its deadline (None: no turn
    runs) and the seats marked away."""

    version: int
    deadline: float | None
    away: frozenset[int]


def _away(text: str) -> frozenset[int]:
    return frozenset(int(seat) for seat in text.split(",") if seat.strip().isdigit())


def _clock(version: int, deadline: float | None, away: frozenset[int]) -> dict[str, Any]:
    """The columns of a game's turn clock."""
    return {
        "clock_version": version,
        "clock_deadline": deadline,
        "clock_away": ",".join(map(str, sorted(away))),
    }


_POSITION: Final = select(games.c.version, games.c.generation).where(games.c.id == bindparam("game"))


_VERSION: Final = select(games.c.version).where(games.c.id == bindparam("game"))
_TAKE: Final = (
    seats.update()
    .where(seats.c.code == bindparam("the_code"), seats.c.taken == false())
    .values(taken=True, token_hash=bindparam("the_hash"), name=bindparam("the_name"))
)
_UPDATE: Final = (
    games.update()
    .where(games.c.id == bindparam("game"), games.c.version == bindparam("expected"))
    .values(
        record=bindparam("record"),
        version=bindparam("version"),
        over=bindparam("over"),
        updated=bindparam("updated"),
    )
)
_UPDATE_SEATED: Final = _UPDATE.where(games.c.generation == bindparam("seating"))
"""The statements of every request, built once."""


class _Refused(Exception):
    """Rolls a reseating back: a condition it depends on no longer held."""


class StorageError(CribbageError):
    """The database cannot be opened: a bad URL, a missing driver, a folder that cannot be written."""


class Conflict(StorageError):
    """A new game's id or one of its invitation codes is in use already: nothing was stored."""


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One row of the games table."""

    id: str
    token_hash: str
    options: dict[str, Any]
    record: dict[str, Any]
    version: int
    over: bool
    created: datetime = field(default_factory=_now)
    updated: datetime = field(default_factory=_now)


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """One row of the seats table (without its game's id)."""

    seat: int
    kind: str
    """``human`` or ``computer``."""
    level: str | None
    """A computer's level; None for a person."""
    name: str
    token_hash: str | None
    """The hash of the seat's token, once a person has taken it; None otherwise."""
    code: str | None
    """The seat's invitation code, if it had one."""
    taken: bool
    """A person's seat has been taken (a computer's always is)."""


@dataclass(frozen=True, slots=True)
class Joined:
    """What taking a seat by its code did: the seat's game and number, and whether this call took
    it (False: someone had taken it before)."""

    game_id: str
    seat: int
    won: bool


@dataclass(frozen=True, slots=True)
class Listed:
    """A game of the public lobby: its options and seats (never its record)."""

    game_id: str
    options: dict[str, Any]
    seats: tuple[StoredSeat, ...]
    listed: datetime


@dataclass(frozen=True, slots=True)
class Pruned:
    """What a pruning removed (or, in a dry run, would remove): how many games in progress and
    finished, and the bytes of their stored JSON (record and options; the database's own
    overhead and the seat rows are extra)."""

    unfinished: int
    finished: int
    bytes: int
    ids: tuple[str, ...] = ()
    """The removed games' ids (empty in a dry run)."""

    @property
    def games(self) -> int:
        return self.unfinished + self.finished

    def to_json(self) -> dict[str, int]:
        return {"unfinished": self.unfinished, "finished": self.finished, "bytes": self.bytes}


PRUNE_BATCH: Final = 500
"""Games deleted per transaction: a large pruning holds the database's write lock only briefly
at a time, so the server's own writes go on between batches."""


def _cutoffs(now: datetime, keep_days: int, keep_finished_days: int) -> ColumnElement[bool] | None:
    """The condition on a game that makes it prunable (None: nothing is): in progress and not
    touched for ``keep_days``, or finished (its last action) more than ``keep_finished_days``
    ago; 0 days keeps those games forever."""
    for name, days in (("keep_days", keep_days), ("keep_finished_days", keep_finished_days)):
        if type(days) is not int or days < 0:
            raise StorageError(
                f"{name} must be a whole number of days, 0 (keep forever) or more, not {days!r}"
            )
    now = now.astimezone(UTC)
    stale = []
    if keep_days:
        stale.append(and_(games.c.over == false(), games.c.updated < now - timedelta(days=keep_days)))
    if keep_finished_days:
        stale.append(and_(games.c.over == true(), games.c.updated < now - timedelta(days=keep_finished_days)))
    return or_(*stale) if stale else None


def default_url() -> str:
    """The SQLite file in the user's data folder: ``$XDG_DATA_HOME/cribbage/games.db``.

    ``$XDG_DATA_HOME`` defaults to ``~/.local/share``.  The folder is created if needed.
    """
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(base) / "cribbage"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(f"cannot create {folder}: {exc.strerror}") from None
    return database_url(str(folder / DB_NAME))


def database_url(text: str) -> str:
    """An SQLAlchemy URL from ``--db``: a URL as it is, a plain file path as an SQLite URL.

    >>> database_url("postgresql://u@localhost/cribbage")
    'postgresql://u@localhost/cribbage'
    >>> database_url("/tmp/games.db")
    'sqlite:////tmp/games.db'
    """
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser().resolve()}"


def safe_url(url: str) -> str:
    """The URL to show people: without its password.

    >>> safe_url("postgresql://me:secret@db/cribbage")
    'postgresql://me:***@db/cribbage'
    """
    try:
        return make_url(url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        return url


def _dumps(data: dict[str, Any]) -> str:
    """Compact JSON text: orjson's (a record is written at every action, in a tenth of the
    time json takes), or json's for what orjson refuses (an integer beyond 64 bits)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(data, separators=(",", ":"))


def _wrapped(sql: str, params: Any, exc: Exception, dialect: Any, broken: bool = False) -> BaseException:
    """A driver's error as SQLAlchemy raises it (:meth:`Storage._first_row`)."""
    return DBAPIError.instance(
        sql, params, exc, dialect.loaded_dbapi.Error, connection_invalidated=broken, dialect=dialect
    )


def _utc(moment: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _seat(row: Any) -> StoredSeat:
    return StoredSeat(row.seat, row.kind, row.level, row.name, row.token_hash, row.code, row.taken)


class Storage:
    """The games table behind an SQLAlchemy engine (thread-safe: one connection per call).

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
            self._compiled: dict[Select[Any], SQLCompiler] = {}
            """The reads of :meth:`_first_row`, compiled for the database once."""
        except (SQLAlchemyError, ImportError, UnknownRevision) as exc:
            reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
            raise StorageError(f"cannot open the database {safe_url(self.url)}: {reason}") from None

    @staticmethod
    def _engine(url: str, *, autocommit: bool = False) -> Engine:
        """An engine on ``url``; with ``autocommit``, for single statements (a smaller pool)."""
        isolation = {"isolation_level": "AUTOCOMMIT"} if autocommit else {}
        if not url.startswith("sqlite"):
            size = 10 if autocommit else 20
            return create_engine(url, pool_pre_ping=True, pool_size=size, max_overflow=size, **isolation)
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
        except IntegrityError:
            raise Conflict(f"game {game.id!r} or one of its codes is in use already") from None

    def seats(self, game_id: str) -> list[StoredSeat]:
        """A game's seats in order ([] for a game stored without them: one person at seat 0)."""
        query = seats.select().where(seats.c.game_id == game_id).order_by(seats.c.seat)
        with self.engine.connect() as conn:
            return [_seat(row) for row in conn.execute(query)]

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

    def update(
        self,
        game_id: str,
        record: dict[str, Any],
        *,
        version: int,
        over: bool,
        expected: int,
        generation: int | None = None,
        clock: tuple[float | None, frozenset[int]] | None = None,
    ) -> bool:
        """Save a game's new record if its stored version is still ``expected`` and, given a
        ``generation``, its seating generation still that one (and, with ``clock``, its turn
        clock's deadline and away seats, in the same transaction).

        Returns False (and changes nothing) when another writer saved a different version first,
        or changed the seats.
        """
        values: dict[str, Any] = {
            "game": game_id,
            "expected": expected,
            "record": _dumps(record),
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

    def set_clock(self, game_id: str, version: int, deadline: float | None, away: frozenset[int]) -> None:
        """Store a game's turn clock (for its ``version``: a later action replaces it)."""
        with self._single.connect() as conn:
            conn.execute(
                games.update().where(games.c.id == game_id).values(**_clock(version, deadline, away))
            )

    def start_clock(self, game_id: str, version: int, deadline: float) -> bool:
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

    def void_clock(self, game_id: str, deadline: float) -> None:
        """Stop a game's turn clock that ran out with nothing to do (its table waits for people,
        or its version moved on without a clock), unless another one was stored meanwhile."""
        with self.engine.begin() as conn:
            conn.execute(
                games.update()
                .where(games.c.id == game_id, games.c.clock_deadline == deadline)
                .values(clock_deadline=None)
            )

    def rematch(self, game_id: str) -> str | None:
        """The game a finished game's people went on to ("play again"), or None."""
        query = select(games.c.id).where(games.c.rematch_of == game_id)
        with self.engine.connect() as conn:
            found = conn.execute(query).scalar_one_or_none()
        return None if found is None else str(found)

    def clock(self, game_id: str) -> Clock | None:
        """A game's turn clock, or None (it has none, or it was never started)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(games.c.clock_version, games.c.clock_deadline, games.c.clock_away).where(
                    games.c.id == game_id
                )
            ).first()
        if row is None or row.clock_version is None:
            return None
        return Clock(int(row.clock_version), row.clock_deadline, _away(row.clock_away or ""))

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

    def load(self, game_id: str) -> StoredGame | None:
        """The stored game, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(games.select().where(games.c.id == game_id)).first()
        if row is None:
            return None
        return StoredGame(
            id=row.id,
            token_hash=row.token_hash,
            options=json.loads(row.options),
            record=json.loads(row.record),
            version=row.version,
            over=row.over,
            created=row.created,
            updated=row.updated,
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

    def _first_row(self, query: Select[Any], values: dict[str, Any]) -> Sequence[Any] | None:
        """The first row of a read of plain values (no type conversion), run on a pooled
        driver connection of the autocommit engine: the read every request makes, without the
        SQLAlchemy connection and result around it, which cost twice the read itself.  A
        driver's error is raised as SQLAlchemy's (an ``OperationalError`` for a database away),
        as every other method's; a connection found broken is dropped from the pool."""
        dialect = self._single.dialect
        compiled = self._compiled.get(query)
        if compiled is None:
            compiled = self._compiled[query] = query.compile(dialect=dialect)
        names = compiled.positiontup
        params = tuple(values[name] for name in names) if compiled.positional and names else values
        try:
            conn = self._single.raw_connection()
        except dialect.loaded_dbapi.Error as exc:
            raise _wrapped(compiled.string, params, exc, dialect) from exc
        try:
            cursor = conn.cursor()
            try:
                cursor.execute(compiled.string, params)
                return cast("Sequence[Any] | None", cursor.fetchone())
            finally:
                cursor.close()
        except dialect.loaded_dbapi.Error as exc:
            broken = dialect.is_disconnect(exc, conn.dbapi_connection, None)
            if broken:
                conn.invalidate(exc)
            raise _wrapped(compiled.string, params, exc, dialect, broken) from exc
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
        try:
            with self.engine.begin() as conn:
                changed = conn.execute(
                    seats.update()
                    .where(seats.c.game_id == game_id, seats.c.seat == seat.seat, holds)
                    .values(
                        kind=seat.kind,
                        level=seat.level,
                        name=seat.name,
                        token_hash=seat.token_hash,
                        code=seat.code,
                        taken=seat.taken,
                    )
                )
                if changed.rowcount != 1:
                    raise _Refused
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
                if ids:  # SQLite enforces no foreign keys: the seat rows go here
                    conn.execute(seats.delete().where(seats.c.game_id.in_(ids)))
            removed += [(row[0], bool(row[1]), int(row[2] or 0)) for row in rows]
            if len(rows) < batch:
                break
        return Pruned(
            unfinished=sum(not over for _id, over, _size in removed),
            finished=sum(over for _id, over, _size in removed),
            bytes=sum(size for _id, _over, size in removed),
            ids=tuple(game_id for game_id, _over, _size in removed),
        )

    def close(self) -> None:
        """Release the database connections (and remove a private database)."""
        self._single.dispose()
        self.engine.dispose()
        if self._private is not None:
            self._private.cleanup()
