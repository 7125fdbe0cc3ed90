"""Accounts for people who play online: sign up, sign in and out, the account and its games,
claiming this browser's guest seats, deletion (``docs/api.md``, "Accounts").

A session token is sent as ``Authorization: Bearer TOKEN`` (no cookie: no request is made on
the visitor's behalf by another site).  Everything here is optional: a guest plays by link as
before, and a game's routes read seat tokens, never session tokens.
"""

from __future__ import annotations

from typing import Annotated, Final

from fastapi import APIRouter, Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.concurrency import run_in_threadpool

from ...app import GameService
from ...app.people.accounts import MAX_CLAIM
from ...app.playnow.orchestrator import PlayNow, PlayQueue
from ..answers.base import Answer
from ..deps import Service, per_address
from ..jsontext import Json
from ..middleware import JsonRoute
from ..models import GameId
from ..openapi import _BODY, answer, refusals

__all__ = ["SessionToken", "left_play_now", "router"]

router = APIRouter(route_class=JsonRoute, tags=["accounts"])

_session = HTTPBearer(
    auto_error=False,
    scheme_name="SessionToken",
    description="an account's session token, from POST /api/accounts or /api/accounts/signin",
)
Bearer = Annotated[HTTPAuthorizationCredentials | None, Depends(_session)]


async def _session_token(request: Request) -> str | None:
    """The request's session token, or None: a guest's request.  Read by the scheme of
    :data:`Bearer` but not declared, so that the operations that take an optional session (a
    new game, a join) stay in /openapi.json as they are for guests."""
    credentials = await _session(request)
    return None if credentials is None else credentials.credentials


SessionToken = Annotated[str | None, Depends(_session_token)]
"""The session token of a request that may come from a guest (:func:`_session_token`): the
application links the seat it takes to the token's account, if it is still signed in."""

# ------------------------------------------------------------------ bodies

_Text = Annotated[str, StringConstraints(max_length=1024)]
"""A name or a password as sent: the service checks its length and characters (a password over
256 characters is refused before it is hashed)."""


class NamePassword(BaseModel):
    """A name and a password."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"name": "Aiko", "password": "a long passphrase"}]}
    )

    name: _Text = Field(
        description="2 to 20 letters, digits, '_', '-', '.' and single spaces (docs/api.md, \"Names\")"
    )
    password: _Text = Field(description="8 to 256 characters, not the name")


class PasswordBody(BaseModel):
    """The account's password, asked again."""

    model_config = ConfigDict(extra="forbid")

    password: _Text


SeatToken = Annotated[str, StringConstraints(min_length=1, max_length=128)]


class ClaimBody(BaseModel):
    """The seat tokens this browser holds (of its guest games)."""

    model_config = ConfigDict(extra="forbid")

    tokens: list[SeatToken] = Field(min_length=1, max_length=MAX_CLAIM, description="the seats' own secrets")


# ------------------------------------------------------------------ answers


class AccountGame(Answer):
    """A game the account plays or played: its id, its seat, whether it is over, its state's URL."""

    id: str
    seat: int
    over: bool
    url: str


class AccountAnswer(Answer):
    """The account: its name, when it was made, its games in progress, how many are over, and
    how it is deleted (its password, or a passkey, asked again)."""

    name: str
    created: str
    games: list[AccountGame]
    finished: int
    password: bool = Field(description="whether it has a password (an account made with a passkey has none)")
    passkeys: int = Field(description="how many passkeys it has")


class SessionAnswer(Answer):
    """A new session: its token (sent as ``Authorization: Bearer TOKEN``) and the account."""

    token: str = Field(description="the session's own secret, for 30 days")
    account: AccountAnswer


class SignOutAnswer(Answer):
    ended: int = Field(description="how many sessions ended")


class ClaimAnswer(Answer):
    claimed: list[AccountGame]


class OpenedAnswer(Answer):
    """A new key for the account's own seat of a game, for this browser (shown once)."""

    game: str
    seat: int
    token: str = Field(description="the seat's new key, sent as its token is (Authorization: Bearer)")


class DeletedAnswer(Answer):
    deleted: bool
    games: int = Field(description="the games whose seat now shows 'deleted player'")


# ------------------------------------------------------------------ refusals

_SESSION: Final = {401: "not signed in: no session token, or an unknown, ended or expired one"}
SIGNUP_RESPONSES: Final = refusals(
    {
        **_BODY,
        409: "the name is another account's",
        422: "a malformed body, or a name or password the rules refuse (account.bad_name, .bad_password)",
        429: "too many new accounts from your address: try again after Retry-After seconds",
    }
)
SIGNIN_RESPONSES: Final = refusals(
    {
        **_BODY,
        401: "wrong name or password (one answer for both)",
        429: "too many sign-in attempts from your address: try again after Retry-After seconds",
        503: "signing in is briefly unavailable (the shared counters cannot be reached), or the database",
    }
)
SESSION_RESPONSES: Final = refusals({**_SESSION, 503: _BODY[503]})
OPEN_RESPONSES: Final = refusals(
    {
        **_SESSION,
        404: "no game of this account: none, another's, or a seat it left (one answer for all)",
        429: "too many sign-in attempts from your address: try again after Retry-After seconds",
        503: "briefly unavailable (the shared counters cannot be reached), or the database",
    }
)
CLAIM_RESPONSES: Final = refusals({**_BODY, **_SESSION, 409: "a seat is another account's"})
DELETE_RESPONSES: Final = refusals(
    {
        **_BODY,
        401: "not signed in, or a wrong password",
        429: "too many sign-in attempts from your address: try again after Retry-After seconds",
        503: "briefly unavailable (the shared counters cannot be reached), or the database",
    }
)


def _token(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return None if credentials is None else credentials.credentials


# ------------------------------------------------------------------ routes


@router.post(
    "/api/accounts",
    status_code=201,
    responses={**answer(SessionAnswer, 201), **SIGNUP_RESPONSES},
    dependencies=[per_address("signup")],
)
def sign_up(body: NamePassword, service: Service) -> Json:
    """Make an account (no email): answers a session token and the account."""
    return Json(service.accounts.sign_up(body.name, body.password), status_code=201)


@router.post(
    "/api/accounts/signin",
    responses={**answer(SessionAnswer), **SIGNIN_RESPONSES},
    dependencies=[per_address("signin")],
)
def sign_in(body: NamePassword, service: Service) -> Json:
    """Sign in: answers a new session token (for 30 days) and the account."""
    return Json(service.accounts.sign_in(body.name, body.password))


async def left_play_now(request: Request, account_id: str) -> None:
    """An account signed out or deleted leaves the queue of Play now (docs/api.md, "Play now")."""
    play: PlayNow[PlayQueue] = request.app.state.play
    await play.gone(account_id)


async def _sign_out(request: Request, service: GameService, token: str | None, everywhere: bool) -> Json:
    account = await run_in_threadpool(service.accounts.account_of, token)
    ended = await run_in_threadpool(lambda: service.accounts.sign_out(token, everywhere=everywhere))
    await left_play_now(request, account.id)
    return Json(ended)


@router.post("/api/accounts/signout", responses={**answer(SignOutAnswer), **SESSION_RESPONSES})
async def sign_out(request: Request, service: Service, credentials: Bearer) -> Json:
    """End this session: its token is void, and the account leaves the queue of Play now."""
    return await _sign_out(request, service, _token(credentials), everywhere=False)


@router.post("/api/accounts/signout/all", responses={**answer(SignOutAnswer), **SESSION_RESPONSES})
async def sign_out_everywhere(request: Request, service: Service, credentials: Bearer) -> Json:
    """End every session of the account, in every browser; it leaves the queue of Play now."""
    return await _sign_out(request, service, _token(credentials), everywhere=True)


@router.get("/api/accounts/me", responses={**answer(AccountAnswer), **SESSION_RESPONSES})
def me(service: Service, credentials: Bearer) -> Json:
    """The account: its name, when it was made, its games in progress (with their links)."""
    return Json(service.accounts.me(_token(credentials)))


@router.post("/api/accounts/claim", responses={**answer(ClaimAnswer), **CLAIM_RESPONSES})
def claim(body: ClaimBody, service: Service, credentials: Bearer) -> Json:
    """Link the seats of this browser's guest games (their seat tokens) to the account."""
    return Json(service.accounts.claim(_token(credentials), body.tokens))


@router.post(
    "/api/accounts/games/{game_id}/open",
    responses={**answer(OpenedAnswer), **OPEN_RESPONSES},
    dependencies=[per_address("signin")],
)
def open_game(game_id: GameId, service: Service, credentials: Bearer) -> Json:
    """Open the account's own seat of a game in this browser: a new key for the seat, which
    plays it as its token does (the seat's token and its other keys keep working)."""
    return Json(service.accounts.open_game(_token(credentials), game_id))


@router.post(
    "/api/accounts/delete",
    responses={**answer(DeletedAnswer), **DELETE_RESPONSES},
    dependencies=[per_address("signin")],
)
async def delete(body: PasswordBody, request: Request, service: Service, credentials: Bearer) -> Json:
    """Delete the account (its password asked again): its sessions end, it leaves the queue
    of Play now; the games it played stay, its seats named ``deleted player``."""
    token = _token(credentials)
    account = await run_in_threadpool(service.accounts.account_of, token)
    deleted = await run_in_threadpool(service.accounts.delete, token, body.password)
    await left_play_now(request, account.id)
    return Json(deleted)
