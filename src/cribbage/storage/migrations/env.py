"""Alembic's environment: runs the revisions on the connection :func:`cribbage.storage.migrations.migrate`
gives, or, from the ``alembic`` command, on the database of ``-x url=...``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from cribbage.storage import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # the alembic command line: `alembic -c ... -x url=sqlite:///games.db ...`
    url = context.get_x_argument(as_dictionary=True).get("url")
    if url is None:
        raise SystemExit("give the database: -x url=SQLALCHEMY_URL")
    with create_engine(url).begin() as connection:
        context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
        context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
