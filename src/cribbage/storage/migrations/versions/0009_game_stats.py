"""What each account did in a rated game, kept with its rating after it (``rating_history``):
the deals played, its points by source (pegging, hand, crib) and the skunk (``+n`` given, ``-n``
taken, 0 none): the profile's averages per deal and skunks.  Null in the rows of the games
recorded before.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Column, Integer

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

COLUMNS = ("deals", "pegging", "hand", "crib", "skunk")


def upgrade() -> None:
    with op.batch_alter_table("rating_history") as batch:
        for name in COLUMNS:
            batch.add_column(Column(name, Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rating_history") as batch:
        for name in reversed(COLUMNS):
            batch.drop_column(name)
