"""Watching a table: the creator's watch link, and the spectator's state of a watch code
(``docs/api.md``, "Watching"; the live socket takes ``{"watch": CODE}``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Path as PathParam

from ..answers.games import WatchAnswer
from ..answers.tables import WatchLinkAnswer
from ..deps import Guarded, commands_of, watch_guard
from ..jsontext import Json
from ..middleware import JsonRoute
from ..models import GameId
from ..openapi import WATCH_LINK_RESPONSES, WATCH_RESPONSES, answer

router = APIRouter(route_class=JsonRoute, tags=["tables"])


@router.post(
    "/api/games/{game_id}/watch",
    responses={**answer(WatchLinkAnswer), **WATCH_LINK_RESPONSES},
)
async def watch_link(game_id: GameId, caller: Guarded) -> Json:
    """The table's watch link (for its creator, seat 0): ``{"code", "url"}``."""
    return Json(await caller.commands.watch_link(game_id, caller.actor))


@router.get(
    "/api/watch/{code}",
    responses={**answer(WatchAnswer), **WATCH_RESPONSES},
    dependencies=[watch_guard],
)
async def watched(request: Request, code: Annotated[str, PathParam(max_length=32)]) -> Json:
    """A spectator's state of the game of a watch code: only what every seat sees (a wrong code
    counts against the address as a wrong token does)."""
    return Json(await commands_of(request).watch(code))
