"""The ratings' outbox: ``games.rating_settled``, when a game's rating was settled (recorded, or
found not rated).  A game stored as over without it is rated by whichever process finds it first
(at its start and periodically), so that a process dying between a game's last action and its
rating loses nothing (docs/ratings.md, "Rated exactly once").

The games over before this revision are marked settled at their last change: they were rated
then, or not at all, and replaying every one of them at the next start would only find that.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import Column, DateTime, and_, column, table, true

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(Column("rating_settled", DateTime(timezone=True)))
    games = table("games", column("over"), column("updated"), column("rating_settled"))
    op.execute(games.update().where(games.c.over == true()).values(rating_settled=games.c.updated))
    due = and_(games.c.over == true(), games.c.rating_settled.is_(None))
    op.create_index("ix_games_rating_due", "games", ["updated"], sqlite_where=due, postgresql_where=due)


def downgrade() -> None:
    op.drop_index("ix_games_rating_due", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rating_settled")
