"""A game: create it, read its state, act, say what the page shows, listen live, ask for a hint
or for the record (``docs/api.md``, "Games")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request, WebSocket

from ...app import Options
from ...app.errors import AppError
from ..answers.games import HintAnswer, StateAnswer
from ..answers.tables import NewGameAnswer, SeenAnswer
from ..deps import Guarded, Service, per_address
from ..jsontext import Json
from ..live import Live
from ..middleware import JsonRoute
from ..models import ActionBody, GameId, NewGame, SeenBody
from ..openapi import (
    ACTION_RESPONSES,
    HINT_RESPONSES,
    NEW_GAME_RESPONSES,
    OBJECT,
    RECORD_RESPONSES,
    SEEN_RESPONSES,
    STATE_RESPONSES,
    answer,
    game_links,
)
from .accounts import link_seat, signed_in

router = APIRouter(route_class=JsonRoute, tags=["games"])


@router.post(
    "/api/games",
    status_code=201,
    responses={**answer(NewGameAnswer, 201, game_links()), **NEW_GAME_RESPONSES},
    dependencies=[per_address("create")],
)
def new_game(request: Request, service: Service, options: Annotated[NewGame | None, Body()] = None) -> Json:
    """Create a game; answers its id, the creator's secret token (seat 0), the first state
    and the open seats' invitations.  With a session token, seat 0 is the account's (and the
    table may ask to be rated: ``rated``)."""
    body = options or NewGame()
    account = signed_in(service, request)
    if body.rated and account is None:
        raise AppError("invalid", "a rated table is created by a signed-in account", field="rated")
    values = body.model_dump()
    layout = values.pop("seats")
    if layout is not None and "names" not in body.model_fields_set:
        values["names"] = []  # at a table, nobody is "You" to everyone: Player 1, Player 2...
    token, state = service.create(Options.from_json(values), layout)
    link_seat(service, request, token, account)
    created = {"id": state["id"], "token": token, "state": state, "invites": state["invites"]}
    return Json(created, status_code=201)


@router.get(
    "/api/games/{game_id}",
    responses={**answer(StateAnswer), **STATE_RESPONSES},
)
async def game_state(game_id: GameId, caller: Guarded) -> Json:
    """The state your seat may see."""
    return Json(await caller.run(caller.service.state, game_id, caller.token))


@router.post(
    "/api/games/{game_id}/actions",
    responses={**answer(StateAnswer, 200, game_links()), **ACTION_RESPONSES},
)
async def game_action(game_id: GameId, action: ActionBody, caller: Guarded) -> Json:
    """Take one action; the computers answer; returns the new state."""
    service, data = caller.service, action.model_dump(exclude_none=True)
    quick = caller.local and service.quick_to_act(game_id)  # only asked where it can matter
    return Json(await caller.run(service.act, game_id, caller.token, data, quick=quick))


@router.post(
    "/api/games/{game_id}/seen",
    responses={**answer(SeenAnswer), **SEEN_RESPONSES},
)
async def game_seen(game_id: GameId, body: SeenBody, caller: Guarded) -> Json:
    """Your page shows your decision of this version: your turn clock runs from now."""
    return Json(await caller.run(caller.service.seen, game_id, caller.token, body.version))


@router.websocket("/api/games/{game_id}/live")
async def game_live(websocket: WebSocket, game_id: str) -> None:
    """Live states: send ``{"token": "..."}`` first; every change of the game then brings
    ``{"type": "state", "state": STATE}`` (see docs/api.md)."""
    live: Live = websocket.app.state.live
    await live.serve(websocket, game_id)


@router.get(
    "/api/games/{game_id}/hint",
    responses={**answer(HintAnswer), **HINT_RESPONSES},
)
def game_hint(game_id: GameId, caller: Guarded) -> Json:
    """The computer's advice for your discard or play, best first."""
    return Json(caller.service.hint(game_id, caller.token))


@router.get(
    "/api/games/{game_id}/record",
    responses={200: OBJECT, **RECORD_RESPONSES},
)
def game_record(game_id: GameId, caller: Guarded) -> Json:
    """The JSON record of a finished game (replayable with ``cribbage replay``)."""
    return Json(caller.service.record(game_id, caller.token))
