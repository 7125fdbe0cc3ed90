"""One report per seat and message (``uq_chat_reports_message_seat``): a seat that reports a
message again is answered with its first report; the repeats stored before are dropped (the
first of each kept).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import text

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        text(
            "DELETE FROM chat_reports WHERE id NOT IN"
            " (SELECT MIN(id) FROM chat_reports GROUP BY message_id, seat)"
        )
    )
    op.create_index("uq_chat_reports_message_seat", "chat_reports", ["message_id", "seat"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_chat_reports_message_seat", table_name="chat_reports")
