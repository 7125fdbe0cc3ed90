"""Chat at the table: ``chat_messages`` (what a seat said: plain text or a quick phrase's code) and
``chat_reports`` (a message a seat reported, for an operator).  Self-contained: two new tables,
nothing else changes.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Column, DateTime, ForeignKey, Integer, String, Text

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        Column("seat", Integer, nullable=False),
        Column("text", Text),
        Column("phrase", String(32)),
        Column("at", DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_game_id", "chat_messages", ["game_id", "id"])
    op.create_table(
        "chat_reports",
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("message_id", Integer, ForeignKey("chat_messages.id", ondelete="CASCADE"), nullable=False),
        Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        Column("seat", Integer, nullable=False),
        Column("at", DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_reports_at", "chat_reports", ["at"])


def downgrade() -> None:
    op.drop_index("ix_chat_reports_at", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_game_id", table_name="chat_messages")
    op.drop_table("chat_messages")
