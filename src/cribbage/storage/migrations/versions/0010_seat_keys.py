"""A seat's extra keys (``seat_keys``): an account opens its own seat in another browser, which
gets a key of its own (only its SHA-256 is stored), accepted wherever the seat's token is.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Column, DateTime, ForeignKeyConstraint, Integer, String

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seat_keys",
        Column("game_id", String(64), primary_key=True),
        Column("token_hash", String(64), primary_key=True),
        Column("seat", Integer, nullable=False),
        Column("created", DateTime(timezone=True), nullable=False),
        ForeignKeyConstraint(
            ["game_id", "seat"], ["seats.game_id", "seats.seat"], name="fk_seat_keys_seat", ondelete="CASCADE"
        ),
    )
    op.create_index("ix_seat_keys_seat", "seat_keys", ["game_id", "seat", "created"])


def downgrade() -> None:
    op.drop_index("ix_seat_keys_seat", table_name="seat_keys")
    op.drop_table("seat_keys")
