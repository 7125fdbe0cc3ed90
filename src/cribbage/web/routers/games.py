"""A game: create it, read its state, act, say what the page shows, listen live, ask for a hint
or for the record (``docs/api.md``, "Games")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, WebSocket

from ...app import Actor, AppError, Options
from ..answers.games import HintAnswer, StateAnswer
from ..answers.tables import NewGameAnswer, SeenAnswer, UploadAnswer
from ..deps import Guarded, Service, per_address
from ..jsontext import Json
from ..live import Live
from ..middleware import JsonRoute
from ..models import ActionBody, GameId, NewGame, SeenBody, UploadBody
from ..openapi import (
    ACTION_RESPONSES,
    HINT_RESPONSES,
    NEW_GAME_RESPONSES,
    OBJECT,
    RECORD_RESPONSES,
    SEEN_RESPONSES,
    STATE_RESPONSES,
    UPLOAD_RESPONSES,
    answer,
    game_links,
)
from .accounts import SessionToken

router = APIRouter(route_class=JsonRoute, tags=["games"])


@router.post(
    "/api/games",
    status_code=201,
    responses={**answer(NewGameAnswer, 201, game_links()), **NEW_GAME_RESPONSES},
    dependencies=[per_address("create")],
)
def new_game(
    service: Service, session: SessionToken, options: Annotated[NewGame | None, Body()] = None
) -> Json:
    """Create a game; answers its id, the creator's secret token (seat 0), the first state
    and the open seats' invitations.  With a session token, seat 0 is the account's (and the
    table may ask to be rated: ``rated``)."""
    body = options or NewGame()
    actor = Actor(account=service.accounts.signed_in(session))
    values = body.model_dump()
    layout = values.pop("seats")
    if layout is not None and "names" not in body.model_fields_set:
        values["names"] = []  # at a table, nobody is "You" to everyone: Player 1, Player 2...
    return Json(service.create(Options.from_json(values), layout, actor=actor), status_code=201)


@router.post(
    "/api/games/upload",
    status_code=201,
    responses={**answer(UploadAnswer, 201), **UPLOAD_RESPONSES},
    dependencies=[per_address("create")],
)
def upload_game(service: Service, session: SessionToken, body: UploadBody) -> Json:
    """Keep a game against the computer played in the browser, once over: its record is
    replayed by the engine and stored as a finished game (never rated); answers its id and the
    person's seat's new token.  With a session token, the seat is the account's."""
    actor = Actor(account=service.accounts.signed_in(session))
    values = body.options.model_dump()
    if values.pop("seats") is not None:
        raise AppError(
            "invalid", "a game played in the browser is against the computer: no seats", field="options"
        )
    return Json(service.upload(Options.from_json(values), body.record, actor=actor), status_code=201)


@router.get(
    "/api/games/{game_id}",
    responses={**answer(StateAnswer), **STATE_RESPONSES},
)
async def game_state(game_id: GameId, caller: Guarded) -> Json:
    """The state your seat may see."""
    return Json(await caller.commands.state(game_id, caller.actor))


@router.post(
    "/api/games/{game_id}/actions",
    responses={**answer(StateAnswer, 200, game_links()), **ACTION_RESPONSES},
)
async def game_action(game_id: GameId, action: ActionBody, caller: Guarded) -> Json:
    """Take one action; the computers answer; returns the new state."""
    return Json(await caller.commands.act(game_id, caller.actor, action))


@router.post(
    "/api/games/{game_id}/seen",
    responses={**answer(SeenAnswer), **SEEN_RESPONSES},
)
async def game_seen(game_id: GameId, body: SeenBody, caller: Guarded) -> Json:
    """Your page shows your decision of this version: your turn clock runs from now."""
    return Json(await caller.commands.seen(game_id, caller.actor, body.version))


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
async def game_hint(game_id: GameId, caller: Guarded) -> Json:
    """The computer's advice for your discard or play, best first."""
    return Json(await caller.commands.hint(game_id, caller.actor))


@router.get(
    "/api/games/{game_id}/record",
    responses={200: OBJECT, **RECORD_RESPONSES},
)
async def game_record(game_id: GameId, caller: Guarded) -> Json:
    """The JSON record of a finished game (replayable with ``cribbage replay``)."""
    return Json(await caller.commands.record(game_id, caller.actor))
