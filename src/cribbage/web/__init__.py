"""The browser game: a web server for the page and the JSON API of ``docs/api.md``.

:mod:`cribbage.storage` keeps the games in an SQL database, the application
(:mod:`cribbage.app`) runs the games (people and computers at one table, server-side), and
:mod:`cribbage.web.server` builds the FastAPI application over it from its
:class:`~cribbage.web.settings.Settings` (its routes in :mod:`cribbage.web.routers`;
:mod:`cribbage.web.errors` maps the refusals' codes to HTTP statuses); ``cribbage serve``
starts it.  The page itself lives in the ``static`` folder.
"""

from __future__ import annotations

from typing import Any

__all__ = ["STATIC_DIR", "Settings", "create_app"]


def __getattr__(name: str) -> Any:
    """The server's names, imported when first asked for: a tool that imports one module of
    this package (the retention or the limits) does not load the whole server."""
    if name in __all__:
        from . import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
