"""Fold the side tables back into ``games``: ``lobby`` → ``listed``, ``watch`` → ``watch_code``,
``seating`` → ``generation``, ``clocks`` → ``clock_version``, ``clock_deadline`` and
``clock_away``, ``rematches`` → ``rematch_of`` (on the new game: the game it is the rematch of).

Rows of a side table whose game is gone (SQLite never removed them with their game) go with it.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import context, op
from sqlalchemy import Column, DateTime, Float, Integer, String, and_, column, exists, select, table

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

games = table(
    "games",
    column("id"),
    column("generation"),
    column("listed"),
    column("watch_code"),
    column("rematch_of"),
    column("clock_version"),
    column("clock_deadline"),
    column("clock_away"),
)
lobby = table("lobby", column("game_id"), column("listed"))
watch = table("watch", column("game_id"), column("code"))
seating = table("seating", column("game_id"), column("generation"))
clocks = table("clocks", column("game_id"), column("version"), column("deadline"), column("away"))
rematches = table("rematches", column("game_id"), column("next_id"))

SIDE = {
    lobby: {"listed": "listed"},
    watch: {"watch_code": "code"},
    seating: {"generation": "generation"},
    clocks: {"clock_version": "version", "clock_deadline": "deadline", "clock_away": "away"},
}
"""Each side table keyed by its game: the columns of ``games`` its columns become."""


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(Column("generation", Integer, nullable=False, server_default="0"))
        batch.add_column(Column("listed", DateTime(timezone=True)))
        batch.add_column(Column("watch_code", String(16)))
        batch.add_column(Column("rematch_of", String(64)))
        batch.add_column(Column("clock_version", Integer))
        batch.add_column(Column("clock_deadline", Float))
        batch.add_column(Column("clock_away", String(32)))
    for side, columns in SIDE.items():
        mine = side.c.game_id == games.c.id
        values = {new: select(side.c[old]).where(mine).scalar_subquery() for new, old in columns.items()}
        op.execute(games.update().where(exists().where(mine)).values(**values))
    older = games.alias("older")
    of = and_(rematches.c.next_id == games.c.id, exists().where(older.c.id == rematches.c.game_id))
    op.execute(
        games.update()
        .where(exists().where(of))
        .values(rematch_of=select(rematches.c.game_id).where(of).scalar_subquery())
    )
    with op.batch_alter_table("games") as batch:
        batch.create_unique_constraint("uq_games_watch_code", ["watch_code"])
        batch.create_unique_constraint("uq_games_rematch_of", ["rematch_of"])
        batch.create_foreign_key("fk_games_rematch_of", "games", ["rematch_of"], ["id"], ondelete="SET NULL")
        batch.create_index("ix_games_listed", ["listed"])
        batch.create_index("ix_games_clock_deadline", ["clock_deadline"])
    for side in (*SIDE, rematches):
        op.drop_table(side.name)


def downgrade() -> None:
    baseline = context.script.get_revision("0001").module.baseline  # the side tables as they were
    names = [side.name for side in (*SIDE, rematches)]
    baseline.create_all(op.get_bind(), tables=[baseline.tables[name] for name in names])
    for side, columns in SIDE.items():
        present = games.c.generation != 0 if side is seating else games.c[next(iter(columns))].is_not(None)
        source = select(games.c.id, *(games.c[new] for new in columns)).where(present)
        op.execute(side.insert().from_select(["game_id", *columns.values()], source))
    source = select(games.c.rematch_of, games.c.id).where(games.c.rematch_of.is_not(None))
    op.execute(rematches.insert().from_select(["game_id", "next_id"], source))
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_clock_deadline")
        batch.drop_index("ix_games_listed")
        batch.drop_constraint("fk_games_rematch_of", type_="foreignkey")
        batch.drop_constraint("uq_games_rematch_of", type_="unique")
        batch.drop_constraint("uq_games_watch_code", type_="unique")
        for name in ("clock_away", "clock_deadline", "clock_version", "rematch_of", "watch_code", "listed"):
            batch.drop_column(name)
        batch.drop_column("generation")
