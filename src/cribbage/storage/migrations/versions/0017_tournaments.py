"""Tournaments (issue 44): ``tournaments``, their entrants (``tournament_entrants``) and the tables of
their rounds (``tournament_tables``), as :mod:`cribbage.storage.tables` describes them.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        Column("id", String(32), primary_key=True),
        Column("name", String(64), nullable=False),
        Column(
            "director_id",
            String(32),
            ForeignKey("accounts.id", name="fk_tournaments_director_id", ondelete="SET NULL"),
        ),
        Column("settings", Text, nullable=False),
        Column("stage", String(16), nullable=False),
        Column("created", DateTime(timezone=True), nullable=False),
        Column("updated", DateTime(timezone=True), nullable=False),
        Index("ix_tournaments_stage_created", "stage", "created"),
    )
    op.create_table(
        "tournament_entrants",
        Column(
            "tournament_id", String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
        ),
        Column("number", Integer, primary_key=True),
        Column(
            "account_id",
            String(32),
            ForeignKey("accounts.id", name="fk_tournament_entrants_account_id", ondelete="SET NULL"),
        ),
        Column("name", String(64), nullable=False),
        Column("checked_in", Boolean, nullable=False, server_default=false()),
        Column("withdrawn", Boolean, nullable=False, server_default=false()),
        Column("registered", DateTime(timezone=True), nullable=False),
        UniqueConstraint("tournament_id", "account_id", name="uq_tournament_entrants_account"),
        Index("ix_tournament_entrants_account_id", "account_id"),
    )
    op.create_table(
        "tournament_tables",
        Column(
            "tournament_id", String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
        ),
        Column("stage", String(16), primary_key=True),
        Column("round", Integer, primary_key=True),
        Column("number", Integer, primary_key=True),
        Column("game", Integer, primary_key=True),
        Column("first", Integer, nullable=False),
        Column("second", Integer),
        Column(
            "game_id",
            String(64),
            ForeignKey("games.id", name="fk_tournament_tables_game_id", ondelete="SET NULL"),
            unique=True,
        ),
        Column("outcome", Text),
        Column("entries", Text),
        Column("created", DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_tables")
    op.drop_table("tournament_entrants")
    op.drop_table("tournaments")
