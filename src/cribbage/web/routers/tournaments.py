"""Tournaments (``docs/api.md``, "Tournaments"; issue 44): a director creates one, accounts
register and check in (at a club the director also enters guests and checks people in), the
director starts it, and each table is made the moment the tables before it are decided
(:class:`cribbage.app.tournaments.book.Tournaments`).

The account's session token is sent as ``Authorization: Bearer TOKEN`` (the ``SessionToken``
scheme of the accounts' routes).  Reading is public: a session (optional) fills ``you``, the
reader's entry, and shows the director the entries of the club tables.
"""

from __future__ import annotations

import csv
import io
import threading
from collections import OrderedDict
from typing import Annotated, Any, Final

from fastapi import APIRouter, Body
from fastapi import Path as PathParam
from fastapi.responses import Response

from ...app.tournaments.view import standings_rows, with_watch_codes
from ...storage import StoredAccount
from ..answers.tournaments import GuestAnswer, TournamentAnswer, TournamentListAnswer
from ..deps import Service, per_address
from ..jsontext import Json
from ..middleware import JsonRoute
from ..models import GameId
from ..openapi import _BODY, OBJECT, answer, refusals
from .accounts import Bearer, SessionToken
from .tournament_bodies import EntrantBody, GuestBody, RegisterBody, ResultBody, SettingsBody

__all__ = ["router"]

router = APIRouter(route_class=JsonRoute, tags=["tournaments"])

TournamentId = Annotated[str, PathParam(min_length=1, max_length=64, description="the tournament's id")]

# ------------------------------------------------------------------ refusals

_SESSION: Final = {401: "not signed in: no session token, or an unknown, ended or expired one"}
_COMMON: Final = {
    503: _BODY[503],
    422: "a malformed tournament id",
    429: "too many tournament requests from your address (limit tournaments)",
}
_FOUND: Final = {**_COMMON, 404: "no such tournament (tournament.not_found)"}
_BODY_COMMON: Final = {
    **_BODY,
    **_FOUND,
    422: "a malformed id or body, or a value the rules refuse (invalid)",
}
LIST_RESPONSES: Final = refusals({503: _BODY[503], 429: _COMMON[429]})
CREATE_RESPONSES: Final = refusals(
    {
        **_BODY,
        **_SESSION,
        429: _COMMON[429],
        422: "a malformed body, or a setting the rules refuse: invalid with the field at fault "
        "(a name too: invalid, field name)",
    }
)
GET_RESPONSES: Final = refusals(_FOUND)
RECORD_RESPONSES: Final = refusals(
    {
        **_FOUND,
        404: "no such tournament, or no table of it plays that game (tournament.no_table)",
        409: "the game is not over (tournament.game_not_over)",
    }
)
REGISTER_RESPONSES: Final = refusals(
    {
        **_FOUND,
        **_SESSION,
        409: "registration is closed (tournament.started), entered already, you or your partner "
        "(tournament.registered), or the tournament is full (tournament.full)",
        422: "a malformed id or body; a partner missing in a team event, given in a singles one, "
        "yourself, or no account of that name (invalid, field partner)",
    }
)
PARTNER_RESPONSES: Final = refusals(
    {
        **_FOUND,
        **_SESSION,
        404: "no such tournament (tournament.not_found), or no team waits for you as its partner "
        "(tournament.no_invitation)",
        409: "registration is closed (tournament.started)",
    }
)
ENTRANT_RESPONSES: Final = refusals(
    {
        **_BODY_COMMON,
        **_SESSION,
        403: "a number given by another than the director (tournament.not_director)",
        404: "no such tournament (tournament.not_found), or not entered (tournament.not_entered)",
        409: "registration is closed (tournament.started), the entrant is not playing "
        "(tournament.withdrawn), the tournament is over (tournament.finished), or a team's "
        "partner has not accepted (tournament.partner_pending, at check-in)",
    }
)
GUEST_RESPONSES: Final = refusals(
    {
        **_BODY_COMMON,
        **_SESSION,
        403: "only the director enters guests (tournament.not_director)",
        409: "registration is closed (tournament.started), an online tournament (tournament.guest_online), "
        "or the tournament is full (tournament.full)",
        422: "a malformed id or body, a name the rule of names refuses, or a partner missing in a team "
        "event, given in a singles one (invalid, with the field)",
    }
)
START_RESPONSES: Final = refusals(
    {
        **_FOUND,
        **_SESSION,
        403: "only the director starts it (tournament.not_director)",
        409: "started already (tournament.started), fewer than two checked in (tournament.too_few), "
        "or more games than the field plays without a third meeting (tournament.too_many_games)",
        422: "a malformed tournament id, or the rules cannot pair the field (tournament.invalid)",
    }
)
RESULT_RESPONSES: Final = refusals(
    {
        **_BODY_COMMON,
        **_SESSION,
        403: "not a player at the table nor the director (tournament.not_your_table)",
        404: "no such tournament (tournament.not_found), or no such table (tournament.no_table)",
        409: "an online table, decided by its game (tournament.online_table), a table decided already "
        "(tournament.decided), or your entry is made already (tournament.entered)",
        422: "a malformed id or body, a winner not at the table, a loser's score out of range, a "
        "player's forfeit (invalid, with the field)",
    }
)


def _account(service: Service, credentials: Bearer) -> StoredAccount:
    return service.accounts.account_of(None if credentials is None else credentials.credentials)


_WATCH_CODES: Final[OrderedDict[str, str]] = OrderedDict()
"""The watch codes read lately, by game: a game's code never changes once given (in any process),
and a page polls its tournament every few seconds, each of a round's games in progress with its
code: read once, not at every poll."""
_WATCH_CODES_KEPT: Final = 4096
_WATCH_LOCK: Final = threading.Lock()  # the routes run in threads


def _shown(service: Service, tournament: dict[str, Any]) -> Json:
    """A tournament's answer, each online game in progress with its watch code."""

    def code_of(game_id: str) -> str:
        with _WATCH_LOCK:
            code = _WATCH_CODES.get(game_id)
        if code is None:
            code = service.watching.watch_code(game_id)
            with _WATCH_LOCK:
                _WATCH_CODES[game_id] = code
                while len(_WATCH_CODES) > _WATCH_CODES_KEPT:
                    _WATCH_CODES.popitem(last=False)
        return code

    return Json(with_watch_codes(tournament, code_of))


_TOURNAMENT: Final = answer(TournamentAnswer)
_LIMITED: Final = [per_address("tournaments")]

# ------------------------------------------------------------------ routes


@router.get(
    "/api/tournaments", responses={**answer(TournamentListAnswer), **LIST_RESPONSES}, dependencies=_LIMITED
)
def listed(service: Service) -> Json:
    """The newest 100 tournaments: id, name, stage, settings, entrants (a count), created."""
    return Json({"tournaments": service.tournaments.listed()})


@router.post(
    "/api/tournaments",
    status_code=201,
    responses={**answer(TournamentAnswer, 201), **CREATE_RESPONSES},
    dependencies=_LIMITED,
)
def create(body: SettingsBody, service: Service, credentials: Bearer) -> Json:
    """Create a tournament, directed by the account, open for registration."""
    return Json(service.tournaments.create(_account(service, credentials), body), status_code=201)


@router.get(
    "/api/tournaments/{tournament_id}", responses={**_TOURNAMENT, **GET_RESPONSES}, dependencies=_LIMITED
)
def tournament(tournament_id: TournamentId, service: Service, session: SessionToken) -> Json:
    """The tournament: settings, entrants, tables, standings, bracket, champions; with a
    session, ``you`` (the account's entry; the director also sees the club tables' entries)."""
    return _shown(service, service.tournaments.get(tournament_id, service.accounts.signed_in(session)))


@router.post(
    "/api/tournaments/{tournament_id}/register",
    responses={**_TOURNAMENT, **REGISTER_RESPONSES},
    dependencies=_LIMITED,
)
def register(
    tournament_id: TournamentId,
    service: Service,
    credentials: Bearer,
    body: Annotated[RegisterBody | None, Body()] = None,
) -> Json:
    """Enter the account (not yet checked in), while registration is open; in a team event
    with its ``partner``, who accepts (``POST .../partner``) before the team checks in."""
    account = _account(service, credentials)
    partner = None if body is None else body.partner
    return _shown(service, service.tournaments.register(tournament_id, account, partner))


@router.post(
    "/api/tournaments/{tournament_id}/partner",
    responses={**_TOURNAMENT, **PARTNER_RESPONSES},
    dependencies=_LIMITED,
)
def accept_partner(tournament_id: TournamentId, service: Service, credentials: Bearer) -> Json:
    """Accept to play as the partner of the team that named the account (declining is
    withdrawing: ``POST .../withdraw``, which removes the team's entry before the start)."""
    account = _account(service, credentials)
    return _shown(service, service.tournaments.accept_partner(tournament_id, account))


_Entrant = Annotated[EntrantBody | None, Body()]


@router.post(
    "/api/tournaments/{tournament_id}/checkin",
    responses={**_TOURNAMENT, **ENTRANT_RESPONSES},
    dependencies=_LIMITED,
)
def check_in(
    tournament_id: TournamentId, service: Service, credentials: Bearer, body: _Entrant = None
) -> Json:
    """Check in the account's own entry, or (the director, ``number``) an entrant's."""
    number = None if body is None else body.number
    account = _account(service, credentials)
    return _shown(service, service.tournaments.check_in(tournament_id, account, number))


@router.post(
    "/api/tournaments/{tournament_id}/withdraw",
    responses={**_TOURNAMENT, **ENTRANT_RESPONSES},
    dependencies=_LIMITED,
)
def withdraw(
    tournament_id: TournamentId, service: Service, credentials: Bearer, body: _Entrant = None
) -> Json:
    """Withdraw the account's own entry, or (the director, ``number``) an entrant: before the
    start the entry is removed; after it the entrant's undecided games are forfeited."""
    number = None if body is None else body.number
    account = _account(service, credentials)
    return _shown(service, service.tournaments.withdraw(tournament_id, account, number))


@router.post(
    "/api/tournaments/{tournament_id}/guests",
    responses={**answer(GuestAnswer), **GUEST_RESPONSES},
    dependencies=_LIMITED,
)
def add_guest(tournament_id: TournamentId, body: GuestBody, service: Service, credentials: Bearer) -> Json:
    """The director enters a guest by name (a club's tournament), checked in: the tournament
    and the guest's ``number``."""
    account = _account(service, credentials)
    return _shown(service, service.tournaments.add_guest(tournament_id, account, body.name, body.partner))


@router.post(
    "/api/tournaments/{tournament_id}/start",
    responses={**_TOURNAMENT, **START_RESPONSES},
    dependencies=_LIMITED,
)
def start(tournament_id: TournamentId, service: Service, credentials: Bearer) -> Json:
    """The director starts the tournament: the entrants checked in play; the first round's
    tables are made (online, each with its game)."""
    return _shown(service, service.tournaments.start(tournament_id, _account(service, credentials)))


@router.post(
    "/api/tournaments/{tournament_id}/results",
    responses={**_TOURNAMENT, **RESULT_RESPONSES},
    dependencies=_LIMITED,
)
def result(tournament_id: TournamentId, body: ResultBody, service: Service, credentials: Bearer) -> Json:
    """A club table's result, entered by a player at the table (counted once both players'
    entries agree) or by the director (decides it; ``forfeit: true`` the director's only)."""
    data = body.model_dump(exclude_none=True)
    return _shown(service, service.tournaments.report(tournament_id, _account(service, credentials), data))


def _cell(value: Any) -> Any:
    """A CSV cell: a text a spreadsheet would read as a formula (=, +, -, @ first) quoted with '."""
    return f"'{value}" if isinstance(value, str) and value[:1] in ("=", "+", "-", "@") else value


@router.get(
    "/api/tournaments/{tournament_id}/standings.csv",
    response_class=Response,
    responses={
        200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "the standings"},
        **GET_RESPONSES,
    },
    dependencies=_LIMITED,
)
def standings_csv(tournament_id: TournamentId, service: Service) -> Response:
    """The qualifying's standings as CSV (a header row, then a row a standing, best first)."""
    shown = service.tournaments.get(tournament_id, None)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in standings_rows(shown):
        writer.writerow([_cell(value) for value in row])
    name = f"standings-{shown['id']}.csv"
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{name}"'},
    )


@router.get(
    "/api/tournaments/{tournament_id}/games/{game_id}/record",
    responses={200: OBJECT, **RECORD_RESPONSES},
    dependencies=_LIMITED,
)
def tournament_game_record(tournament_id: TournamentId, game_id: GameId, service: Service) -> Json:
    """The record of a finished game of the tournament's tables, for anyone (a scorecard's
    review): as ``GET /api/games/{id}/record`` answers a player."""
    return Json(service.tournaments.games.record(tournament_id, game_id))
