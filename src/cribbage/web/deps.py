"""The routes' dependencies: the service and the commands of the application, the seat's token,
the abuse limits per address, and the guard of a game's routes (:data:`Guarded`: the guard, the
commands and the token at once).

What the application holds (:func:`~cribbage.web.server.create_app` puts it in ``app.state``)
is read by ``async`` dependencies, on the event loop.  The limits run before the body is
checked (a malformed body counts as much as any other), through :class:`~.commands.Commands`,
which chooses where they are counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from ..app import Actor, GameService
from .commands import Commands

__all__ = [
    "Caller",
    "Credentials",
    "Guarded",
    "Service",
    "address",
    "commands_of",
    "per_address",
    "watch_guard",
]

_bearer = HTTPBearer(auto_error=False, description="the seat's token from POST /api/games")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


async def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


Service = Annotated[GameService, Depends(_service)]


def address(connection: HTTPConnection) -> str:
    """The client's address, by which limits count: the connection's, or the one a trusted
    proxy gave uvicorn (``--forwarded-allow-ips``, docs/deploy.md)."""
    return connection.client.host if connection.client else "unknown"


def commands_of(connection: HTTPConnection) -> Commands:
    """The application's commands (:class:`~.commands.Commands`)."""
    commands: Commands = connection.app.state.commands
    return commands


def per_address(name: str) -> Any:
    """A dependency counting each request against the limit ``name`` of its address."""

    async def limited(request: Request) -> None:
        await commands_of(request).count(name, address(request))

    return Depends(limited)


@dataclass(frozen=True, slots=True)
class Caller:
    """A request for a game, its guard passed: the application's commands and who asks (the
    seat's token; a game's routes read seat tokens, never session tokens)."""

    commands: Commands
    actor: Actor


async def _caller(request: Request, credentials: Credentials) -> Caller:
    """Requests for a game: refused from an address with too many wrong tokens before the token
    is looked at; then counted per token.  An id no game can have is not found."""
    commands = commands_of(request)
    token = None if credentials is None else credentials.credentials
    await commands.guard(request.path_params.get("game_id", ""), address(request), token)
    return Caller(commands, Actor(token))


Guarded = Annotated[Caller, Depends(_caller)]
"""A request for a game (``/api/games/{game_id}...``), past its guard, with its actor, the seat's
token (``Authorization: Bearer TOKEN``): one dependency where the guard, the commands and the
token were three (each costs FastAPI some work)."""


async def _watch_guard(request: Request) -> None:
    """Watch codes, like tokens, are not to be guessed: an address with too many wrong ones is
    refused before its code is looked at."""
    await commands_of(request).refuse_over("wrong_token", address(request))


watch_guard: Any = Depends(_watch_guard)
