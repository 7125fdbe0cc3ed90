"""A tournament's automatic start still due (``tournaments.starts``, indexed): the servers' sweep
starts each tournament in registration whose time has passed, and clears it once the start is
made or tried.  The tournaments in registration with a start time in their settings get it.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op
from sqlalchemy import Column, DateTime

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(Column("starts", DateTime(timezone=True), nullable=True))
        batch.create_index("ix_tournaments_starts", ["starts"])
    table = sa.table(
        "tournaments",
        sa.column("id"),
        sa.column("settings"),
        sa.column("stage"),
        sa.column("starts", DateTime(timezone=True)),
    )
    conn = op.get_bind()
    waiting = conn.execute(sa.select(table.c.id, table.c.settings).where(table.c.stage == "registration"))
    for row in waiting.all():
        starts = json.loads(row.settings).get("starts")
        if starts:
            when = datetime.fromisoformat(starts).astimezone(UTC)
            conn.execute(table.update().where(table.c.id == row.id).values(starts=when))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_index("ix_tournaments_starts")
        batch.drop_column("starts")
