"""A table of people: join it by invitation (or look first), the public lobby, leave a seat,
give an open seat to a computer, play again (``docs/api.md``, "Tables")."""

from __future__ import annotations

from fastapi import APIRouter

from ...app import Actor
from ..answers.games import StateAnswer
from ..answers.tables import InvitationAnswer, JoinAnswer, LeaveAnswer, LobbyAnswer, RematchAnswer
from ..deps import Guarded, Service, per_address
from ..jsontext import Json
from ..middleware import JsonRoute
from ..models import Code, ComputerBody, GameId, JoinBody
from ..openapi import (
    COMPUTER_RESPONSES,
    INVITATION_RESPONSES,
    JOIN_RESPONSES,
    LEAVE_RESPONSES,
    REMATCH_RESPONSES,
    answer,
    game_links,
)
from .accounts import SessionToken

router = APIRouter(route_class=JsonRoute, tags=["tables"])


@router.post(
    "/api/join",
    status_code=201,
    responses={**answer(JoinAnswer, 201, game_links()), **JOIN_RESPONSES},
    dependencies=[per_address("join")],
)
def join(body: JoinBody, service: Service, session: SessionToken) -> Json:
    """Take an open seat with its invitation code; answers the game's id, the seat's own
    secret token, its number and its state.  With a session token, the seat is the account's
    (and ``rated`` accepts a table asking to be rated; without it that game is unrated)."""
    actor = Actor(account=service.accounts.signed_in(session))
    joined = service.join(body.code, body.name, actor=actor, accept_rating=body.rated)
    return Json(joined, status_code=201)


@router.get(
    "/api/join/{code}",
    responses={**answer(InvitationAnswer), **INVITATION_RESPONSES},
    dependencies=[per_address("join")],
)
def invitation_preview(code: Code, service: Service) -> Json:
    """Who sits at the table of an invitation code, its variant and counting, before joining;
    counted as a join attempt (an unknown code too)."""
    return Json(service.invitation(code))


@router.get("/api/lobby", responses=answer(LobbyAnswer))
def table_lobby(service: Service) -> Json:
    """The public tables with an open seat, newest first."""
    return Json(service.lobby())


@router.post(
    "/api/games/{game_id}/leave",
    responses={**answer(LeaveAnswer), **LEAVE_RESPONSES},
)
async def leave(game_id: GameId, caller: Guarded) -> Json:
    """Leave the table: your token is void; a computer takes the seat, or it waits open."""
    return Json(await caller.commands.leave(game_id, caller.actor))


@router.post(
    "/api/games/{game_id}/computer",
    responses={**answer(StateAnswer), **COMPUTER_RESPONSES},
)
async def seat_computer(game_id: GameId, body: ComputerBody, caller: Guarded) -> Json:
    """The creator gives an open seat to a computer; answers the creator's state."""
    return Json(await caller.commands.seat_computer(game_id, caller.actor, body.seat, body.level))


@router.post(
    "/api/games/{game_id}/rematch",
    responses={**answer(RematchAnswer), **REMATCH_RESPONSES},
)
async def rematch(game_id: GameId, caller: Guarded) -> Json:
    """Play again once the game is over: the new game (the same for every seat), your seat
    in it (your token acts there too) and its state."""
    return Json(await caller.commands.rematch(game_id, caller.actor))
