"""Web Push for correspondence tournaments (``docs/api.md``, "Tournaments"): an entrant asks to be
told when its next game is ready, and stops (:class:`cribbage.app.tournaments.ready.TournamentReady`
decides; :mod:`cribbage.web.webpush` sends).  The session as the other tournament routes'
(``Authorization: Bearer TOKEN``); the body as a seat's opt-in's (:mod:`.push`)."""

from __future__ import annotations

from typing import Final

from fastapi import APIRouter

from ..answers.tournaments import TournamentPushAnswer
from ..deps import Service, per_address
from ..openapi import answer, refusals
from .accounts import Bearer
from .push import PushSubscriptionBody, _OptInRoute
from .tournaments import _BODY_COMMON, _FOUND, _SESSION, TournamentId

__all__ = ["router"]

router = APIRouter(route_class=_OptInRoute, tags=["tournaments"])

TOURNAMENT_PUSH_RESPONSES: Final = refusals(
    {
        **_BODY_COMMON,
        **_SESSION,
        404: "no such tournament (tournament.not_found), or you are not entered (tournament.not_entered)",
        409: "a tournament at a club or with a clock shorter than an hour (push.not_correspondence), "
        "or you withdrew (tournament.withdrawn)",
        422: "a malformed id or body, an endpoint the server does not send to (push.bad_endpoint), "
        "or keys that are not a browser's (push.bad_subscription)",
    }
)
TOURNAMENT_PUSH_OFF_RESPONSES: Final = refusals({**_FOUND, **_SESSION})
_LIMITED: Final = [per_address("tournaments")]


@router.post(
    "/api/tournaments/{tournament_id}/push",
    responses={**answer(TournamentPushAnswer), **TOURNAMENT_PUSH_RESPONSES},
    dependencies=_LIMITED,
)
def tournament_push_on(
    tournament_id: TournamentId, body: PushSubscriptionBody, service: Service, credentials: Bearer
) -> TournamentPushAnswer:
    """You, an entrant of a correspondence tournament, are told in this browser when a table of
    yours gets its game (replacing the browser you had: one a tournament)."""
    account = service.accounts.account_of(None if credentials is None else credentials.credentials)
    keys = body.keys
    service.tournament_ready.subscribe(tournament_id, account, body.endpoint, keys.p256dh, keys.auth)
    return TournamentPushAnswer(subscribed=True)


@router.delete(
    "/api/tournaments/{tournament_id}/push",
    responses={**answer(TournamentPushAnswer), **TOURNAMENT_PUSH_OFF_RESPONSES},
    dependencies=_LIMITED,
)
def tournament_push_off(
    tournament_id: TournamentId, service: Service, credentials: Bearer
) -> TournamentPushAnswer:
    """You are told no more."""
    account = service.accounts.account_of(None if credentials is None else credentials.credentials)
    service.tournament_ready.unsubscribe(tournament_id, account)
    return TournamentPushAnswer(subscribed=False)
