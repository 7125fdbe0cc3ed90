"""Where the database is: the default file, ``--db`` as an SQLAlchemy URL, and a URL fit to show."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from .rows import StorageError

DB_NAME: Final = "games.db"


def default_url() -> str:
    """The SQLite file in the user's data folder: ``$XDG_DATA_HOME/cribbage/games.db``.

    ``$XDG_DATA_HOME`` defaults to ``~/.local/share``.  The folder is created if needed.
    """
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(base) / "cribbage"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageError(f"cannot create {folder}: {exc.strerror}") from None
    return database_url(str(folder / DB_NAME))


def database_url(text: str) -> str:
    """An SQLAlchemy URL from ``--db``: a URL as it is, a plain file path as an SQLite URL.

    >>> database_url("postgresql://u@localhost/cribbage")
    'postgresql://u@localhost/cribbage'
    >>> database_url("/tmp/games.db")
    'sqlite:////tmp/games.db'
    """
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser().resolve()}"


def safe_url(url: str) -> str:
    """The URL to show people: without its password.

    >>> safe_url("postgresql://me:secret@db/cribbage")
    'postgresql://me:***@db/cribbage'
    """
    try:
        return make_url(url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        return url
