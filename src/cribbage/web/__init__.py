"""The browser game: a web server for the page and the JSON API of ``docs/api.md``.

:mod:`cribbage.web.storage` keeps the games in an SQL database, :mod:`cribbage.web.service` runs
the game sessions (the human at seat 0, the computers server-side) and :mod:`cribbage.web.server`
builds the FastAPI application (its routes in :mod:`cribbage.web.routers`) from its
:class:`~cribbage.web.settings.Settings`; ``cribbage serve`` starts it.  The page itself lives in
the ``static`` folder.
"""

from .server import STATIC_DIR, create_app
from .settings import Settings

__all__ = ["STATIC_DIR", "Settings", "create_app"]
