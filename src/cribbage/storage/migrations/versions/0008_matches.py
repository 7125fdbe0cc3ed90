"""A seat left open keeps its leaver's account (``seats.left_by``): the game is their loss when it
is rated (docs/ratings.md, "How games are recorded").  Matches of "Play now" need no column: a
game's series is in its options.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Column, String

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(Column("left_by", String(32)))
        batch.create_foreign_key("fk_seats_left_by", "accounts", ["left_by"], ["id"], ondelete="SET NULL")


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("fk_seats_left_by", type_="foreignkey")
        batch.drop_column("left_by")
