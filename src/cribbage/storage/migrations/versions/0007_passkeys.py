"""Passkeys (WebAuthn): ``passkeys`` (an account's credentials: their id, public key, signature
counter and transports), ``passkey_ceremonies`` (a registration's or a sign-in's challenge, kept
for five minutes and used once, so that any server process can finish it), and an account's
``password_hash`` may be null (an account made with a passkey has no password).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import BigInteger, Column, DateTime, ForeignKey, String

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "passkeys",
        Column("credential_id", String(1400), primary_key=True),
        Column(
            "account_id",
            String(32),
            ForeignKey("accounts.id", name="fk_passkeys_account_id", ondelete="CASCADE"),
            nullable=False,
        ),
        Column("public_key", String(2048), nullable=False),
        Column("sign_count", BigInteger, nullable=False),
        Column("transports", String(256), nullable=False),
        Column("created", DateTime(timezone=True), nullable=False),
        Column("used", DateTime(timezone=True)),
    )
    op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])
    op.create_table(
        "passkey_ceremonies",
        Column("id", String(64), primary_key=True),
        Column("kind", String(16), nullable=False),
        Column("challenge", String(128), nullable=False),
        Column("account_id", String(32), nullable=False),
        Column("name", String(64)),
        Column("expires", DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_passkey_ceremonies_expires", "passkey_ceremonies", ["expires"])
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("password_hash", existing_type=String(256), nullable=True)


def downgrade() -> None:
    # An account made with a passkey keeps its games and name, with a hash no password matches.
    op.execute("UPDATE accounts SET password_hash = '!' WHERE password_hash IS NULL")
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("password_hash", existing_type=String(256), nullable=False)
    op.drop_index("ix_passkey_ceremonies_expires", "passkey_ceremonies")
    op.drop_table("passkey_ceremonies")
    op.drop_index("ix_passkeys_account_id", "passkeys")
    op.drop_table("passkeys")
