"""The ratings of accounts in games between people: ``ratings`` (each account's rating in each
pool, with the leaderboard's index on ``(pool, ordinal, account_id)``) and ``rating_history``
(its rating after each game: unique per game and account, indexed for an account's graph).

An account's ratings go with it (``ON DELETE CASCADE``).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import (
    Column,
    DateTime,
    Float,
    ForeignKeyConstraint,
    Integer,
    PrimaryKeyConstraint,
    String,
    UniqueConstraint,
)

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        Column("account_id", String(32), nullable=False),
        Column("pool", String(16), nullable=False),
        Column("mu", Float, nullable=False),
        Column("sigma", Float, nullable=False),
        Column("ordinal", Float, nullable=False),
        Column("games", Integer, nullable=False),
        Column("wins", Integer, nullable=False),
        Column("updated", DateTime(timezone=True), nullable=False),
        PrimaryKeyConstraint("account_id", "pool"),
        ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_ratings_account_id", ondelete="CASCADE"
        ),
    )
    op.create_index("ix_ratings_pool_ordinal", "ratings", ["pool", "ordinal", "account_id"])
    op.create_table(
        "rating_history",
        Column("id", Integer, primary_key=True),
        Column("account_id", String(32), nullable=False),
        Column("pool", String(16), nullable=False),
        Column("game_id", String(64), nullable=False),
        Column("mu", Float, nullable=False),
        Column("sigma", Float, nullable=False),
        Column("shown", Float, nullable=False),
        Column("at", DateTime(timezone=True), nullable=False),
        UniqueConstraint("game_id", "account_id", name="uq_rating_history_game_account"),
        ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_rating_history_account_id", ondelete="CASCADE"
        ),
    )
    op.create_index("ix_rating_history_account_pool", "rating_history", ["account_id", "pool", "id"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_account_pool", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_pool_ordinal", table_name="ratings")
    op.drop_table("ratings")
