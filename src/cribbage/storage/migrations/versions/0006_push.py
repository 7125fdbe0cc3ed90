"""Web Push: the server's own keys (``server_keys``: the VAPID key pair) and the seats' opt-ins
(``push_subscriptions``).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Boolean, Column, DateTime, ForeignKey, Integer, String, Text, false

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_keys",
        Column("name", String(32), primary_key=True),
        Column("value", Text, nullable=False),
        Column("created", DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("endpoint", String(1024), nullable=False),
        Column("p256dh", String(128), nullable=False),
        Column("auth", String(64), nullable=False),
        Column("created", DateTime(timezone=True), nullable=False),
        Column("notified", Boolean, nullable=False, server_default=false()),
    )


def downgrade() -> None:
    op.drop_table("push_subscriptions")
    op.drop_table("server_keys")
