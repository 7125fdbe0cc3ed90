"""Team events (issue 44): a tournament's entrant may be a partnership of two accounts.  The
entrant's row names the partner (``partner_id``, ``partner_name``) and whether the partner has
accepted (``partner_accepted``); an account is in one entry of a tournament at most, as its
first player or as a partner (``uq_tournament_entrants_partner``).

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Boolean, Column, ForeignKey, String, false

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_entrants") as batch:
        batch.add_column(
            Column(
                "partner_id",
                String(32),
                ForeignKey("accounts.id", name="fk_tournament_entrants_partner_id", ondelete="SET NULL"),
                nullable=True,
            )
        )
        batch.add_column(Column("partner_name", String(64), nullable=True))
        batch.add_column(Column("partner_accepted", Boolean, nullable=False, server_default=false()))
        batch.create_unique_constraint("uq_tournament_entrants_partner", ["tournament_id", "partner_id"])
        batch.create_index("ix_tournament_entrants_partner_id", ["partner_id"])


def downgrade() -> None:
    with op.batch_alter_table("tournament_entrants") as batch:
        batch.drop_index("ix_tournament_entrants_partner_id")
        batch.drop_constraint("uq_tournament_entrants_partner", type_="unique")
        batch.drop_column("partner_accepted")
        batch.drop_column("partner_name")
        batch.drop_column("partner_id")
