"""Where the server keeps its games: one SQL table, through SQLAlchemy.

Each game is one row: its JSON record (:meth:`cribbage.engine.record.Game.to_json`, replayed on load),
the options it was created with, the hash of the human seat's token, a version (the number of
actions in the record), whether it is over, and timestamps.  The record is written before every
answer, so a server stopped at any moment, even by ``kill -9``, loses no game.

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
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    func,
    select,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from ..engine.errors import CribbageError

__all__ = ["Storage", "StorageError", "StoredGame", "database_url", "default_url", "safe_url"]

DB_NAME: Final = "games.db"

_metadata = MetaData()
games = Table(
    "games",
    _metadata,
    Column("id", String(64), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("record", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("over", Boolean, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)


_VERSION: Final = select(games.c.version).where(games.c.id == bindparam("game"))
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
"""The statements of every request, built once."""


class StorageError(CribbageError):
    """The database cannot be opened: a bad URL, a missing driver, a folder that cannot be written."""


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
    return json.dumps(data, separators=(",", ":"))


class Storage:
    """The games table behind an SQLAlchemy engine (thread-safe: one connection per call)."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            self.engine = self._engine(url)
            _metadata.create_all(self.engine)
        except (SQLAlchemyError, ImportError) as exc:
            reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
            raise StorageError(f"cannot open the database {safe_url(url)}: {reason}") from None

    @staticmethod
    def _engine(url: str) -> Engine:
        if not url.startswith("sqlite"):
            return create_engine(url, pool_pre_ping=True)
        memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            # An in-memory database lives in its one connection: share it between threads.
            **({"poolclass": StaticPool} if memory else {}),
        )

        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            if not memory:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine

    def insert(self, game: StoredGame) -> None:
        """Store a new game."""
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
                )
            )

    def update(
        self, game_id: str, record: dict[str, Any], *, version: int, over: bool, expected: int
    ) -> bool:
        """Save a game's new record if its stored version is still ``expected``.

        Returns False (and changes nothing) when another writer saved a different version first.
        """
        with self.engine.begin() as conn:
            result = conn.execute(
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
            return result.rowcount == 1

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

    def count(self, *, over: bool | None = None) -> int:
        """How many games are stored (only those over, or in progress, when asked)."""
        query = select(func.count()).select_from(games)
        if over is not None:
            query = query.where(games.c.over == over)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()
