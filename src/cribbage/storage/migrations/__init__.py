"""The schema's history: Alembic revisions, run when a :class:`~cribbage.storage.Storage` opens
a database (and by ``cribbage admin migrate``).

``versions/`` holds them in order: ``0001`` is the baseline (the tables as they were before
migrations, side tables and all: a database made then is brought to it without a change), ``0002``
folds the side tables back into columns of ``games``, ``0003`` adds the accounts (``accounts``,
``account_sessions``, ``seats.account_id`` and ``seats.erased``), ``0004`` the chat at the tables
(``chat_messages``, ``chat_reports``), ``0005`` the ratings (``ratings``, ``rating_history``),
``0006`` Web Push (``server_keys``, ``push_subscriptions``). :func:`migrate` brings a database to
the newest (the head): a new database is created at the head at once; one made before migrations
(tables but no ``alembic_version``) goes through every revision from the baseline. On PostgreSQL all
of it happens in one transaction under an advisory lock, so processes started at once on one
database wait for each other, and the first one's work is the others' no-op.

A new schema change is a new revision: ``alembic -c src/cribbage/storage/migrations/alembic.ini
revision -m "what changes"`` (with ``-x url=...`` for ``--autogenerate``), then ``render_as_batch``
operations that SQLite can run too, and a test in tests/app/test_migrations.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, inspect, text
from sqlalchemy.engine import Connection, Engine

from ...engine.errors import CribbageError

__all__ = ["SCHEMA_LOCK", "Migrated", "UnknownRevision", "config", "head", "migrate"]

HERE: Final = Path(__file__).parent
SCHEMA_LOCK: Final = 0x63726962  # "crib": the PostgreSQL advisory lock held while the schema changes


class UnknownRevision(CribbageError):
    """The database is at a revision this version of cribbage does not know: a newer one migrated it."""


@dataclass(frozen=True, slots=True)
class Migrated:
    """What :func:`migrate` did: the revision the database was at (None: none, a new database or
    one made before migrations), the one it is at now, and whether its tables were created."""

    before: str | None
    after: str
    created: bool = False

    @property
    def changed(self) -> bool:
        return self.before != self.after


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for these revisions (with the connection ``env.py`` runs them on)."""
    settings = Config()
    settings.set_main_option("script_location", str(HERE))
    if connection is not None:
        settings.attributes["connection"] = connection
    return settings


@cache
def _script() -> ScriptDirectory:
    return ScriptDirectory.from_config(config())


def head() -> str:
    """The newest revision: the schema of :mod:`cribbage.storage`'s tables."""
    found = _script().get_current_head()
    assert found is not None
    return found


def migrate(engine: Engine, metadata: MetaData) -> Migrated:
    """Bring the database to the head revision, whose tables are ``metadata``'s.

    Raises:
        UnknownRevision: the database is at a revision newer than this program's; nothing changed.
    """
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
        before = MigrationContext.configure(conn).get_current_revision()
        newest = head()
        if before == newest:
            return Migrated(before, newest)
        if before is None and not inspect(conn).has_table("games"):
            metadata.create_all(conn)  # a new database: the head at once
            MigrationContext.configure(conn).stamp(_script(), newest)
            return Migrated(None, newest, created=True)
        if before is not None and before not in {script.revision for script in _script().walk_revisions()}:
            raise UnknownRevision(
                f"the database is at schema revision {before!r}, which this version of cribbage does "
                f"not know (its newest is {newest!r}): a newer version migrated it; upgrade cribbage"
            )
        command.upgrade(config(conn), "head")
    return Migrated(before, newest)
