"""The browser game: a web server for the page and the JSON API of ``docs/api.md``.

:mod:`cribbage.web.storage` keeps the games in an SQL database, :mod:`cribbage.web.service` runs
the game sessions (the human at seat 0, the computers server-side) and
:mod:`cribbage.web.server` is the FastAPI application; ``cribbage serve`` starts it.  The page
itself lives in the ``static`` folder.
"""

from .server import STATIC_DIR, create_app

__all__ = ["STATIC_DIR", "create_app"]
