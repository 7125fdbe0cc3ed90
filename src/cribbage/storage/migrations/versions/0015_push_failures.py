"""A Web Push opt-in counts the notices in a row its push service did not take
(``push_subscriptions.failures``): after a few the opt-in is dropped.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Column, Integer

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("push_subscriptions", Column("failures", Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("push_subscriptions") as batch:
        batch.drop_column("failures")
