"""Web Push for tournaments (``tournament_push``): an entrant of a correspondence tournament is
told when its next game is ready, one browser an account a tournament
(:mod:`cribbage.storage.tournament_push`).

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Column, DateTime, ForeignKey, Integer, String

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_push",
        Column(
            "tournament_id", String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
        ),
        Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        Column("endpoint", String(1024), nullable=False),
        Column("p256dh", String(128), nullable=False),
        Column("auth", String(64), nullable=False),
        Column("created", DateTime(timezone=True), nullable=False),
        Column("told", String(64)),
        Column("failures", Integer, nullable=False, server_default="0"),
    )


def downgrade() -> None:
    op.drop_table("tournament_push")
