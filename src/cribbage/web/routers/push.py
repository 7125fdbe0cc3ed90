"""Web Push for correspondence games (``docs/api.md``, "Web Push"): the server's public key, and
a seat's opt-in and opt-out (:mod:`cribbage.web.webpush` sends the notices)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.exceptions import HTTPException
from starlette.types import Receive, Scope, Send

from ...app import CORRESPONDENCE
from ...app.notify.endpoints import MAX_ENDPOINT
from ..deps import Guarded
from ..middleware import JsonRoute
from ..models import GameId
from ..openapi import PUSH_OFF_RESPONSES, PUSH_RESPONSES, answer
from ..webpush import WebPush


class _OptInRoute(JsonRoute):
    """The opt-in's path has two methods, each its own route: a request of another method is
    answered 405 with both in ``Allow`` (Starlette's would name the first route's only)."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.methods and scope["method"] not in self.methods and self.path.endswith("/push"):
            raise HTTPException(status_code=405, headers={"Allow": "POST, DELETE"})
        await super().handle(scope, receive, send)


router = APIRouter(route_class=_OptInRoute, tags=["push"])

Base64Url = Annotated[str, StringConstraints(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_-]+=*$")]


class PushKeys(BaseModel):
    """The browser's keys of a subscription (base64url)."""

    model_config = ConfigDict(extra="forbid")

    p256dh: Base64Url = Field(description="the browser's P-256 public key (65 bytes, uncompressed)")
    auth: Base64Url = Field(description="the browser's auth secret (16 bytes)")


class PushSubscriptionBody(BaseModel):
    """A browser's push subscription, as ``PushSubscription.toJSON()`` gives it."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "endpoint": "https://push.example.net/send/abc",
                    "expirationTime": None,
                    "keys": {"p256dh": "BNc…", "auth": "tBH…"},
                }
            ]
        },
    )

    endpoint: Annotated[str, StringConstraints(min_length=1)] = Field(
        description=f"the push service's URL for this browser (https, at most {MAX_ENDPOINT} characters)"
    )
    """Its length is checked with the rest of it (:func:`cribbage.app.notify.endpoints.endpoint_of`):
    a long one is ``push.bad_endpoint`` ``too_long``, as docs/api.md says; the body's own limit
    bounds what is read."""
    expirationTime: float | None = Field(default=None, description="ignored")
    keys: PushKeys


class PushKeyAnswer(BaseModel):
    """The server's VAPID public key."""

    model_config = ConfigDict(extra="forbid")

    key: str = Field(description="the application server key to subscribe with (base64url, 65 bytes)")
    correspondence: int = Field(description="the shortest clock (seconds) of a table whose seats may opt in")


class PushAnswer(BaseModel):
    """Whether your seat is told of its turns now."""

    model_config = ConfigDict(extra="forbid")

    subscribed: bool = Field(description="your seat's browser is told when it is your turn")
    seat: int | None = Field(default=None, description="your seat (on opting in)")


def _push(request: Request) -> WebPush:
    web_push: WebPush = request.app.state.web_push
    return web_push


@router.get("/api/push/key", responses=answer(PushKeyAnswer))
def push_key(request: Request) -> PushKeyAnswer:
    """The key a browser subscribes to this server's notices with (``applicationServerKey``)."""
    return PushKeyAnswer(key=_push(request).public_key, correspondence=CORRESPONDENCE)


@router.post("/api/games/{game_id}/push", responses={**answer(PushAnswer), **PUSH_RESPONSES})
async def push_subscribe(
    request: Request, game_id: GameId, body: PushSubscriptionBody, caller: Guarded
) -> PushAnswer:
    """Your seat is told when it is its turn (correspondence games only), in this browser."""
    notices = _push(request).notices
    keys = body.keys
    seat = await caller.commands.run(
        notices.subscribe, game_id, caller.actor.token, body.endpoint, keys.p256dh, keys.auth, quick=False
    )
    return PushAnswer(subscribed=True, seat=seat)


@router.delete("/api/games/{game_id}/push", responses={**answer(PushAnswer), **PUSH_OFF_RESPONSES})
async def push_unsubscribe(request: Request, game_id: GameId, caller: Guarded) -> PushAnswer:
    """Your seat is told no more."""
    await caller.commands.run(_push(request).notices.unsubscribe, game_id, caller.actor.token, quick=False)
    return PushAnswer(subscribed=False)
