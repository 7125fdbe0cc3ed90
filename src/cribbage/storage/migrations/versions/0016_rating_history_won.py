"""Whether each account won a rated game, kept with its rating after it
(``rating_history.won``): a profile's recent games say won or lost.  Null in the rows of the games
recorded before.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Boolean, Column

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rating_history") as batch:
        batch.add_column(Column("won", Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rating_history") as batch:
        batch.drop_column("won")
