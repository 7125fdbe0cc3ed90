"""What was settled about the rating of a game that asked to be rated (``rated_tables``):
counted, aborted, declined by a joiner, or over its accounts' daily limit (docs/ratings.md,
"Which games are rated").

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Column, DateTime, ForeignKey, String

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rated_tables",
        Column(
            "game_id",
            String(64),
            ForeignKey("games.id", name="fk_rated_tables_game_id", ondelete="CASCADE"),
            primary_key=True,
        ),
        Column("status", String(16), nullable=False),
        Column("at", DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rated_tables_at", "rated_tables", ["at"])


def downgrade() -> None:
    op.drop_index("ix_rated_tables_at", table_name="rated_tables")
    op.drop_table("rated_tables")
