"""The baseline: the tables as they were before migrations (games, seats and the side tables).

A database made before migrations has them already (all, or those of its day): creating only the
missing ones brings it to this revision without touching its rows.  A frozen copy, never to be
changed: later changes are later revisions.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Boolean, Column, DateTime, Float, ForeignKey, Integer, MetaData, String, Table, Text

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

baseline = MetaData()


def _game_key() -> Column[str]:
    return Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)


Table(
    "games",
    baseline,
    Column("id", String(64), primary_key=True),
    Column("token_hash", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("record", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("over", Boolean, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)
Table(
    "seats",
    baseline,
    _game_key(),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("level", String(16)),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64)),
    Column("code", String(16), unique=True),
    Column("taken", Boolean, nullable=False),
)
Table("lobby", baseline, _game_key(), Column("listed", DateTime(timezone=True), nullable=False))
Table("watch", baseline, _game_key(), Column("code", String(16), nullable=False, unique=True))
Table("seating", baseline, _game_key(), Column("generation", Integer, nullable=False))
Table(
    "clocks",
    baseline,
    _game_key(),
    Column("version", Integer, nullable=False),
    Column("deadline", Float, index=True),
    Column("away", String(32), nullable=False),
)
Table(
    "rematches",
    baseline,
    _game_key(),
    Column("next_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
)


def upgrade() -> None:
    baseline.create_all(op.get_bind(), checkfirst=True)


def downgrade() -> None:
    baseline.drop_all(op.get_bind())
