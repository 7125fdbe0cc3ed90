""" "Play now" (docs/api.md, "Play now"): a signed-in account asks to play in a pool, waits, and
is told its seat at the game the queue made for it (:mod:`cribbage.app.playnow.orchestrator`).

The account's session token is sent as ``Authorization: Bearer TOKEN`` (the ``SessionToken``
scheme of the accounts' routes); the seat token answered opens the game like a created or
joined one's.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from annotated_types import Interval
from fastapi import APIRouter, Request
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, Strict, StringConstraints
from starlette.concurrency import run_in_threadpool

from ...app.games.series import FIRST_TO
from ...app.playnow.matchmaking import POOLS
from ...app.playnow.orchestrator import PlayNow, PlayQueue
from ..answers.base import Answer
from ..bodies import integral
from ..deps import Service, per_address
from ..jsontext import Json
from ..middleware import JsonRoute
from ..openapi import _BODY, answer, refusals
from .accounts import Bearer

__all__ = ["router"]

router = APIRouter(route_class=JsonRoute, tags=["play"])


class PlayBody(BaseModel):
    """The pool to play in, and how many wins make the match."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"pool": "standard"}, {"pool": "short", "first_to": 2}]},
    )

    pool: Annotated[str, StringConstraints(max_length=40)] = Field(
        description=f"one of {', '.join(POOLS)} (another name is refused: queue.unknown_pool)"
    )
    first_to: Annotated[
        int, Strict(), Interval(ge=FIRST_TO[0], le=FIRST_TO[1]), BeforeValidator(integral)
    ] = Field(
        1,
        description="a match: the games to win, 1 (one game, the default) to "
        f"{FIRST_TO[1]}; 2 is best of 3.  Only people asking for the same pool and first_to are paired",
    )


_FIRST_TO: Final = "the games to win of the match asked for (1: one game)"


class PlayStatus(Answer):
    """Waiting: the pool, how long (seconds), how many wait in it (you included), and the rating
    window you accept now."""

    pool: str
    first_to: int = Field(description=_FIRST_TO)
    waited: float
    waiting: int
    window: float


class PlayStarting(Answer):
    """Paired: the game is being created; ask again in a moment."""

    pool: str
    first_to: int = Field(description=_FIRST_TO)
    starting: Literal[True]


class PlaySeat(Answer):
    """Your seat at the game made for you: open it as a created or joined game's."""

    game: str
    seat: int
    token: str = Field(description="the seat's own secret: Authorization: Bearer TOKEN on /api/games/{game}")
    pool: str
    first_to: int = Field(description=_FIRST_TO + "; each next game is the rematch of the one before")


class PlayMatched(Answer):
    """Paired: your seat (answered once)."""

    match: PlaySeat


class PlayLeft(Answer):
    left: bool = Field(description="whether you were waiting")


_SESSION: Final = {401: "not signed in: no session token, or an unknown, ended or expired one"}
_QUEUE: Final = {
    **_SESSION,
    429: "too many Play now requests from your address: try again after Retry-After seconds",
    503: "the queue cannot be reached (queue.unavailable), or the database",
}
JOIN_RESPONSES: Final = refusals(
    {
        **_BODY,
        **_QUEUE,
        404: "no such pool (queue.unknown_pool)",
        409: "waiting already (queue.already_waiting, with its pool), or a match waits to be "
        "taken (queue.match_waiting): GET /api/play",
    }
)
POLL_RESPONSES: Final = refusals(
    {
        **_QUEUE,
        404: "not waiting and no match (play.not_waiting)",
        503: "the game of the match could not be created (play.match_failed: play again), "
        "the queue cannot be reached (queue.unavailable), or the database",
    }
)
LEAVE_RESPONSES: Final = refusals(_QUEUE)


def _play(request: Request) -> PlayNow[PlayQueue]:
    play: PlayNow[PlayQueue] = request.app.state.play
    return play


async def _account_id(service: Service, credentials: Bearer) -> str:
    token = None if credentials is None else credentials.credentials
    account = await run_in_threadpool(service.accounts.account_of, token)
    return account.id


@router.post(
    "/api/play",
    status_code=202,
    responses={**answer(PlayStatus, 202), **JOIN_RESPONSES},
    dependencies=[per_address("play")],
)
async def play_now(body: PlayBody, request: Request, service: Service, credentials: Bearer) -> Json:
    """Wait to play in a pool at your rating there: your status.  Poll ``GET /api/play``."""
    account_id = await _account_id(service, credentials)
    return Json(await _play(request).join(account_id, body.pool, body.first_to), status_code=202)


_POLL: Final[dict[int | str, dict[str, Any]]] = {200: {"model": PlayStatus | PlayStarting | PlayMatched}}


@router.get("/api/play", responses={**_POLL, **POLL_RESPONSES}, dependencies=[per_address("play")])
async def play_status(request: Request, service: Service, credentials: Bearer) -> Json:
    """Your status while you wait; once paired, ``{"match": {game, seat, token, pool}}``, once."""
    account_id = await _account_id(service, credentials)
    return Json(await _play(request).poll(account_id))


@router.delete(
    "/api/play", responses={**answer(PlayLeft), **LEAVE_RESPONSES}, dependencies=[per_address("play")]
)
async def stop_waiting(request: Request, service: Service, credentials: Bearer) -> Json:
    """Stop waiting (a match made already stays made: ``GET /api/play``)."""
    account_id = await _account_id(service, credentials)
    return Json({"left": await _play(request).leave(account_id)})
