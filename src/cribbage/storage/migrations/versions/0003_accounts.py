"""Accounts: ``accounts`` (a name, its unique key, the password's hash), ``account_sessions`` (the
hash of each signed-in browser's token) and, on ``seats``, ``account_id`` (the account that played
the seat) and ``erased`` (its account was deleted: the seat's name is gone for good), and an index
of the seats by their token's hash (a claim finds a browser's seats by their tokens).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Boolean, Column, DateTime, ForeignKey, String, false

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        Column("id", String(32), primary_key=True),
        Column("name", String(64), nullable=False),
        Column("name_key", String(128), nullable=False),
        Column("password_hash", String(256), nullable=False),
        Column("created", DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_accounts_name_key", "accounts", ["name_key"], unique=True)
    op.create_table(
        "account_sessions",
        Column("token_hash", String(64), primary_key=True),
        Column(
            "account_id",
            String(32),
            ForeignKey("accounts.id", name="fk_account_sessions_account_id", ondelete="CASCADE"),
            nullable=False,
        ),
        Column("created", DateTime(timezone=True), nullable=False),
        Column("last_seen", DateTime(timezone=True), nullable=False),
        Column("expires", DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(Column("account_id", String(32)))
        batch.add_column(Column("erased", Boolean, nullable=False, server_default=false()))
        batch.create_foreign_key(
            "fk_seats_account_id", "accounts", ["account_id"], ["id"], ondelete="SET NULL"
        )
        batch.create_index("ix_seats_account_id", ["account_id"])
        batch.create_index("ix_seats_token_hash", ["token_hash"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_token_hash")
        batch.drop_index("ix_seats_account_id")
        batch.drop_constraint("fk_seats_account_id", type_="foreignkey")
        batch.drop_column("erased")
        batch.drop_column("account_id")
    op.drop_index("ix_account_sessions_account_id", "account_sessions")
    op.drop_table("account_sessions")
    op.drop_index("ix_accounts_name_key", "accounts")
    op.drop_table("accounts")
