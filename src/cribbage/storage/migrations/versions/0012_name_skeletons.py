"""Names no one can fake (issue 41, items 11 and 7): each account's name skeleton (Unicode TS #39,
of its case-folded name: unique, so no two accounts' names look alike, even under racing
sign-ups), backfilled for the accounts there are; and the names held after an account's
deletion (``held_names``: its skeleton, until when).

Of existing accounts whose names look alike, the oldest keeps the skeleton; the later ones keep
their names with a null skeleton (blocking no one).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy import Column, DateTime, String

from cribbage.app.people.names import name_skeleton

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(Column("name_skeleton", String(256)))
    accounts = sa.table(
        "accounts", sa.column("id"), sa.column("name"), sa.column("created"), sa.column("name_skeleton")
    )
    conn = op.get_bind()
    seen: set[str] = set()
    rows = conn.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.created, accounts.c.id))
    for account_id, name in rows.all():
        skeleton = name_skeleton(name)
        if skeleton not in seen:
            seen.add(skeleton)
            conn.execute(accounts.update().where(accounts.c.id == account_id).values(name_skeleton=skeleton))
    op.create_index("ix_accounts_name_skeleton", "accounts", ["name_skeleton"], unique=True)
    op.create_table(
        "held_names",
        Column("skeleton", String(256), primary_key=True),
        Column("until", DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("held_names")
    op.drop_index("ix_accounts_name_skeleton", table_name="accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("name_skeleton")
