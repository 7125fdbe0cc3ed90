"""The routes' dependencies: the service and the broker of the application, the seat's token, the
abuse limits per address and per token, and the guards of a game's and a watch code's routes
(:data:`Guarded`: the guard, the service and the token at once, and :meth:`Caller.run`, which
calls the service where it costs least).

What the application holds (:func:`~cribbage.web.server.create_app` puts it in ``app.state``)
is read by ``async`` dependencies, on the event loop.  The limits run before the body is
checked (a malformed body counts as much as any other): on the event loop when they are
counted in this process's memory (or off), in the thread pool when they may ask Redis.

A hand-off to the thread pool and back costs more CPU than reading a game's state does (the
benchmark ``bench/bench_cost.py`` measures it): :meth:`Caller.run` calls the service on the event
loop when nothing it does can wait on a network or think for long (``app.state.local``: an
SQLite database and the in-process broker; and for an action, no computer at the table but
of a level that answers at once, :meth:`~cribbage.app.GameService.quick_to_act`), in the
thread pool otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Final, TypeVar

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from ..app import AppError, GameService
from .hardening import good_game_id
from .ratelimits import RateLimits, token_key

__all__ = [
    "Caller",
    "Credentials",
    "Guarded",
    "Service",
    "address",
    "limits_of",
    "per_address",
    "watch_guard",
]

T = TypeVar("T")

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


def limits_of(connection: HTTPConnection) -> RateLimits:
    """The application's abuse limits."""
    limits: RateLimits = connection.app.state.limits
    return limits


async def _limit(limits: RateLimits, names: tuple[str, ...], call: Callable[..., None], *args: Any) -> None:
    """``call(*args)``, counting the limits ``names``: in the thread pool when that may wait on
    Redis, else on the event loop (limits in this process's memory, or off)."""
    if limits.waits(*names):
        await run_in_threadpool(call, *args)
    else:
        call(*args)


def per_address(name: str) -> Any:
    """A dependency counting each request against the limit ``name`` of its address."""

    async def limited(request: Request) -> None:
        limits = limits_of(request)
        await _limit(limits, (name,), limits.hit, name, address(request))

    return Depends(limited)


_GAME_LIMITS: Final = ("wrong_token", "token")


def _check_game(limits: RateLimits, where: str, token: str | None) -> None:
    limits.check("wrong_token", where)
    if token:
        limits.hit("token", token_key(token))


async def _game_guard(request: Request, credentials: Credentials) -> None:
    """Requests for a game: refused from an address with too many wrong tokens before the
    token is looked at; then counted per token.  An id no game can have is not found."""
    if not good_game_id(request.path_params.get("game_id", "")):
        raise AppError("not_found", "no such game")
    limits = limits_of(request)
    token = None if credentials is None else credentials.credentials
    await _limit(limits, _GAME_LIMITS, _check_game, limits, address(request), token)


@dataclass(frozen=True, slots=True)
class Caller:
    """A request for a game, its guard passed: the application's service, the seat's token, and
    whether the service may be called on the event loop (``app.state.local``)."""

    service: GameService
    token: str | None
    local: bool

    async def run(self, call: Callable[..., T], *args: Any, quick: bool = True) -> T:
        """``call(*args)``: on the event loop when the application keeps all it reads in this
        process and the call is ``quick`` (no computer searches in it), else in the thread pool
        (a database or Redis across the network, a strong computer's move)."""
        if quick and self.local:
            return call(*args)
        return await run_in_threadpool(call, *args)


async def _caller(request: Request, credentials: Credentials) -> Caller:
    await _game_guard(request, credentials)
    token = None if credentials is None else credentials.credentials
    return Caller(request.app.state.service, token, request.app.state.local)


Guarded = Annotated[Caller, Depends(_caller)]
"""A request for a game (``/api/games/{game_id}...``), past its guard, with the seat's token
(``Authorization: Bearer TOKEN``): one dependency where the guard, the service and the token
were three (each costs FastAPI some work)."""


async def _watch_guard(request: Request) -> None:
    """Watch codes, like tokens, are not to be guessed: an address with too many wrong ones is
    refused before its code is looked at."""
    limits = limits_of(request)
    await _limit(limits, ("wrong_token",), limits.check, "wrong_token", address(request))


watch_guard: Any = Depends(_watch_guard)
