"""The routes' dependencies: the service and the broker of the application, the seat's token, the
abuse limits per address and per token, and the guards of a game's and a watch code's routes.

What the application holds (:func:`~cribbage.web.server.create_app` puts it in ``app.state``)
is read by ``async`` dependencies, on the event loop; the limits, which may ask Redis, are plain
functions that FastAPI runs in its thread pool, before the body is checked (a malformed body
counts as much as any other).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from ..app import AppError, GameService
from .hardening import good_game_id
from .ratelimits import RateLimits, token_key

__all__ = [
    "Credentials",
    "Service",
    "Token",
    "address",
    "game_guard",
    "limits_of",
    "per_address",
    "watch_guard",
]

_bearer = HTTPBearer(auto_error=False, description="the seat's token from POST /api/games")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


async def _token(credentials: Credentials) -> str | None:
    return None if credentials is None else credentials.credentials


Token = Annotated[str | None, Depends(_token)]
"""The seat's token (``Authorization: Bearer TOKEN``), or None."""


async def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


Service = Annotated[GameService, Depends(_service)]


def address(connection: HTTPConnection) -> str:
    """The client's address, by which limits count: the connection's, or the one a trusted
    proxy gave uvicorn (``--forwarded-allow-ips``, docs/deploy.md)."""
    return connection.client.host if connection.client else "unknown"


def limits_of(connection: HTTPConnection) -> RateLimits:
    """The application's abuse limits."""
    limits: RateLimits = connection.app.state.limits
    return limits


def per_address(name: str) -> Any:
    """A dependency counting each request against the limit ``name`` of its address."""

    def limited(request: Request) -> None:
        limits_of(request).hit(name, address(request))

    return Depends(limited)


def _game_guard(request: Request, credentials: Credentials) -> None:
    """Requests for a game: refused from an address with too many wrong tokens before the
    token is looked at; then counted per token.  An id no game can have is not found."""
    if not good_game_id(request.path_params.get("game_id", "")):
        raise AppError("not_found", "no such game")
    limits = limits_of(request)
    limits.check("wrong_token", address(request))
    if credentials is not None and credentials.credentials:
        limits.hit("token", token_key(credentials.credentials))


game_guard: Any = Depends(_game_guard)


def _watch_guard(request: Request) -> None:
    """Watch codes, like tokens, are not to be guessed: an address with too many wrong ones is
    refused before its code is looked at."""
    limits_of(request).check("wrong_token", address(request))


watch_guard: Any = Depends(_watch_guard)
