"""The refusals of the application: a stable code, an English line, and the values the code names.

The codes are the vocabulary every client words its messages from (``docs/api.md``, "Errors");
the HTTP status of each is chosen at the edge (:mod:`cribbage.web.errors`), never here.  An
engine exception met where a request is decided becomes the :class:`AppError` of its class's
code (:func:`engine_error`).
"""

from __future__ import annotations

from typing import Any, Final

from ..engine.errors import (
    CardError,
    CribbageError,
    IllegalActionError,
    MugginsError,
    RecordError,
    RulesError,
)

__all__ = ["ENGINE_CODES", "AppError", "engine_code", "engine_error"]

ENGINE_CODES: Final[tuple[tuple[type[CribbageError], str], ...]] = (
    (MugginsError, "illegal.muggins"),  # before IllegalActionError, its base
    (IllegalActionError, "illegal.action"),
    (CardError, "illegal.card"),
    (RulesError, "illegal.rules"),
    (RecordError, "bad_record"),
)
"""The code of each engine exception, the most specific class first (until the engine's classes
carry their own ``code``)."""


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


def engine_code(exc: CribbageError) -> str:
    """The code of an engine exception: its class's ``code``, else the table above's, else
    ``invalid`` (a plain :class:`CribbageError`: bad input)."""
    code = getattr(type(exc), "code", None)
    if isinstance(code, str):
        return code
    return next((code for kind, code in ENGINE_CODES if isinstance(exc, kind)), "invalid")


def engine_error(exc: CribbageError, **values: Any) -> AppError:
    """The refusal of an engine exception: its code, its message."""
    return AppError(engine_code(exc), str(exc), **values)
