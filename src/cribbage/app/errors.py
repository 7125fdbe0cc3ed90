"""The refusals of the application: a stable code, an English line, and the values the code names.

The codes are the vocabulary every client words its messages from (``docs/api.md``, "Errors");
the HTTP status of each is chosen at the edge (:mod:`cribbage.web.errors`), never here.  An
engine exception met where a request is decided becomes the :class:`AppError` of its own code
and values (:func:`engine_error`: ``illegal.action``, ``illegal.card``, ``bad_record``...).
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import CribbageError

__all__ = ["AppError", "engine_error"]


class AppError(Exception):
    """A request the application refuses: ``code`` names why (``stale``, ``not_found``,
    ``illegal.action``...), ``message`` says it in English for logs, ``values`` are the facts the
    code names (``field``, ``version``, ``seat``...).  Nothing was changed."""

    def __init__(self, code: str, message: str, **values: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.values = values

    def to_json(self) -> dict[str, Any]:
        """``{"error": message, "code": code, **values}``: the body of a refusal."""
        return {"error": self.message, "code": self.code, **self.values}


def engine_error(exc: CribbageError, **values: Any) -> AppError:
    """The refusal of an engine exception: its code, its message, its values (and ``values``,
    where the request's field is known)."""
    return AppError(exc.code, str(exc), **{**exc.values, **values})
