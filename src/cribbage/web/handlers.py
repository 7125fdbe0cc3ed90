"""How every refusal is answered: ``{"error": "...", ...}`` with its status, in one place.

:func:`add_handlers` installs the exception handlers: a refusal of the application
(:class:`~cribbage.app.AppError`, its status from its code by :func:`~cribbage.web.errors.status_of`;
a wrong token counting against the address), a malformed request (422 naming its first problem),
an HTTP error of the framework, the database away (503 with ``Retry-After``), anything else (500).
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from ..app import AppError
from .deps import address, commands_of
from .errors import DATABASE_ERRORS, status_of
from .jsontext import Json
from .middleware import error_response
from .ratelimits import LimitError
from .socket_messages import DATABASE_RETRY_SECONDS

__all__ = ["add_handlers"]


def validation_message(exc: RequestValidationError) -> str:
    """One line naming the first problem of a request body: where, and what is wrong."""
    errors = exc.errors()
    if not errors:
        return "invalid request"
    first = errors[0]
    if first.get("type") == "json_invalid":
        return f"the body is not valid JSON: {first.get('ctx', {}).get('error', 'a syntax error')}"
    loc = [str(part) for part in first.get("loc", ()) if part != "body"]
    if not loc:
        return (
            "a JSON body is required" if first.get("type") == "missing" else "the body must be a JSON object"
        )
    return f"{'.'.join(loc)}: {first.get('msg', 'invalid value')}"


async def app_error(request: Request, exc: AppError) -> Json:
    """A refusal of the application or of a limit: its code, its values and the code's status
    (a wrong token or watch code counts against the address: :meth:`.commands.Commands.refused`)."""
    await commands_of(request).refused(exc, address(request))
    headers = exc.headers if isinstance(exc, LimitError) else None
    return Json(exc.to_json(), status_code=status_of(exc.code), headers=headers)


async def validation_error(_request: Request, exc: RequestValidationError) -> Json:
    """A body (or parameter) of the wrong shape, or not JSON: 422 naming the first problem."""
    errors = exc.errors()
    loc = [str(part) for part in (errors[0].get("loc", ()) if errors else ()) if part != "body"]
    if errors and errors[0].get("type") == "json_invalid":
        loc = []  # the whole body (its location is a character position)
    return error_response(422, validation_message(exc), {"code": "bad_request", "field": ".".join(loc)})


async def http_error(request: Request, exc: StarletteHTTPException) -> Json:
    message = exc.detail if isinstance(exc.detail, str) else "error"
    code = {404: "not_found", 413: "too_large"}.get(exc.status_code, "bad_request")
    body = {"error": message.lower(), "code": code}
    headers = exc.headers
    if exc.status_code == 405:  # every route of the path, not only the first (GET/POST/DELETE /api/play)
        kept = {name: value for name, value in (headers or {}).items() if name.lower() != "allow"}
        headers = {**kept, "allow": ", ".join(sorted(_methods(request)))}
    return Json(body, status_code=exc.status_code, headers=headers)


def _methods(request: Request) -> set[str]:
    """The methods of every route of the request's path (each route asked whether it takes it)."""
    allowed = set()
    for method in _METHODS:
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] == Match.FULL for route in request.app.router.routes):
            allowed.add(method)
    return allowed


_METHODS: Final = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


async def database_away(_request: Request, _exc: Exception) -> Json:
    """The database does not answer (restarting, unreachable): nothing was changed (a game
    whose save failed is dropped from memory and read again), so the client may try again."""
    return error_response(
        503,
        "the database is not answering: try again in a few seconds",
        {"code": "database_unavailable", "retry_after": DATABASE_RETRY_SECONDS},
        {"retry-after": str(DATABASE_RETRY_SECONDS)},
    )


async def internal_error(_request: Request, _exc: Exception) -> Json:
    """A fault of the server: 500, and the connection closed (``Connection: close``), since
    nothing says what state the fault left it in."""
    return error_response(500, "internal server error", {"code": "internal"}, {"connection": "close"})


def add_handlers(app: FastAPI) -> None:
    """Answer every refusal of ``app`` as ``{"error": ...}`` with its status."""
    handlers: dict[type[Exception], Any] = {
        AppError: app_error,
        RequestValidationError: validation_error,
        StarletteHTTPException: http_error,
        **dict.fromkeys(DATABASE_ERRORS, database_away),
        Exception: internal_error,
    }
    for exception, handler in handlers.items():
        app.exception_handler(exception)(handler)
